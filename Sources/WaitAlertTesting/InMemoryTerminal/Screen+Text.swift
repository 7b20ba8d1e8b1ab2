import WaitAlert

// Text placement: grapheme clusters by display width, wide characters, autowrap.

extension InMemoryTerminal.Screen {
    /// Shows a scalar: it extends the last placed cluster when they form one grapheme cluster, joins the
    /// character before the cursor when it has no width, and is placed at the cursor otherwise.
    mutating func printScalar(_ scalar: Unicode.Scalar) {
        if scalar.value >= 0x20, scalar.value < 0x7F, lastCluster?.text.unicodeScalars.last?.isASCII ?? true {
            // Printable ASCII after ASCII (or nothing to extend) starts a cluster of width 1.
            place(String(scalar), width: 1)
            return
        }
        if let last = lastCluster {
            let extended = last.text + String(scalar)
            if extended.count == 1 {
                extend(last, to: extended)
                return
            }
        }
        let text = String(scalar)
        let width = DisplayWidth.of(Character(scalar))
        if width <= 0 {
            appendToPreviousCell(text)
        } else {
            place(text, width: width)
        }
    }

    /// Puts a grapheme cluster at the cursor and advances the cursor past it.
    private mutating func place(_ text: String, width: Int) {
        if isWrapPending {
            isWrapPending = false
            if autowraps { wrapLine(at: columns) }
        }
        let width = min(width, columns)
        if !autowraps, isAtMargin || cursorColumn + width > columns {
            trace.overflowed(row: scrollback.count + cursorRow)
        }
        if cursorColumn + width > columns {
            if autowraps {
                wrapLine(at: cursorColumn)
            } else {
                cursorColumn = columns - width
            }
        }
        put(.character(text, width: width), row: cursorRow, column: cursorColumn)
        if width == 2 {
            put(.continuation, row: cursorRow, column: cursorColumn + 1)
        }
        lastCluster = PlacedCluster(row: cursorRow, column: cursorColumn, text: text)
        cursorColumn += width
        isAtMargin = cursorColumn >= columns
        if isAtMargin {
            cursorColumn = columns - 1
            isWrapPending = autowraps
        }
    }

    /// Replaces the last placed cluster with `text`, a longer form of it; places it again if its width changed.
    private mutating func extend(_ cluster: PlacedCluster, to text: String) {
        let width = min(max(DisplayWidth.of(Character(text)), 1), columns)
        if grid[cluster.row].cells[cluster.column].width == width {
            trace.touch(row: scrollback.count + cluster.row)
            grid[cluster.row].cells[cluster.column] = .character(text, width: width)
            lastCluster?.text = text
        } else {
            put(.blank, row: cluster.row, column: cluster.column)
            cursorRow = cluster.row
            cursorColumn = cluster.column
            isWrapPending = false
            isAtMargin = false
            place(text, width: width)
        }
    }

    /// Joins a zero-width cluster to the character before the cursor; at the start of a line it is dropped.
    private mutating func appendToPreviousCell(_ text: String) {
        lastCluster = nil
        var column: Int
        if isWrapPending {
            column = cursorColumn
        } else if cursorColumn > 0 {
            column = cursorColumn - 1
        } else {
            return
        }
        if grid[cursorRow].cells[column] == .continuation, column > 0 {
            column -= 1
        }
        trace.touch(row: scrollback.count + cursorRow)
        switch grid[cursorRow].cells[column] {
        case .character(let existing, let width):
            grid[cursorRow].cells[column] = .character(existing + text, width: width)
        case .blank:
            grid[cursorRow].cells[column] = .character(" " + text, width: 1)
        case .continuation:
            break
        }
    }

    /// Stores `cell`, blanking the other half of a wide character it overwrites.
    mutating func put(_ cell: InMemoryTerminal.Cell, row: Int, column: Int) {
        trace.touch(row: scrollback.count + row)
        switch grid[row].cells[column] {
        case .character(_, width: 2) where column + 1 < columns && grid[row].cells[column + 1] == .continuation:
            grid[row].cells[column + 1] = .blank
        case .continuation where column > 0:
            grid[row].cells[column - 1] = .blank
        default:
            break
        }
        grid[row].cells[column] = cell
    }
}

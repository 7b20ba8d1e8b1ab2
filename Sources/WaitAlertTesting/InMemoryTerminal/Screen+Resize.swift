// Resizing: cutting or re-wrapping lines to a new width, and fitting the grid to a new height.

extension InMemoryTerminal.Screen {
    /// Changes the size of the screen; see `InMemoryTerminal.resize(columns:rows:)`.
    ///
    /// - Parameter reflow: Whether lines are re-wrapped (tmux, VTE) instead of cut (xterm).
    mutating func resize(columns newColumns: Int, rows newRows: Int, reflow: Bool) {
        lastCluster = nil
        isAtMargin = false
        if reflow {
            rewrap(to: newColumns)
        } else {
            cut(to: newColumns)
        }
        columns = newColumns
        rows = newRows
        fitRows()
    }

    /// Cuts or pads every line to `newColumns` and clamps the cursor.
    private mutating func cut(to newColumns: Int) {
        for row in grid.indices {
            if newColumns < columns {
                grid[row].cells.removeLast(columns - newColumns)
                if grid[row].cells[newColumns - 1].width == 2 {
                    grid[row].cells[newColumns - 1] = .blank
                }
            } else {
                grid[row].cells += repeatElement(.blank, count: newColumns - columns)
            }
        }
        if newColumns > columns, isWrapPending {
            // The cursor goes to the cell after the character that was written last.
            cursorColumn = columns
            isWrapPending = false
        } else if newColumns < columns {
            cursorColumn = min(cursorColumn, newColumns - 1)
            isWrapPending = false
        }
    }

    /// Joins the lines that autowrap continued and wraps every line again at `newColumns`.
    private mutating func rewrap(to newColumns: Int) {
        var newGrid: [InMemoryTerminal.Line] = []
        var newCursor = (row: 0, column: 0)
        var newWrapPending = false
        var start = 0
        while start < grid.count {
            if !grid[start].isWrapped, start != cursorRow, grid[start].isBlank {
                newGrid.append(InMemoryTerminal.Line(columns: newColumns))
                start += 1
                continue
            }
            var end = start
            while grid[end].isWrapped, end + 1 < grid.count {
                end += 1
            }
            var cells = grid[start...end].flatMap(\.cells)
            let isCursorLine = (start...end).contains(cursorRow)
            let cursorIndex = isCursorLine ? (cursorRow - start) * columns + cursorColumn : nil
            var length = (cells.lastIndex { $0 != .blank } ?? -1) + 1
            if let cursorIndex {
                length = max(length, cursorIndex + 1)
            }
            cells.removeLast(cells.count - length)

            var lead = cursorIndex
            var offset = 0
            if let index = cursorIndex, index > 0, cells[index] == .continuation {
                lead = index - 1
                offset = 1
            }
            let (lines, position) = Self.wrap(cells, columns: newColumns, locating: lead)
            if let lead, let position {
                let cellEnd = position.column + min(cells[lead].width, newColumns)
                if isWrapPending {
                    newWrapPending = cellEnd >= newColumns
                    newCursor = (newGrid.count + position.row, min(cellEnd, newColumns - 1))
                } else {
                    newCursor = (newGrid.count + position.row, min(position.column + offset, newColumns - 1))
                }
            }
            newGrid += lines
            start = end + 1
        }
        grid = newGrid
        cursorRow = newCursor.row
        cursorColumn = newCursor.column
        isWrapPending = newWrapPending
    }

    /// Lays `cells` out on lines of `columns` cells and returns where the cell at index `target` went.
    private static func wrap(
        _ cells: [InMemoryTerminal.Cell],
        columns: Int,
        locating target: Int?
    ) -> (lines: [InMemoryTerminal.Line], position: (row: Int, column: Int)?) {
        var lines = [InMemoryTerminal.Line(columns: columns)]
        var column = 0
        var position: (row: Int, column: Int)?
        var index = 0
        while index < cells.count {
            var cell = cells[index]
            var step = 1
            switch cell {
            case .character(let text, let width):
                if width == 2, index + 1 < cells.count, cells[index + 1] == .continuation {
                    step = 2
                }
                cell = .character(text, width: min(width, columns))
            case .continuation:
                cell = .blank
            case .blank:
                break
            }
            if column + cell.width > columns {
                lines[lines.count - 1].wrapColumn = column
                lines.append(InMemoryTerminal.Line(columns: columns))
                column = 0
            }
            lines[lines.count - 1].cells[column] = cell
            if cell.width == 2 {
                lines[lines.count - 1].cells[column + 1] = .continuation
            }
            if index == target {
                position = (lines.count - 1, column)
            }
            column += cell.width
            index += step
        }
        return (lines, position)
    }

    /// Makes the grid exactly `rows` lines, keeping the cursor on screen.
    ///
    /// Drops empty lines below the cursor, then moves lines above the cursor into the scrollback, then drops
    /// the lines below the cursor that still do not fit; finally adds empty lines at the bottom.
    private mutating func fitRows() {
        while grid.count > rows, grid.count - 1 > cursorRow, grid[grid.count - 1].isBlank {
            grid.removeLast()
        }
        while grid.count > rows, cursorRow > 0 {
            pushTopLineToScrollback()
            cursorRow -= 1
        }
        while grid.count > rows {
            grid.removeLast()
        }
        while grid.count < rows {
            grid.append(InMemoryTerminal.Line(columns: columns))
        }
    }
}

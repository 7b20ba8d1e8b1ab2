import WaitAlert

extension InMemoryTerminal {

    /// The screen, the cursor and the input parser.
    struct Screen {
        /// The cell where the last grapheme cluster was placed, which a following scalar may extend.
        struct PlacedCluster {
            var row: Int
            var column: Int
            var text: String
        }

        /// The state saved by `ESC 7` and `CSI s`.
        struct SavedCursor {
            var row: Int
            var column: Int
            var isWrapPending: Bool
            var style: Style
        }

        private(set) var columns: Int
        private(set) var rows: Int
        private var grid: [Line]
        private(set) var scrollback: [String] = []

        private(set) var cursorRow = 0
        private(set) var cursorColumn = 0
        private var isWrapPending = false
        private var autowraps = true
        private(set) var isCursorVisible = true
        private(set) var style: Style = []
        private var savedCursor: SavedCursor?

        var bellCount = 0
        private(set) var unknownSequences: [String] = []

        private var parserState = ParserState.ground
        /// The bytes of the escape sequence being parsed, from its ESC.
        private var sequence: [UInt8] = []
        private var decoder = UTF8Decoder()
        private var lastCluster: PlacedCluster?

        init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
            grid = Array(repeating: Line(columns: columns), count: rows)
        }

        /// The text of every line, without trailing empty lines.
        var visibleLines: [String] {
            var lines = grid.map(\.text)
            while lines.last == "" {
                lines.removeLast()
            }
            return lines
        }

        // MARK: Parsing

        mutating func consume(_ byte: UInt8) {
            switch parserState {
            case .ground:
                consumeText(byte)
            case .escape:
                consumeEscape(byte)
            case .escapeIntermediate, .controlSequence:
                consumeSequenceByte(byte)
            case .controlString(let isOperatingSystemCommand):
                consumeControlString(byte, isOperatingSystemCommand: isOperatingSystemCommand)
            case .controlStringEscape:
                if byte == UInt8(ascii: "\\") {
                    sequence.append(byte)
                    recordSequence()
                } else {
                    // The ESC ends the string and starts a new sequence.
                    sequence.removeLast()
                    recordSequence()
                    startEscape()
                    consume(byte)
                }
            }
        }

        private mutating func consumeText(_ byte: UInt8) {
            guard decoder.isIncomplete || byte >= 0x80 else {
                if byte < 0x20 || byte == 0x7F {
                    execute(byte)
                } else {
                    printScalar(Unicode.Scalar(byte))
                }
                return
            }
            switch decoder.decode(byte) {
            case .scalar(let scalar):
                printScalar(scalar)
            case .incomplete:
                break
            case .invalid(let reprocess):
                printScalar("\u{FFFD}")
                if reprocess { consumeText(byte) }
            }
        }

        /// Handles a byte that interrupts an escape sequence: a C0 control runs inside it, DEL is
        /// ignored, a byte of a non-ASCII character abandons it.
        ///
        /// - Returns: whether the byte was handled.
        private mutating func interruptsSequence(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x00...0x1F:
                executeInSequence(byte)
            case 0x7F:
                break
            case 0x80...:
                recordSequence()
                consume(byte)
            default:
                return false
            }
            return true
        }

        private mutating func consumeEscape(_ byte: UInt8) {
            guard !interruptsSequence(byte) else { return }
            sequence.append(byte)
            switch byte {
            case UInt8(ascii: "["): parserState = .controlSequence
            case UInt8(ascii: "]"): parserState = .controlString(isOperatingSystemCommand: true)
            case UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
                parserState = .controlString(isOperatingSystemCommand: false)
            case 0x20...0x2F: parserState = .escapeIntermediate
            case UInt8(ascii: "7"):
                saveCursor()
                parserState = .ground
            case UInt8(ascii: "8"):
                restoreCursor()
                parserState = .ground
            default: recordSequence()
            }
        }

        /// Handles a byte after ESC and an intermediate byte, or after ESC [.
        private mutating func consumeSequenceByte(_ byte: UInt8) {
            guard !interruptsSequence(byte) else { return }
            let isControlSequence = if case .controlSequence = parserState { true } else { false }
            sequence.append(byte)
            if isControlSequence, (0x40...0x7E).contains(byte) {
                dispatchControlSequence()
            } else if !isControlSequence, (0x30...0x7E).contains(byte) {
                recordSequence()
            }
        }

        private mutating func consumeControlString(_ byte: UInt8, isOperatingSystemCommand: Bool) {
            switch byte {
            case 0x07 where isOperatingSystemCommand:
                sequence.append(byte)
                recordSequence()
            case 0x18, 0x1A:
                recordSequence()
            case 0x1B:
                sequence.append(byte)
                parserState = .controlStringEscape
            default:
                sequence.append(byte)
            }
        }

        /// A control character inside an escape sequence: CAN and SUB cancel it, ESC starts a new one, and the
        /// others take effect without interrupting it.
        private mutating func executeInSequence(_ byte: UInt8) {
            switch byte {
            case 0x18, 0x1A:
                recordSequence()
            case 0x1B:
                recordSequence()
                startEscape()
            default:
                execute(byte)
            }
        }

        private mutating func startEscape() {
            sequence = [0x1B]
            parserState = .escape
        }

        /// Records the sequence parsed so far as unknown and returns to text.
        private mutating func recordSequence() {
            unknownSequences.append(String(decoding: sequence, as: UTF8.self))
            finishSequence()
        }

        private mutating func finishSequence() {
            sequence = []
            parserState = .ground
        }

        // MARK: Controls

        private mutating func execute(_ control: UInt8) {
            lastCluster = nil
            switch control {
            case 0x07:
                bellCount += 1
            case 0x08:
                isWrapPending = false
                cursorColumn = max(0, cursorColumn - 1)
            case 0x09:
                isWrapPending = false
                cursorColumn = min(columns - 1, (cursorColumn / 8 + 1) * 8)
            case 0x0A, 0x0B, 0x0C:
                isWrapPending = false
                cursorColumn = 0
                lineFeed()
            case 0x0D:
                isWrapPending = false
                cursorColumn = 0
            case 0x1B:
                startEscape()
            default:
                unknownSequences.append(String(Unicode.Scalar(control)))
            }
        }

        private mutating func dispatchControlSequence() {
            if let sequence = ControlSequence(sequence), apply(sequence) {
                finishSequence()
            } else {
                recordSequence()
            }
        }

        /// Applies a control sequence; returns `false` when it is not supported.
        private mutating func apply(_ sequence: ControlSequence) -> Bool {
            guard sequence.intermediates.isEmpty else { return false }
            switch sequence.privateMarker {
            case nil:
                break
            case UInt8(ascii: "?"):
                return setPrivateModes(sequence)
            default:
                return false
            }
            if sequence.final == UInt8(ascii: "m") {
                return selectGraphicRendition(sequence.parameters)
            }
            guard !sequence.hasSubparameters else { return false }
            let count = sequence.parameters.count
            switch sequence.final {
            case UInt8(ascii: "A") where count <= 1:
                moveCursor(row: cursorRow - sequence.count(at: 0), column: cursorColumn)
            case UInt8(ascii: "B") where count <= 1:
                moveCursor(row: cursorRow + sequence.count(at: 0), column: cursorColumn)
            case UInt8(ascii: "C") where count <= 1:
                moveCursor(row: cursorRow, column: cursorColumn + sequence.count(at: 0))
            case UInt8(ascii: "D") where count <= 1:
                moveCursor(row: cursorRow, column: cursorColumn - sequence.count(at: 0))
            case UInt8(ascii: "G") where count <= 1:
                moveCursor(row: cursorRow, column: sequence.count(at: 0) - 1)
            case UInt8(ascii: "H") where count <= 2, UInt8(ascii: "f") where count <= 2:
                moveCursor(row: sequence.count(at: 0) - 1, column: sequence.count(at: 1) - 1)
            case UInt8(ascii: "K") where count <= 1:
                return eraseInLine(mode: sequence.value(at: 0) ?? 0)
            case UInt8(ascii: "J") where count <= 1:
                return eraseInDisplay(mode: sequence.value(at: 0) ?? 0)
            case UInt8(ascii: "s") where count == 0:
                saveCursor()
            case UInt8(ascii: "u") where count == 0:
                restoreCursor()
            default:
                return false
            }
            return true
        }

        /// `CSI ? … h` and `CSI ? … l`; returns `false` when any mode is not supported.
        private mutating func setPrivateModes(_ sequence: ControlSequence) -> Bool {
            let isSet: Bool
            switch sequence.final {
            case UInt8(ascii: "h"): isSet = true
            case UInt8(ascii: "l"): isSet = false
            default: return false
            }
            guard !sequence.parameters.isEmpty, !sequence.hasSubparameters else { return false }
            var isSupported = true
            for index in sequence.parameters.indices {
                switch sequence.value(at: index) {
                case 7:
                    autowraps = isSet
                    if !isSet { isWrapPending = false }
                case 25:
                    isCursorVisible = isSet
                default:
                    isSupported = false
                }
            }
            return isSupported
        }

        /// `CSI … m`; returns `false` when any attribute is not supported or an extended color is malformed.
        private mutating func selectGraphicRendition(_ parameters: [[Int?]]) -> Bool {
            guard !parameters.isEmpty else {
                style = []
                return true
            }
            var isSupported = true
            var index = 0
            while index < parameters.count {
                let parameter = parameters[index]
                index += 1
                let code = parameter[0] ?? 0
                if parameter.count > 1 {
                    // Colon form: 4:n underline style, 38:…, 48:…, 58:… extended colors.
                    switch code {
                    case 4 where (parameter[1] ?? 0) == 0: style.remove(.underline)
                    case 4: style.insert(.underline)
                    case 38: style.insert(.foreground)
                    case 48: style.insert(.background)
                    case 58: style.insert(.underlineColor)
                    default: isSupported = false
                    }
                    continue
                }
                switch code {
                case 0: style = []
                case 1: style.insert(.bold)
                case 2: style.insert(.faint)
                case 3: style.insert(.italic)
                case 4, 21: style.insert(.underline)
                case 5, 6: style.insert(.blink)
                case 7: style.insert(.inverse)
                case 8: style.insert(.hidden)
                case 9: style.insert(.strikethrough)
                case 22: style.remove([.bold, .faint])
                case 23: style.remove(.italic)
                case 24: style.remove(.underline)
                case 25: style.remove(.blink)
                case 27: style.remove(.inverse)
                case 28: style.remove(.hidden)
                case 29: style.remove(.strikethrough)
                case 30...37, 90...97: style.insert(.foreground)
                case 39: style.remove(.foreground)
                case 40...47, 100...107: style.insert(.background)
                case 49: style.remove(.background)
                case 53: style.insert(.overline)
                case 55: style.remove(.overline)
                case 59: style.remove(.underlineColor)
                case 38, 48, 58:
                    // Semicolon form: 5;index or 2;red;green;blue.
                    let mode = index < parameters.count ? parameters[index][0] : nil
                    let argumentCount =
                        switch mode {
                        case 5: 1
                        case 2: 3
                        default: Int.max
                        }
                    guard argumentCount <= parameters.count - index - 1 else { return false }
                    index += 1 + argumentCount
                    style.insert(code == 38 ? .foreground : code == 48 ? .background : .underlineColor)
                default:
                    isSupported = false
                }
            }
            return isSupported
        }

        // MARK: Cursor

        private mutating func moveCursor(row: Int, column: Int) {
            cursorRow = min(max(row, 0), rows - 1)
            cursorColumn = min(max(column, 0), columns - 1)
            isWrapPending = false
        }

        private mutating func saveCursor() {
            savedCursor = SavedCursor(
                row: cursorRow,
                column: cursorColumn,
                isWrapPending: isWrapPending,
                style: style
            )
        }

        /// Restores the saved cursor, clamped to the screen; without one, moves home and clears the style.
        private mutating func restoreCursor() {
            guard let saved = savedCursor else {
                moveCursor(row: 0, column: 0)
                style = []
                return
            }
            moveCursor(row: saved.row, column: saved.column)
            isWrapPending = saved.isWrapPending && autowraps && saved.column == columns - 1
            style = saved.style
        }

        /// Moves the cursor down one line, scrolling when it is on the bottom line.
        private mutating func lineFeed() {
            if cursorRow == rows - 1 {
                scrollback.append(grid.removeFirst().text)
                grid.append(Line(columns: columns))
            } else {
                cursorRow += 1
            }
        }

        /// Continues the current line at the start of the next one.
        private mutating func wrapLine() {
            grid[cursorRow].isWrapped = true
            cursorColumn = 0
            lineFeed()
        }

        // MARK: Text

        private mutating func printScalar(_ scalar: Unicode.Scalar) {
            if (0x80...0x9F).contains(scalar.value) {
                // C1 control characters are never text.
                lastCluster = nil
                unknownSequences.append(String(scalar))
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
                if autowraps { wrapLine() }
            }
            let width = min(width, columns)
            if cursorColumn + width > columns {
                if autowraps {
                    wrapLine()
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
            if cursorColumn >= columns {
                cursorColumn = columns - 1
                isWrapPending = autowraps
            }
        }

        /// Replaces the last placed cluster with `text`, a longer form of it; places it again if its width changed.
        private mutating func extend(_ cluster: PlacedCluster, to text: String) {
            let width = min(max(DisplayWidth.of(Character(text)), 1), columns)
            if grid[cluster.row].cells[cluster.column].width == width {
                grid[cluster.row].cells[cluster.column] = .character(text, width: width)
                lastCluster?.text = text
            } else {
                put(.blank, row: cluster.row, column: cluster.column)
                cursorRow = cluster.row
                cursorColumn = cluster.column
                isWrapPending = false
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
        private mutating func put(_ cell: Cell, row: Int, column: Int) {
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

        // MARK: Erasing

        /// Blanks `range` of `row`; a line erased to its end no longer continues on the next one.
        private mutating func erase(row: Int, columns range: Range<Int>) {
            for column in range {
                put(.blank, row: row, column: column)
            }
            if range.upperBound == columns {
                grid[row].isWrapped = false
            }
        }

        private mutating func eraseInLine(mode: Int) -> Bool {
            switch mode {
            case 0: erase(row: cursorRow, columns: cursorColumn..<columns)
            case 1: erase(row: cursorRow, columns: 0..<(cursorColumn + 1))
            case 2: erase(row: cursorRow, columns: 0..<columns)
            default: return false
            }
            isWrapPending = false
            return true
        }

        private mutating func eraseInDisplay(mode: Int) -> Bool {
            let rowsToErase: Range<Int>
            switch mode {
            case 0:
                erase(row: cursorRow, columns: cursorColumn..<columns)
                rowsToErase = (cursorRow + 1)..<rows
            case 1:
                erase(row: cursorRow, columns: 0..<(cursorColumn + 1))
                rowsToErase = 0..<cursorRow
            case 2:
                rowsToErase = 0..<rows
            default:
                return false
            }
            for row in rowsToErase {
                erase(row: row, columns: 0..<columns)
            }
            isWrapPending = false
            return true
        }

        // MARK: Resizing

        mutating func resize(columns newColumns: Int, rows newRows: Int, reflow: Bool) {
            lastCluster = nil
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
            var newGrid: [Line] = []
            var newCursor = (row: 0, column: 0)
            var newWrapPending = false
            var start = 0
            while start < grid.count {
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
            _ cells: [Cell],
            columns: Int,
            locating target: Int?
        ) -> (lines: [Line], position: (row: Int, column: Int)?) {
            var lines = [Line(columns: columns)]
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
                    lines[lines.count - 1].isWrapped = true
                    lines.append(Line(columns: columns))
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
                scrollback.append(grid.removeFirst().text)
                cursorRow -= 1
            }
            while grid.count > rows {
                grid.removeLast()
            }
            while grid.count < rows {
                grid.append(Line(columns: columns))
            }
        }
    }
}

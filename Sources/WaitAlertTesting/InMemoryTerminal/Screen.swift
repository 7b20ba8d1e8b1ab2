extension InMemoryTerminal {
    /// The screen and the cursor, which perform the parser's actions.
    ///
    /// This file holds the state, the controls and the cursor; text placement, control sequences, text style and
    /// resizing are in the `Screen+…` files, which is why most of the state is internal rather than private.
    struct Screen: Parser.Performer {
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

        var columns: Int
        var rows: Int
        var grid: [Line]
        var scrollback: [String] = []
        /// For each line of `scrollback`, its part of a logical line when autowrap continued it on the next
        /// one (see `Line.continuedText`), `nil` otherwise.
        var scrollbackContinuations: [String?] = []

        var cursorRow = 0
        var cursorColumn = 0
        var isWrapPending = false
        var autowraps = true
        var isCursorVisible = true
        /// Whether bracketed paste (mode 2004) is on.
        var isPasteBracketed = false
        /// Whether a synchronized update (mode 2026) is open, and how many have begun.
        var isSynchronizing = false
        var synchronizedUpdates = 0
        var style: Style = []
        private var savedCursor: SavedCursor?

        var bellCount = 0
        private(set) var unknownSequences: [String] = []
        /// The progress the terminal's tab or taskbar shows (`OSC 9;4`), and how many times it was set.
        var taskbar = InMemoryTerminal.TaskbarState.cleared
        var taskbarUpdates = 0

        /// What the current write did that the invariant checks look at.
        var trace = FrameTrace()
        /// Whether the last cluster placed ended at the right margin and the cursor has not moved since: with
        /// autowrap off, the next one overwrites the last column.
        var isAtMargin = false

        /// The cluster that a following scalar may extend; `nil` once anything else came after it (a control, an
        /// escape sequence, a zero-width cluster joined to a cell, a resize).
        var lastCluster: PlacedCluster?

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

        // MARK: Actions

        /// Performs one of the parser's actions; a control or sequence that is not supported is recorded in
        /// `unknownSequences`.
        mutating func perform(_ action: Parser.Action) {
            if case .print(let scalar) = action {
                printScalar(scalar)
                return
            }
            // Anything but text ends the cluster that a following scalar could extend.
            lastCluster = nil
            switch action {
            case .print:
                break
            case .execute(let control):
                execute(control)
            case .escape(let bytes):
                if !applyEscape(bytes) { record(bytes) }
            case .controlSequence(let sequence, let bytes):
                if !apply(sequence) { record(bytes) }
            case .ignore(let bytes):
                if let state = InMemoryTerminal.TaskbarState(sequence: bytes) {
                    taskbar = state
                    taskbarUpdates += 1
                }
                record(bytes)
            }
        }

        /// Records a sequence as unknown.
        private mutating func record(_ bytes: [UInt8]) {
            unknownSequences.append(String(decoding: bytes, as: UTF8.self))
        }

        // MARK: Controls

        /// Runs a control character; one that is not supported is recorded in `unknownSequences`.
        private mutating func execute(_ control: UInt8) {
            if control != 0x07 { isAtMargin = false }
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
            default:
                unknownSequences.append(String(Unicode.Scalar(control)))
            }
        }

        /// Applies `ESC 7` or `ESC 8`; returns `false` for any other escape sequence.
        private mutating func applyEscape(_ bytes: [UInt8]) -> Bool {
            switch bytes {
            case [0x1B, UInt8(ascii: "7")]: saveCursor()
            case [0x1B, UInt8(ascii: "8")]: restoreCursor()
            default: return false
            }
            return true
        }

        // MARK: Cursor

        mutating func moveCursor(row: Int, column: Int) {
            isAtMargin = false
            cursorRow = min(max(row, 0), rows - 1)
            cursorColumn = min(max(column, 0), columns - 1)
            isWrapPending = false
        }

        mutating func saveCursor() {
            savedCursor = SavedCursor(
                row: cursorRow,
                column: cursorColumn,
                isWrapPending: isWrapPending,
                style: style
            )
        }

        /// Restores the saved cursor, clamped to the screen; without one, moves home and clears the style.
        mutating func restoreCursor() {
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
                pushTopLineToScrollback()
                grid.append(Line(columns: columns))
            } else {
                cursorRow += 1
            }
        }

        /// Moves the top line of the screen into the scrollback.
        mutating func pushTopLineToScrollback() {
            let line = grid.removeFirst()
            scrollback.append(line.text)
            scrollbackContinuations.append(line.isWrapped ? line.continuedText : nil)
        }

        /// Continues the current line at the start of the next one; `column` is where its text ends.
        mutating func wrapLine(at column: Int) {
            trace.touch(row: scrollback.count + cursorRow)
            grid[cursorRow].wrapColumn = column
            cursorColumn = 0
            lineFeed()
        }
    }
}

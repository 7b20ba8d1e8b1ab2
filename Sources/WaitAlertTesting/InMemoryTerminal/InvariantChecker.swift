// The per-write invariant checks of an in-memory terminal; the public side is in InMemoryTerminal+Invariants.swift.

extension InMemoryTerminal {
    /// What one write did that the invariant checks look at; the screen keeps it and the terminal resets it
    /// before every write.
    ///
    /// Rows are counted from the first line of the scrollback, so a row keeps its number when it scrolls off.
    struct FrameTrace {
        /// The first row whose cells changed.
        private(set) var firstTouchedRow = Int.max
        /// The first cursor-up that the top of the screen stopped: the screen row it started from and how far
        /// it meant to go.
        private(set) var clampedMove: (row: Int, count: Int)?
        /// The first row where text ran past the right margin with autowrap off.
        private(set) var overflowRow: Int?

        mutating func touch(row: Int) {
            if row < firstTouchedRow { firstTouchedRow = row }
        }

        mutating func clampedUp(from row: Int, by count: Int) {
            if clampedMove == nil { clampedMove = (row, count) }
        }

        mutating func overflowed(row: Int) {
            if overflowRow == nil { overflowRow = row }
        }
    }

    /// Checks the state after every write against the invariants turned on, and keeps the committed lines.
    ///
    /// The lines above the cursor at the end of a write are committed. Rows are counted from the first line of
    /// the scrollback (absolute rows), which only ever grows, so a committed row keeps its number.
    struct InvariantChecker {
        let invariants: Invariants
        private(set) var violations: [InvariantViolation] = []
        /// Every logical line committed, in order, as it read when it was committed.
        private(set) var committedLines: [String] = []
        /// The writes checked so far.
        private(set) var writes = 0
        private(set) var hasEnded = false

        /// The first row that is not committed: the start of the cursor's logical line after the last check.
        private var committedEnd = 0
        /// The first committed row still on screen after the last check (rows above it are in the scrollback,
        /// which never changes).
        private var recordedBase = 0
        /// The text of every committed row from `recordedBase` to `committedEnd`, as last seen.
        private var recorded: [String] = []
        /// The beginning of a logical line whose first rows are committed and whose last is not yet.
        private var pendingLine = ""

        init(invariants: Invariants, screen: Screen) {
            self.invariants = invariants
            rebase(on: screen)
        }

        /// Takes the screen as it is as the new starting point: after a resize (which cuts or re-wraps lines
        /// itself), or when checking starts. Lines already above the cursor are not added to `committedLines`.
        mutating func rebase(on screen: Screen) {
            committedEnd = Self.logicalLineStart(atCursorOf: screen)
            recordedBase = min(screen.scrollback.count, committedEnd)
            recorded = (recordedBase..<committedEnd).map { screen.text(atRow: $0) }
            pendingLine = ""
        }

        // MARK: After a write

        /// Checks the screen after a write of `bytes`.
        mutating func check(write bytes: [UInt8], screen: Screen) {
            writes += 1
            if hasEnded, invariants.contains(.nothingAfterEnd) {
                report(.nothingAfterEnd, "\(bytes.count) bytes written after the end: \(Self.preview(bytes))")
            }
            if invariants.contains(.linesFitWidth) { checkWidth(screen) }
            if invariants.contains(.regionFits) { checkRegion(screen) }
            if invariants.contains(.synchronizedUpdatesBalanced), screen.isSynchronizing {
                report(
                    .synchronizedUpdatesBalanced,
                    "the write left a synchronized update open (CSI ?2026h without CSI ?2026l)")
            }
            trackCommitted(screen)
        }

        /// Text cut at the right margin with autowrap off, autowrap left off, a row at or below the cursor that
        /// autowrap continued.
        private mutating func checkWidth(_ screen: Screen) {
            if let row = screen.trace.overflowRow {
                let shown = screen.text(atRow: row)
                report(
                    .linesFitWidth,
                    "text ran past the right margin of the \(screen.columns)-column screen with autowrap off: a "
                        + "line wider than the screen was cut (the row reads \"\(shown)\")")
            }
            if !screen.autowraps {
                report(.linesFitWidth, "autowrap is still off after the write (CSI ?7l without CSI ?7h)")
            }
            if let row = (screen.cursorRow..<screen.rows).first(where: { screen.grid[$0].isWrapped }) {
                report(
                    .linesFitWidth,
                    "row \(row), at or below the cursor (row \(screen.cursorRow)), wrapped onto the next row: "
                        + "\"\(screen.grid[row].text)\" is wider than the \(screen.columns)-column screen")
            }
        }

        /// A region taller than the screen less one line, or a cursor-up that the top of the screen stopped.
        private mutating func checkRegion(_ screen: Screen) {
            if let move = screen.trace.clampedMove {
                report(
                    .regionFits,
                    "the cursor was moved up \(move.count) rows from row \(move.row) "
                        + "and stopped at the top of the \(screen.rows)-row screen: what it meant to reach had "
                        + "scrolled off")
            }
            // The lines from the cursor's row to the last non-blank one span at most rows − 1 unless the cursor
            // is on the top row and the bottom row is not blank.
            if screen.cursorRow == 0, !screen.grid[screen.rows - 1].isBlank {
                report(
                    .regionFits,
                    "the lines from the cursor's row to the last non-blank row take all \(screen.rows) rows of "
                        + "the screen; a live region may take at most \(screen.rows - 1)")
            }
        }

        /// Checks that no committed row changed and that the cursor did not go back above them, then commits
        /// the rows the write moved the cursor past.
        private mutating func trackCommitted(_ screen: Screen) {
            var checks = invariants.contains(.committedLinesStay)
            let first = max(screen.trace.firstTouchedRow, recordedBase)
            if first < committedEnd {
                for row in first..<committedEnd {
                    let text = screen.text(atRow: row)
                    guard text != recorded[row - recordedBase] else { continue }
                    if checks {
                        report(
                            .committedLinesStay,
                            "committed row \(row) (counting the scrollback) changed from "
                                + "\"\(recorded[row - recordedBase])\" to \"\(text)\"")
                        checks = false
                    }
                    recorded[row - recordedBase] = text
                }
            }
            let end = Self.logicalLineStart(atCursorOf: screen)
            if end < committedEnd, invariants.contains(.committedLinesStay) {
                report(
                    .committedLinesStay,
                    "the cursor rests on row \(screen.cursorRow), above \(committedEnd - end) committed "
                        + "row\(committedEnd - end == 1 ? "" : "s"): the next erase or line would reach them")
            }
            if end > committedEnd {
                for row in committedEnd..<end {
                    if let continued = screen.continuation(atRow: row) {
                        pendingLine += continued
                    } else {
                        committedLines.append(pendingLine + screen.text(atRow: row))
                        pendingLine = ""
                    }
                    recorded.append(screen.text(atRow: row))
                }
                committedEnd = end
            }
            let base = min(screen.scrollback.count, committedEnd)
            if base > recordedBase {
                recorded.removeFirst(base - recordedBase)
                recordedBase = base
            }
        }

        // MARK: The end

        /// Checks the end state: the cursor shown, and nothing left at or below it.
        mutating func end(screen: Screen) {
            guard !hasEnded else { return }
            hasEnded = true
            if invariants.contains(.cursorVisibleAtEnd), !screen.isCursorVisible {
                report(.cursorVisibleAtEnd, atEnd: true, "the cursor is hidden at the end (CSI ?25l without CSI ?25h)")
            }
            if invariants.contains(.synchronizedUpdatesBalanced), screen.isSynchronizing {
                report(.synchronizedUpdatesBalanced, atEnd: true, "a synchronized update is still open at the end")
            }
            if invariants.contains(.taskbarClearedAtEnd), screen.taskbar != .cleared {
                report(
                    .taskbarClearedAtEnd, atEnd: true,
                    "the taskbar still shows \(screen.taskbar) at the end (no OSC 9;4;0)")
            }
            if invariants.contains(.regionErasedAtEnd),
                let row = (screen.cursorRow..<screen.rows).first(where: { !screen.grid[$0].isBlank })
            {
                report(
                    .regionErasedAtEnd, atEnd: true,
                    "row \(row), at or below the cursor (row \(screen.cursorRow)), still shows "
                        + "\"\(screen.grid[row].text)\" at the end")
            }
        }

        /// Checks that every line of `expected` was committed exactly once, in this order.
        mutating func expectCommitted(
            _ expected: [String],
            matching isMatch: (String, String) -> Bool
        ) -> [InvariantViolation] {
            var found: [InvariantViolation] = []
            var previous: (index: Int, line: String)?
            for line in expected {
                let matches = committedLines.indices.filter { isMatch(committedLines[$0], line) }
                switch matches.count {
                case 0:
                    found.append(.init(.committedLinesStay, write: nil, "\"\(line)\" was never committed"))
                case 1:
                    if let previous, matches[0] < previous.index {
                        found.append(
                            .init(
                                .committedLinesStay, write: nil,
                                "\"\(line)\" was committed (line \(matches[0])) before \"\(previous.line)\" "
                                    + "(line \(previous.index))"))
                    }
                    previous = (matches[0], line)
                default:
                    let lines = matches.map { "\($0): \"\(committedLines[$0])\"" }.joined(separator: ", ")
                    found.append(
                        .init(
                            .committedLinesStay, write: nil,
                            "\"\(line)\" was committed \(matches.count) times (lines \(lines))"))
                }
            }
            violations += found
            return found
        }

        // MARK: Helpers

        /// Records a violation found after the latest write, or at the end (`markEnd()`) when `atEnd`.
        private mutating func report(_ invariant: Invariants, atEnd: Bool = false, _ message: String) {
            violations.append(InvariantViolation(invariant, write: atEnd ? nil : writes, message))
        }

        /// The first row of the logical line the cursor is on: the rows above it that autowrap continued
        /// belong to it.
        private static func logicalLineStart(atCursorOf screen: Screen) -> Int {
            var row = screen.scrollback.count + screen.cursorRow
            while row > 0, screen.continuation(atRow: row - 1) != nil {
                row -= 1
            }
            return row
        }

        /// Up to 80 characters of `bytes`, with escapes and controls shown.
        private static func preview(_ bytes: [UInt8]) -> String {
            let text = String(decoding: bytes.prefix(80), as: UTF8.self)
            let shown = text.unicodeScalars.map { scalar in
                scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
            }
            return "\"" + shown.joined() + (bytes.count > 80 ? "…" : "") + "\""
        }
    }
}

extension InMemoryTerminal.Screen {
    /// The text of a row, counting the scrollback's lines first.
    func text(atRow row: Int) -> String {
        row < scrollback.count ? scrollback[row] : grid[row - scrollback.count].text
    }

    /// The row's part of its logical line when autowrap continued it on the next row, counting the scrollback's
    /// lines first; `nil` when it does not continue.
    func continuation(atRow row: Int) -> String? {
        if row < scrollback.count { return scrollbackContinuations[row] }
        let line = grid[row - scrollback.count]
        return line.isWrapped ? line.continuedText : nil
    }
}

// Invariant checks after every write, for programs that draw a live region at the bottom of the terminal.

extension InMemoryTerminal {
    /// Rules that the output of a program drawing a live region under its committed output — as
    /// `TerminalOverlay` does — keeps after every write, which ``checkInvariants(_:)`` turns on.
    ///
    /// The checks take each write as one frame, and read the program's output with one convention: at the
    /// end of a frame the cursor rests on the first row of the live region (at its start, or on that row
    /// further right); every row above the cursor is *committed* output, final, and every row from the cursor
    /// down belongs to the region. A logical line continued by autowrap counts as one line, committed once
    /// its last row is above the cursor.
    public struct Invariants: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The region fits the terminal, checked after every write: the rows from the cursor's row to the
        /// last non-blank row are at most `rows − 1` (so they never fill the screen, which happens exactly
        /// when the cursor is on the top row and the bottom row is not blank), and no cursor-up (`CSI A`)
        /// was stopped by the top of the screen, which means rows the program meant to reach had scrolled
        /// off. A region whose bottom lines are blank is not seen as taller than its last non-blank line.
        public static let regionFits = Invariants(rawValue: 1 << 0)

        /// No line is wider than the terminal, checked after every write: no character was cut at the right
        /// margin while autowrap was off (`CSI ?7l`: a line drawn wider than the screen), autowrap is on again
        /// at the end of the write, and no row at or below the cursor was continued by autowrap (a region line
        /// wrapped onto a row the program does not know about). Committed lines may wrap.
        ///
        /// A program that learns of a narrower window only after drawing at the old width (a resize it has
        /// not been told of) cuts lines at the margin by design; leave this invariant out for such a test.
        public static let linesFitWidth = Invariants(rawValue: 1 << 1)

        /// Committed output is append-only, checked after every write: no committed row is changed by a
        /// later write, and no write leaves the cursor above a committed row. Each committed line is kept
        /// in ``committedLines``; ``checkCommitted(_:matching:)`` checks that expected lines are among them
        /// exactly once and in order, and reports under this invariant.
        ///
        /// A resize cuts or re-wraps lines by itself; the checks go on from the screen as the resize left
        /// it.
        public static let committedLinesStay = Invariants(rawValue: 1 << 2)

        /// The cursor is visible at the end, checked by ``markEnd()``.
        public static let cursorVisibleAtEnd = Invariants(rawValue: 1 << 3)

        /// The region is gone at the end, checked by ``markEnd()``: the cursor's row and every row below it
        /// are blank, so all that is left is committed.
        public static let regionErasedAtEnd = Invariants(rawValue: 1 << 4)

        /// Nothing is written after ``markEnd()``: every accepted write after it is a violation.
        public static let nothingAfterEnd = Invariants(rawValue: 1 << 5)

        /// Synchronized updates are balanced, checked after every write and by ``markEnd()``: no write
        /// leaves a synchronized update (`CSI ?2026h`) open, so a frame is begun and ended in the same
        /// write and a terminal never waits for the rest of one.
        public static let synchronizedUpdatesBalanced = Invariants(rawValue: 1 << 6)

        /// The taskbar progress (`OSC 9;4`) is cleared at the end, checked by ``markEnd()``.
        public static let taskbarClearedAtEnd = Invariants(rawValue: 1 << 7)

        /// Every invariant.
        public static let all: Invariants = [
            .regionFits, .linesFitWidth, .committedLinesStay, .cursorVisibleAtEnd, .regionErasedAtEnd,
            .nothingAfterEnd, .synchronizedUpdatesBalanced, .taskbarClearedAtEnd,
        ]

        /// The invariant's name, as in `regionFits`; the names joined with `+` for several.
        var name: String {
            let names: [(Invariants, String)] = [
                (.regionFits, "regionFits"), (.linesFitWidth, "linesFitWidth"),
                (.committedLinesStay, "committedLinesStay"), (.cursorVisibleAtEnd, "cursorVisibleAtEnd"),
                (.regionErasedAtEnd, "regionErasedAtEnd"), (.nothingAfterEnd, "nothingAfterEnd"),
                (.synchronizedUpdatesBalanced, "synchronizedUpdatesBalanced"),
                (.taskbarClearedAtEnd, "taskbarClearedAtEnd"),
            ]
            return names.filter { contains($0.0) }.map(\.1).joined(separator: "+")
        }
    }

    /// One broken invariant: which one, after which write, and what was wrong.
    public struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
        /// The invariant broken.
        public let invariant: Invariants
        /// The number of the write after which it was found, counting from 1 since ``checkInvariants(_:)``;
        /// `nil` for what ``markEnd()`` or ``checkCommitted(_:matching:)`` found after the last write.
        public let write: Int?
        /// What was wrong, in words.
        public let message: String

        init(_ invariant: Invariants, write: Int?, _ message: String) {
            self.invariant = invariant
            self.write = write
            self.message = message
        }

        /// "write 12, regionFits: …", or "after the last write, cursorVisibleAtEnd: …".
        public var description: String {
            let when = write.map { "write \($0)" } ?? "after the last write"
            return "\(when), \(invariant.name): \(message)"
        }
    }

    /// Checks `invariants` after every later write, and keeps the lines committed from now on.
    ///
    /// Broken invariants are collected in ``invariantViolations``, never trapped, so a test can show them
    /// all and the screen:
    ///
    /// ```swift
    /// let terminal = InMemoryTerminal(columns: 80, rows: 12)
    /// terminal.checkInvariants()
    /// // … run the program …
    /// terminal.markEnd()
    /// terminal.checkCommitted(["✔ Compiling Core", "✔ Building"]) { $0.hasPrefix($1) }
    /// #expect(terminal.invariantViolations.isEmpty, "\(terminal.invariantViolations)\n\(terminal)")
    /// ```
    ///
    /// Calling it again starts over: earlier violations and committed lines are forgotten, and what is
    /// on screen now is the starting point (rows above the cursor count as committed, without being added
    /// to ``committedLines``).
    public func checkInvariants(_ invariants: Invariants = .all) {
        state.withLock { state in
            state.checker = InvariantChecker(invariants: invariants, screen: state.screen)
        }
    }

    /// The invariants broken so far, in the order they were found; empty when checks are off.
    public var invariantViolations: [InvariantViolation] {
        state.withLock { $0.checker?.violations ?? [] }
    }

    /// The lines committed since ``checkInvariants(_:)``, in order: each logical line (the rows autowrap
    /// continued joined into one) as it read at the end of the write that moved the cursor below it.
    ///
    /// Unlike ``transcript``, a line here is not cut by a later resize.
    public var committedLines: [String] {
        state.withLock { $0.checker?.committedLines ?? [] }
    }

    /// Marks the end of the program's output: checks ``Invariants/cursorVisibleAtEnd`` and
    /// ``Invariants/regionErasedAtEnd`` now, and reports every later write under
    /// ``Invariants/nothingAfterEnd``. Writes are still applied; ``close()`` is what refuses them.
    public func markEnd() {
        state.withLock { state in
            state.checker?.end(screen: state.screen)
        }
    }

    /// Checks that each line of `expected` matches exactly one committed line (see ``committedLines``),
    /// and that those lines were committed in the order of `expected`; other committed lines may come
    /// between them. What it finds is added to ``invariantViolations`` under
    /// ``Invariants/committedLinesStay``, and returned.
    ///
    /// - Parameters:
    ///   - expected: the lines, in the order they must have been committed.
    ///   - isMatch: whether a committed line is an expected one; equality by default. A prefix is handy
    ///     where a line ends with something the test does not know, such as an elapsed time.
    /// - Returns: the violations found by this check; one that says so when ``checkInvariants(_:)`` was
    ///   never called.
    @discardableResult
    public func checkCommitted(
        _ expected: [String],
        matching isMatch: (_ committed: String, _ expected: String) -> Bool = { $0 == $1 }
    ) -> [InvariantViolation] {
        state.withLock { state in
            guard state.checker != nil else {
                return [InvariantViolation(.committedLinesStay, write: nil, "checkInvariants() was not called")]
            }
            return state.checker?.expectCommitted(expected, matching: isMatch) ?? []
        }
    }
}

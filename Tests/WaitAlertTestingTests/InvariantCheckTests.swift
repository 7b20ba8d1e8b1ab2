import Testing
import WaitAlertTesting

private let csi = "\u{1B}["

extension InMemoryTerminal {
    /// Writes the UTF-8 bytes of `text` in one write: one frame.
    fileprivate func frame(_ text: String) {
        #expect(write(Array(text.utf8)))
    }

    /// The invariants broken, by name, in order.
    fileprivate var broken: [Invariants] {
        invariantViolations.map(\.invariant)
    }
}

/// A program that keeps the rules: a region of `count` lines drawn under the committed output with autowrap
/// off, the cursor back on its first row.
private func region(_ lines: [String], printingAbove above: [String] = [], erasing: Bool = true) -> String {
    var out = (erasing ? "\r\(csi)J" : "") + above.map { $0 + "\r\n" }.joined() + "\(csi)?7l"
    out += lines.map { "\r" + $0 + "\(csi)K" }.joined(separator: "\r\n")
    if lines.count > 1 { out += "\(csi)\(lines.count - 1)A" }
    return out + "\r\(csi)?7h"
}

/// The invariant checks of ``InMemoryTerminal``: each one passes a program that keeps it, and catches one that
/// does not.
@Suite("InMemoryTerminal invariants")
struct InvariantCheckTests {
    // MARK: A program that keeps every rule

    @Test func aWellBehavedRegionBreaksNothing() {
        let terminal = InMemoryTerminal(columns: 20, rows: 5)
        terminal.checkInvariants()
        terminal.frame("\(csi)?25l" + region(["⠋ one", "⠋ two"], erasing: false))
        terminal.frame(region(["⠙ two"], printingAbove: ["✔ one (1.0s)"]))
        terminal.frame(region(["⠹ two", "⠋ three"], printingAbove: ["a line long enough to wrap twice over"]))
        for step in 0..<6 { terminal.frame(region(["⠸ two \(step)", "⠼ three"], printingAbove: ["log \(step)"])) }
        terminal.frame(region([], printingAbove: ["✔ two (2.0s)", "✖ three: failed"]) + "\(csi)?25h")
        terminal.markEnd()

        #expect(terminal.invariantViolations.isEmpty, "\(terminal.invariantViolations)\n\(terminal)")
        let expected = ["✔ one (1.0s)", "a line long enough to wrap twice over"] + (0..<6).map { "log \($0)" }
        #expect(terminal.committedLines == expected + ["✔ two (2.0s)", "✖ three: failed"])
        #expect(terminal.checkCommitted(["✔ one", "✔ two", "✖ three"], matching: { $0.hasPrefix($1) }).isEmpty)
        #expect(terminal.invariantViolations.isEmpty)
    }

    @Test func linesAlreadyOnScreenAreTheStartingPoint() {
        let terminal = InMemoryTerminal(columns: 20, rows: 5)
        terminal.frame("before\r\n")
        terminal.checkInvariants()
        terminal.frame("after\r\n")
        #expect(terminal.committedLines == ["after"])
        #expect(terminal.invariantViolations.isEmpty)
    }

    @Test func aWrappedLineIsCommittedWholeOnceItsLastRowIsAbove() {
        let terminal = InMemoryTerminal(columns: 10, rows: 4)
        terminal.checkInvariants()
        terminal.frame("twelve cha")  // fills the row: the wrap is pending
        terminal.frame("rs, then ")
        #expect(terminal.committedLines.isEmpty, "the cursor is still on the line")
        terminal.frame("wide漢字漢字\r\n")  // the last wide character does not fit its row
        #expect(terminal.committedLines == ["twelve chars, then wide漢字漢字"])
        #expect(terminal.invariantViolations.isEmpty)
    }

    // MARK: regionFits

    @Test func aRegionAsTallAsTheScreenDoesNotFit() {
        let terminal = InMemoryTerminal(columns: 20, rows: 4)
        terminal.checkInvariants(.regionFits)
        terminal.frame(region(["a", "b", "c"]))
        #expect(terminal.invariantViolations.isEmpty, "three lines fit four rows")
        terminal.frame(region(["a", "b", "c", "d"]))
        #expect(terminal.broken == [.regionFits])
        #expect(terminal.invariantViolations[0].write == 2)
        #expect(terminal.invariantViolations[0].description.hasPrefix("write 2, regionFits: "))
    }

    @Test func aCursorUpStoppedByTheTopIsARegionThatDidNotFit() {
        let terminal = InMemoryTerminal(columns: 20, rows: 4)
        terminal.checkInvariants(.regionFits)
        terminal.frame(region(["a", "b", "c", "d", "e", "f"]))
        #expect(terminal.invariantViolations.map(\.message).contains { $0.contains("moved up 5 rows") })
    }

    // MARK: linesFitWidth

    @Test func textCutAtTheMarginWithAutowrapOffIsTooWide() {
        let terminal = InMemoryTerminal(columns: 10, rows: 4)
        terminal.checkInvariants(.linesFitWidth)
        terminal.frame(region(["exactly 10"]))
        #expect(terminal.invariantViolations.isEmpty, "ten characters fill ten columns")
        terminal.frame(region(["eleven cell"]))
        #expect(terminal.broken == [.linesFitWidth])
        terminal.frame(region(["nine 漢字漢"]))  // nine cells, then a wide character that does not fit
        #expect(terminal.broken == [.linesFitWidth, .linesFitWidth])
    }

    @Test func autowrapLeftOffIsReported() {
        let terminal = InMemoryTerminal(columns: 10, rows: 4)
        terminal.checkInvariants(.linesFitWidth)
        terminal.frame("\(csi)?7lshort")
        #expect(
            terminal.invariantViolations.map(\.message) == [
                "autowrap is still off after the write (CSI ?7l without CSI ?7h)"
            ])
    }

    @Test func aRegionLineThatWrappedIsReported() {
        let terminal = InMemoryTerminal(columns: 10, rows: 4)
        terminal.checkInvariants(.linesFitWidth)
        terminal.frame("a committed line that wraps\r\n")
        #expect(terminal.invariantViolations.isEmpty, "committed lines may wrap")
        terminal.frame("a region line that wraps\(csi)2A\r")
        #expect(terminal.broken == [.linesFitWidth])
        #expect(terminal.invariantViolations[0].message.contains("wrapped onto the next row"))
    }

    // MARK: committedLinesStay

    @Test func aCommittedRowWrittenOverIsReported() {
        let terminal = InMemoryTerminal(columns: 20, rows: 6)
        terminal.checkInvariants(.committedLinesStay)
        terminal.frame(region(["⠋ working"], printingAbove: ["✔ first", "✔ second"]))
        terminal.frame(region(["⠙ working"]))
        #expect(terminal.invariantViolations.isEmpty)
        terminal.frame("\(csi)A\r⠙ stale\(csi)K\r\n")  // back over "✔ second", and down again
        #expect(terminal.broken == [.committedLinesStay])
        #expect(terminal.invariantViolations[0].message.contains("changed from \"✔ second\" to \"⠙ stale\""))
        #expect(terminal.committedLines == ["✔ first", "✔ second"], "as they read when committed")
    }

    @Test func aCommittedRowChangedThenScrolledOffIsReported() {
        let terminal = InMemoryTerminal(columns: 20, rows: 3)
        terminal.checkInvariants(.committedLinesStay)
        terminal.frame("one\r\ntwo\r\n")
        terminal.frame("\(csi)2A\rONE\r\n\r\n\r\n\r\n\r\n")  // changes "one", then scrolls it off
        #expect(terminal.scrollback.first == "ONE")
        #expect(terminal.broken == [.committedLinesStay])
    }

    @Test func aCursorLeftAboveCommittedRowsIsReported() {
        let terminal = InMemoryTerminal(columns: 20, rows: 6)
        terminal.checkInvariants(.committedLinesStay)
        terminal.frame("✔ first\r\n✔ second\r\n")
        terminal.frame("\(csi)A")
        #expect(terminal.broken == [.committedLinesStay])
        #expect(terminal.invariantViolations[0].message.contains("above 1 committed row"))
    }

    @Test func aResizeThatCutsCommittedLinesIsNotTheProgramsDoing() {
        for reflows in [false, true] {
            let terminal = InMemoryTerminal(columns: 20, rows: 4, reflowsOnResize: reflows)
            terminal.checkInvariants()
            terminal.frame(region(["⠋ working"], printingAbove: ["✔ a line of 19 cell", "✔ short"]))
            terminal.resize(columns: 8, rows: 3)
            terminal.frame(region(["⠙ work"], printingAbove: ["✔ next"]))
            terminal.resize(columns: 30, rows: 6)
            terminal.frame(region([], printingAbove: ["✔ last"]) + "\(csi)?25h")
            terminal.markEnd()
            #expect(terminal.invariantViolations.isEmpty, "reflows \(reflows): \(terminal.invariantViolations)")
            #expect(terminal.committedLines == ["✔ a line of 19 cell", "✔ short", "✔ next", "✔ last"])
        }
    }

    // MARK: checkCommitted

    @Test func checkCommittedFindsMissingRepeatedAndMisorderedLines() {
        let terminal = InMemoryTerminal(columns: 30, rows: 6)
        terminal.checkInvariants()
        terminal.frame("✔ b (1.0s)\r\n✔ a (2.0s)\r\nlog\r\n✔ c (1.5s)\r\n✔ c (1.5s)\r\n")
        let found = terminal.checkCommitted(["✔ a", "✔ b", "✔ c", "✔ d"], matching: { $0.hasPrefix($1) })
        #expect(
            found.map(\.message) == [
                "\"✔ b\" was committed (line 0) before \"✔ a\" (line 1)",
                "\"✔ c\" was committed 2 times (lines 3: \"✔ c (1.5s)\", 4: \"✔ c (1.5s)\")",
                "\"✔ d\" was never committed",
            ])
        #expect(found.allSatisfy { $0.invariant == .committedLinesStay && $0.write == nil })
        #expect(terminal.invariantViolations == found)
        #expect(terminal.checkCommitted(["✔ b (1.0s)", "log"]).isEmpty, "equality by default")
    }

    @Test func checkCommittedWithoutChecksSaysSo() {
        let terminal = InMemoryTerminal()
        terminal.frame("✔ a\r\n")
        #expect(terminal.checkCommitted(["✔ a"]).map(\.message) == ["checkInvariants() was not called"])
        #expect(terminal.invariantViolations.isEmpty)
        #expect(terminal.committedLines.isEmpty)
    }

    // MARK: The end

    @Test func aHiddenCursorAtTheEndIsReported() {
        let terminal = InMemoryTerminal()
        terminal.checkInvariants(.cursorVisibleAtEnd)
        terminal.frame("\(csi)?25l" + region(["⠋ working"]))
        terminal.frame(region([], printingAbove: ["✔ done"]))
        #expect(terminal.invariantViolations.isEmpty, "checked at the end only")
        terminal.markEnd()
        #expect(terminal.broken == [.cursorVisibleAtEnd])
        #expect(terminal.invariantViolations[0].write == nil)
    }

    @Test func aRegionLeftOnScreenAtTheEndIsReported() {
        let terminal = InMemoryTerminal()
        terminal.checkInvariants(.regionErasedAtEnd)
        terminal.frame(region(["⠋ working"], printingAbove: ["✔ done"]))
        terminal.markEnd()
        #expect(terminal.broken == [.regionErasedAtEnd])
        #expect(terminal.invariantViolations[0].message.contains("\"⠋ working\""))
    }

    @Test func aWriteAfterTheEndIsReportedAndStillShown() {
        let terminal = InMemoryTerminal()
        terminal.checkInvariants(.nothingAfterEnd)
        terminal.frame("✔ done\r\n")
        terminal.markEnd()
        #expect(terminal.invariantViolations.isEmpty)
        terminal.frame("\(csi)?25lx")
        #expect(terminal.broken == [.nothingAfterEnd])
        #expect(terminal.invariantViolations[0].message == "7 bytes written after the end: \"\\u{1B}[?25lx\"")
        #expect(terminal.lines == ["✔ done", "x"])
    }

    @Test func invariantsLeftOutAreNotChecked() {
        let terminal = InMemoryTerminal(columns: 10, rows: 3)
        terminal.checkInvariants([])
        terminal.frame("\(csi)?25l\(csi)?7l" + region(["a", "b", "c", "d", "an overlong line"]) + "\(csi)?7l")
        terminal.markEnd()
        terminal.frame("more")
        #expect(terminal.invariantViolations.isEmpty)
        terminal.checkInvariants()
        terminal.frame("more")
        #expect(!terminal.invariantViolations.isEmpty)
    }

    // MARK: Synchronized updates and the taskbar

    @Test func aFrameLeftOpenIsCaughtAndABalancedOneIsNot() {
        let terminal = InMemoryTerminal(columns: 20, rows: 5)
        terminal.checkInvariants(.synchronizedUpdatesBalanced)
        terminal.frame("\(csi)?2026h" + region(["⠋ one", "⠋ two"], erasing: false) + "\(csi)?2026l")
        #expect(terminal.broken.isEmpty)
        terminal.frame("\(csi)?2026h" + region(["⠙ one", "⠙ two"]))
        #expect(terminal.broken == [.synchronizedUpdatesBalanced])
        #expect(terminal.invariantViolations.first?.write == 2)
        terminal.frame("\(csi)?2026l")
        terminal.markEnd()
        #expect(terminal.broken == [.synchronizedUpdatesBalanced], "closed before the end")
    }

    @Test func theTaskbarStateIsReadAndMustBeClearedAtTheEnd() {
        let terminal = InMemoryTerminal(columns: 20, rows: 5)
        terminal.checkInvariants(.taskbarClearedAtEnd)
        #expect(terminal.taskbar == .cleared)
        terminal.frame("\u{1B}]9;4;3;0\u{1B}\\")
        #expect(terminal.taskbar == .indeterminate)
        terminal.frame("\u{1B}]9;4;1;42\u{07}")
        #expect(terminal.taskbar == .percent(42))
        terminal.frame("\u{1B}]9;4;2;50\u{1B}\\")
        #expect(terminal.taskbar == .error(50) && terminal.taskbarUpdates == 3)
        terminal.markEnd()
        #expect(terminal.broken == [.taskbarClearedAtEnd])

        let cleared = InMemoryTerminal(columns: 20, rows: 5)
        cleared.checkInvariants(.taskbarClearedAtEnd)
        cleared.frame("\u{1B}]9;4;1;10\u{1B}\\\u{1B}]9;4;0;0\u{1B}\\")
        cleared.markEnd()
        #expect(cleared.taskbar == .cleared && cleared.broken.isEmpty)
    }
}

import Testing

@testable import WaitAlert

/// The bytes a question drawn on the terminal writes, each frame checked without a terminal.
@Suite("Prompt screen")
struct PromptScreenTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The first draw erases nothing; the question's lines go out in one synchronized update,
    /// with autowrap off while they are written, and the cursor ends on its first row.
    @Test func theFirstDrawErasesNothingAndLeavesTheCursorOnTheFirstRow() {
        var screen = PromptScreen()
        let drawn = text(screen.show(["? Name", "> demo"]))
        #expect(
            drawn
                == "\u{1B}[?2026h\u{1B}[?7l\u{1B}[?25l\r? Name\u{1B}[K\r\n\r> demo\u{1B}[K\u{1B}[1A\r\u{1B}[?7h\u{1B}[?2026l"
        )
        #expect(screen.rows == 2 && screen.isDrawn)
    }

    /// A redraw erases from the first row first, and lines printed above come out before the
    /// question is drawn again under them.
    @Test func aRedrawErasesThenPrintsAboveThenDraws() {
        var screen = PromptScreen()
        _ = screen.show(["? Pick", "  1) a", "  2) b"])
        let drawn = text(screen.show(["? Pick"], printingAbove: ["compiled x.swift"]))
        #expect(
            drawn.hasPrefix("\u{1B}[?2026h\r" + OverlayScreen.eraseFromCursorRow + "\rcompiled x.swift\u{1B}[K\r\n"))
        #expect(!drawn.contains("\u{1B}[0A") && screen.rows == 1)
    }

    /// Erased by someone else (the relay printed over it), the next draw erases nothing of it.
    @Test func aQuestionErasedBySomeoneElseIsNotErasedAgain() {
        var screen = PromptScreen()
        _ = screen.show(["? Name"])
        screen.markErased()
        #expect(!text(screen.show(["? Name"])).contains(OverlayScreen.eraseFromCursorRow))
        #expect(text(screen.erase()) == "\r" + OverlayScreen.eraseFromCursorRow)
        #expect(screen.erase().isEmpty && !screen.isDrawn)
    }

    /// The end replaces the question with what was printed meanwhile and its record line, turns
    /// bracketed paste off and shows the cursor; hostile text in the record is made safe.
    @Test func theEndLeavesTheRecordLine() {
        var screen = PromptScreen()
        _ = screen.show(["? Name", "> demo"])
        let ended = text(screen.end(printingAbove: ["log"], record: "? Name: de\u{1B}[2Jmo"))
        #expect(
            ended == "\r" + OverlayScreen.eraseFromCursorRow + "\u{1B}[?2004l\u{1B}[?25h\rlog\u{1B}[K\r\n"
                + TextSanitizer.line("? Name: de\u{1B}[2Jmo") + "\r\n")
        #expect(!ended.contains("\u{1B}[2J") && !screen.isDrawn)
        var nothingDrawn = PromptScreen()
        #expect(text(nothingDrawn.end(printingAbove: [], record: "")) == "\u{1B}[?2004l\u{1B}[?25h")
    }
}

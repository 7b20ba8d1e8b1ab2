import Testing
import WaitAlert

/// Captured output cut into lines as a terminal shows them, with explicit instants.
struct OutputLinesTests {
    private let t0 = Duration.seconds(10)

    @Test func newlinesAndCarriageReturnNewlinesEndLines() {
        var lines = OutputLines()
        #expect(lines.feed(Array("one\ntwo\r\nthree".utf8), at: t0) == ["one", "two"])
        #expect(lines.feed(Array(" more\n\n".utf8), at: t0) == ["three more", ""])
        #expect(!lines.hasUnfinishedLine)
    }

    /// A terminal's output processing turns `\r\n` (and a `\r` line ended later by `\n`) into
    /// `\r\r\n`: the line keeps its text.
    @Test func doubledCarriageReturnsBeforeANewlineKeepTheLine() {
        var lines = OutputLines()
        #expect(lines.feed(Array("crlf\r\r\nprogress 100%\r".utf8), at: t0) == ["crlf"])
        #expect(lines.feed(Array("\r\n".utf8), at: t0) == ["progress 100%"])
        #expect(lines.feed(Array("10%\r\r20%\n".utf8), at: t0) == ["20%"])
    }

    @Test func aCarriageReturnSplitAcrossReadsStillEndsTheLine() {
        var lines = OutputLines()
        #expect(lines.feed(Array("done\r".utf8), at: t0) == [])
        #expect(lines.feed(Array("\nnext\n".utf8), at: t0) == ["done", "next"])
    }

    /// A progress line redrawn with `\r` stays one line: its latest text, committed once.
    @Test func carriageReturnRewritesTheLineInsteadOfStacking() {
        var lines = OutputLines()
        #expect(lines.feed(Array("10%\r20%\r30%".utf8), at: t0) == [])
        #expect(lines.partial(at: t0 + .milliseconds(99)) == nil, "not shown before the delay")
        #expect(lines.partial(at: t0 + .milliseconds(100)) == "30%")
        #expect(lines.feed(Array("\r100%\n".utf8), at: t0 + .seconds(1)) == ["100%"])
        #expect(lines.partial(at: t0 + .seconds(2)) == nil)
    }

    /// An empty rewrite (`\r` then nothing yet) shows as an empty live line, not the old text.
    @Test func aRewrittenLineWithNoTextYetShowsEmpty() {
        var lines = OutputLines()
        _ = lines.feed(Array("50%\r".utf8), at: t0)
        _ = lines.feed(Array("x".utf8), at: t0)
        #expect(lines.partial(at: t0 + .seconds(1)) == "x")
        #expect(lines.partialDeadline == t0 + OutputLines.partialDelay)
    }

    @Test func anUnfinishedLineShowsAfterTheDelayAndIsCommittedAtTheEnd() {
        var lines = OutputLines()
        _ = lines.feed(Array("Enter a name: ".utf8), at: t0)
        #expect(lines.partialDeadline == t0 + .milliseconds(100))
        #expect(lines.partial(at: t0 + .milliseconds(50)) == nil)
        #expect(lines.partial(at: t0 + .milliseconds(150)) == "Enter a name: ")
        #expect(lines.finish() == ["Enter a name: "])
        #expect(lines.finish() == [])
        #expect(lines.partialDeadline == nil)
    }

    /// A character cut in two by a read boundary is never shown or committed as two halves.
    @Test func aCharacterSplitAcrossReadsStaysWhole() {
        var lines = OutputLines()
        let bytes = Array("€漢\n".utf8)
        _ = lines.feed(bytes[0..<4], at: t0)
        #expect(lines.partial(at: t0 + .seconds(1)) == "€", "the half character waits")
        #expect(lines.feed(bytes[4...], at: t0) == ["€漢"])
    }

    @Test func invalidBytesBecomeReplacementCharacters() {
        var lines = OutputLines()
        #expect(lines.feed([0x61, 0xFF, 0x62, 0x0A], at: t0) == ["a\u{FFFD}b"])
    }

    /// Memory stays bounded: a line without end is committed in pieces, never cutting a character.
    @Test func anOverlongLineIsCommittedInBoundedPieces() {
        var lines = OutputLines()
        let text = String(repeating: "é", count: OutputLines.maximumLineBytes)  // 2 bytes each
        let pieces = lines.feed(Array(text.utf8) + [0x0A], at: t0)
        #expect(pieces.count == 2)
        #expect(pieces.allSatisfy { $0.utf8.count <= OutputLines.maximumLineBytes })
        #expect(pieces.joined() == text)
        #expect(!pieces.joined().contains("\u{FFFD}"))
    }

    /// Escape sequences are kept for the display to sanitize or keep (colours).
    @Test func escapeSequencesPassThrough() {
        var lines = OutputLines()
        #expect(lines.feed(Array("\u{1B}[31mred\u{1B}[0m\n".utf8), at: t0) == ["\u{1B}[31mred\u{1B}[0m"])
    }
}

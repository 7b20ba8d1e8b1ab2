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

/// What a display going away, or a signal handler replaying it, writes of an unfinished line.
struct UnfinishedLineTests {
    private let t0 = Duration.seconds(10)

    /// A `\r` that ended the unfinished line is kept with it: what the program writes next
    /// replaces the line instead of running on after it ("downloading 60%downloading 100%").
    @Test func aPendingCarriageReturnStaysWithTheUnfinishedLine() {
        var lines = OutputLines()
        _ = lines.feed(Array("downloading 10%\rdownloading 60%\r".utf8), at: t0)
        #expect(lines.unfinishedBytes == Array("downloading 60%\r".utf8))
        #expect(lines.finishForDisplay() == "downloading 60%\r")
    }

    @Test func theUnfinishedLineIsSanitizedKeepingItsColours() {
        var lines = OutputLines()
        _ = lines.feed(Array("last \u{1B}]0;PWNED\u{07}\u{1B}[?1049h\u{1B}[31mred\u{1B}[0m".utf8), at: t0)
        #expect(lines.finishForDisplay() == "last \u{1B}[31mred\u{1B}[0m\u{1B}[0m")
        #expect(!lines.hasUnfinishedLine, "finishing ends the stream")
    }

    @Test func nothingUnfinishedWritesNothing() {
        var lines = OutputLines()
        _ = lines.feed(Array("whole\n".utf8), at: t0)
        #expect(lines.finishForDisplay() == "")
    }
}

/// The byte-by-byte sanitizer a signal handler runs over output it replays.
struct RawOutputSanitizerTests {
    /// Sanitizes `input` cut into `pieces`, each filtered in place in a buffer with room for the
    /// bytes held from the piece before.
    private func sanitize(_ input: [UInt8], pieces: Int = 1) -> [UInt8] {
        var sanitizer = RawOutputSanitizer()
        var output: [UInt8] = []
        let size = max((input.count + pieces - 1) / max(pieces, 1), 1)
        let start = RawOutputSanitizer.maximumHeld
        for chunk in stride(from: 0, to: input.count, by: size).map({ input[$0..<min($0 + size, input.count)] }) {
            var buffer = [UInt8](repeating: 0, count: start + chunk.count)
            buffer.replaceSubrange(start..., with: chunk)
            let count = buffer.withUnsafeMutableBytes { sanitizer.filter($0, input: start..<start + chunk.count) }
            output += buffer[..<count]
        }
        var tail = [UInt8](repeating: 0, count: RawOutputSanitizer.maximumHeld)
        let count = tail.withUnsafeMutableBytes { sanitizer.finish(into: $0) }
        return output + tail[..<count]
    }

    private func sanitize(_ text: String, pieces: Int = 1) -> String {
        String(decoding: sanitize(Array(text.utf8), pieces: pieces), as: UTF8.self)
    }

    @Test func linesTabsAndCarriageReturnsPassEscapeSequencesAndControlsGo() {
        #expect(sanitize("one\ttwo\r\nprogress 60%\rprogress 100%\n") == "one\ttwo\r\nprogress 60%\rprogress 100%\n")
        #expect(
            sanitize("a\u{1B}]0;PWNED\u{07}b\u{1B}[?1049hc\u{1B}[31md\u{1B}Pdcs\u{1B}\\e\u{07}\u{08}f\u{7F}")
                == "abcdef")
        #expect(sanitize("x\u{1B}(By\u{1B}#8z") == "xyz", "short escapes with intermediates")
    }

    @Test func unicodeIsKeptAndC1AndBidirectionalControlsGo() {
        #expect(sanitize("日本語 é 👍🏽\n") == "日本語 é 👍🏽\n")
        #expect(sanitize("a\u{9B}31mb\u{9D}0;title\u{07}c\u{85}d") == "abcd")
        #expect(sanitize("left\u{202E}right\u{2066}x\u{200F}y\u{61C}z\u{2028}") == "leftrightxyz")
        #expect(
            sanitize("\u{2019}quote\u{2014}dash\u{A0}") == "\u{2019}quote\u{2014}dash\u{A0}", "kin of the held bytes")
    }

    @Test func aLineBreakEndsASequenceAndTextBeyondASCIIEndsItEarly() {
        #expect(sanitize("a\u{1B}]0;unterminated\nnext") == "a\nnext")
        #expect(sanitize("a\u{1B}[12é") == "aé")
    }

    /// A line break ends any sequence, as ``TextSanitizer`` ends it: a carriage return, a line or
    /// paragraph separator, NEL. What follows is shown.
    @Test func everyLineBreakEndsASequence() {
        #expect(sanitize("a\u{1B}]0;title\rb\n") == "a\rb\n")
        #expect(sanitize("a\u{1B}[12\rb") == "a\rb")
        #expect(sanitize("a\u{1B}]0;title\u{2028}b\n") == "ab\n")
        #expect(sanitize("a\u{1B}P1$r\u{85}b") == "ab")
    }

    /// A C1 control ends a string as it does anywhere: ST (U+009C) closes it, the others end it
    /// and act.
    @Test func c1ControlsEndAString() {
        #expect(sanitize("a\u{1B}]0;title\u{9C}b") == "ab")
        #expect(sanitize("a\u{9D}8;;http://x\u{9C}link\u{9D}8;;\u{9C}b") == "alinkb")
        #expect(sanitize("a\u{1B}_apc\u{9B}31mb") == "ab")
        #expect(sanitize("a\u{1B}]0;Ü✜\u{07}b") == "ab", "a byte 9C inside a character is not ST")
    }

    /// A character of four bytes cut at every point across buffers is held whole, then written.
    @Test func aLongCharacterCutAcrossBuffersIsHeldWhole() {
        let text = "a👍🏽b\u{1B}]0;x\u{9C}c"
        for pieces in 2...text.utf8.count {
            #expect(sanitize(text, pieces: pieces) == "a👍🏽bc", "\(pieces) pieces")
        }
    }

    /// The same output cut anywhere gives the same bytes: state and held bytes carry over.
    @Test(arguments: [2, 3, 5, 7, 11, 64])
    func cutsAnywhereGiveTheSameOutput(pieces: Int) {
        let text = "a\u{1B}]0;PWNED\u{07}é\u{202E}日\u{9B}1mb\u{1B}[31mc\r\nd\u{2066}e"
        #expect(sanitize(text, pieces: pieces) == sanitize(text))
        #expect(sanitize(text) == "aé日bc\r\nde")
    }
}

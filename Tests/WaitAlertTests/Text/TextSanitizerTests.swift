import Testing
import WaitAlert

/// Removal of controls and escape sequences, and splitting of log lines.
struct TextSanitizerTests {
    @Test func hostileTextComesOutHarmless() {
        let hostile = "evil\u{1B}[2J\u{1B}]0;pwned\u{07}\nsecond\rline"
        #expect(TextSanitizer.line(hostile) == "evil second line")
        #expect(TextSanitizer.logLines(hostile) == ["evil", "second", "line"])
    }

    /// Tab, vertical tab and form feed are blank space: each becomes one space, never nothing.
    @Test func spacingControlsBecomeSpaces() {
        #expect(TextSanitizer.line("a\tb\u{0B}c\u{0C}d") == "a b c d")
        #expect(TextSanitizer.logLines("a\tb\u{0B}c\u{0C}d") == ["a b c d"])
        #expect(TextSanitizer.line("\u{1B}[1\u{0B}2mx") == "x", "inside a sequence they are dropped with it")
    }

    @Test func cleanTextIsUnchanged() {
        for text in ["", "plain", "漢字 ｶﾀｶﾅ 한국어", "👨‍👩‍👧‍👦 🇯🇵 ❤️ 1️⃣", "e\u{301} a\u{200D}b", "¡ÿ€…\u{A0}"] {
            #expect(TextSanitizer.line(text) == text)
            #expect(TextSanitizer.logLines(text) == [text])
        }
    }

    @Test(arguments: [
        ("a\u{1B}[31mred\u{1B}[0mb", "aredb"),  // SGR.
        ("a\u{1B}[?25lb", "ab"),  // Private parameters.
        ("a\u{1B}[1;2 qb", "ab"),  // Intermediate byte.
        ("a\u{1B}]0;title\u{07}b", "ab"),  // OSC ended by BEL.
        ("a\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\b", "alinkb"),  // OSC ended by ST.
        ("a\u{1B}Pq#0;2;0;0;0\u{1B}\\b", "ab"),  // DCS.
        ("a\u{1B}Xstart of string\u{1B}\\b", "ab"),  // SOS.
        ("a\u{1B}^privacy message\u{1B}\\b", "ab"),  // PM.
        ("a\u{1B}_application\u{07}still inside\u{1B}\\b", "ab"),  // APC ignores BEL.
        ("a\u{1B}7b\u{1B}8c\u{1B}cd\u{1B}=e", "abcde"),  // Two-byte sequences.
        ("a\u{1B}(Bb\u{1B}#8c", "abc"),  // Sequences with intermediates.
        ("a\u{1B}\u{1B}[2Jb", "ab"),  // ESC restarts a sequence.
        ("a\u{1B}[12\u{18}b", "ab"),  // CAN cancels.
        ("a\u{1B}]0;x\u{1A}b", "ab"),  // SUB cancels.
        ("a\u{1B}[1\u{08}2mb", "ab"),  // Controls inside a sequence are dropped.
        ("a\u{1B}]0;漢字\u{07}b", "ab"),  // Strings may hold any text.
        ("a\u{1B}[漢b", "a漢b"),  // Non-ASCII text ends a broken sequence.
        ("\u{1B}[2J", ""),
    ])
    func escapeSequences(text: String, expected: String) {
        #expect(TextSanitizer.line(text) == expected)
    }

    @Test(arguments: [
        ("a\u{9B}31mb", "ab"),  // CSI.
        ("a\u{9D}0;title\u{9C}b", "ab"),  // OSC ended by ST.
        ("a\u{9D}0;title\u{07}b", "ab"),  // OSC ended by BEL.
        ("a\u{90}data\u{9C}b", "ab"),  // DCS.
        ("a\u{98}x\u{9C}b\u{9E}y\u{9C}c\u{9F}z\u{9C}d", "abcd"),  // SOS, PM, APC.
        ("a\u{84}b\u{8D}c\u{9C}d\u{80}e", "abcde"),  // Lone C1 controls.
        ("a\u{1B}]0;x\u{9C}b", "ab"),  // 7-bit OSC ended by 8-bit ST.
    ])
    func eightBitControls(text: String, expected: String) {
        #expect(TextSanitizer.line(text) == expected)
    }

    @Test func unterminatedSequencesAreRemovedToTheEnd() {
        #expect(TextSanitizer.line("ok\u{1B}") == "ok")
        #expect(TextSanitizer.line("ok\u{1B}[") == "ok")
        #expect(TextSanitizer.line("ok\u{1B}[38;5;") == "ok")
        #expect(TextSanitizer.line("ok\u{1B}(") == "ok")
        #expect(TextSanitizer.line("ok\u{1B}]0;never ends") == "ok")
        #expect(TextSanitizer.line("ok\u{1B}Pq never ends\u{1B}") == "ok")
        #expect(TextSanitizer.line("ok\u{9B}1;2") == "ok")
        // An ESC glued to a combining mark in one cluster: the ESC goes, the mark is text.
        #expect(TextSanitizer.line("ok\u{1B}\u{301}") == "ok\u{301}")
    }

    /// A character beyond ASCII ends a control sequence or short escape early, a bidirectional
    /// control too: it is dropped, and what follows it is text.
    @Test func aBidirectionalControlEndsASequenceAsAnyCharacterBeyondASCII() {
        #expect(TextSanitizer.line("a\u{1B}[3\u{202E}1mb") == "a1mb")
        #expect(TextSanitizer.line("a\u{1B}\u{200F}(Bb") == "a(Bb")
        #expect(TextSanitizer.keepingColors("a\u{1B}[3\u{202E}1mb\u{1B}[31mc") == "a1mb\u{1B}[31mc\u{1B}[0m")
    }

    @Test func lineBreaksEndSequences() {
        #expect(TextSanitizer.line("a\u{1B}]0;title\nb") == "a b")
        #expect(TextSanitizer.logLines("a\u{1B}]0;title\nb") == ["a", "b"])
    }

    @Test func controlsAndBidiAreRemoved() {
        #expect(TextSanitizer.line("a\u{0}b\u{7}c\u{8}d\u{7F}e\u{1F}f") == "abcdef")
        #expect(TextSanitizer.line("a\u{202E}evil\u{202C}b") == "aevilb")
        let bidi = "\u{202A}\u{202B}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{061C}"
        #expect(TextSanitizer.line(bidi) == "")
        #expect(TextSanitizer.line("עברית\u{200F}") == "עברית")
    }

    @Test func lineBreaksAndTabsBecomeSpaces() {
        #expect(TextSanitizer.line("a\nb\rc\r\nd\te") == "a b c d e")
        #expect(TextSanitizer.line("a\n\nb") == "a  b")
        #expect(TextSanitizer.line("a\r\rb") == "a  b")
        #expect(TextSanitizer.line("a\u{85}b\u{2028}c\u{2029}d") == "a b c d")
        #expect(TextSanitizer.line("\r\n") == " ")
    }

    @Test func logLinesSplitAtLineBreaks() {
        #expect(TextSanitizer.logLines("") == [""])
        #expect(TextSanitizer.logLines("one") == ["one"])
        #expect(TextSanitizer.logLines("one\n") == ["one"])
        #expect(TextSanitizer.logLines("one\r\n") == ["one"])
        #expect(TextSanitizer.logLines("\n") == [""])
        #expect(TextSanitizer.logLines("\n\n") == ["", ""])
        #expect(TextSanitizer.logLines("one\ntwo") == ["one", "two"])
        #expect(TextSanitizer.logLines("one\r\ntwo\rthree\n\nfive") == ["one", "two", "three", "", "five"])
        #expect(TextSanitizer.logLines("a\u{85}b\u{2028}c\u{2029}d") == ["a", "b", "c", "d"])
        #expect(TextSanitizer.logLines("a\tb\u{1B}[1mc\u{1B}[0m\nd") == ["a bc", "d"])
    }

    @Test func largeTextIsLinear() {
        let clean = String(repeating: "abcdefgh漢字😀", count: 50_000)  // About 1 MB.
        #expect(TextSanitizer.line(clean) == clean)

        let hostile = String(repeating: "evil\u{1B}[2J\u{1B}]0;pwned\u{07}\nsecond\rline漢", count: 40_000)
        let expected = String(repeating: "evil second line漢", count: 40_000)
        #expect(hostile.utf8.count > 1_000_000)
        #expect(TextSanitizer.line(hostile) == expected)
        #expect(TextSanitizer.logLines(hostile).count == 80_001)

        let unterminated = "start\u{1B}]" + String(repeating: "x", count: 1_000_000)
        #expect(TextSanitizer.line(unterminated) == "start")
    }
}

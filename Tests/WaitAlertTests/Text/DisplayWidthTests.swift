import Testing
import WaitAlert

/// Widths of grapheme clusters and strings, and truncation to a number of cells.
struct DisplayWidthTests {
    @Test func asciiIsOneCellPerCharacter() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("Hello, world!") == 13)
        #expect(DisplayWidth.of(" ~") == 2)
        #expect(DisplayWidth.of("Hello"[...].dropFirst()) == 4)
    }

    @Test func controlsTakeNoCells() {
        #expect(DisplayWidth.of("\u{1B}") == 0)
        #expect(DisplayWidth.of("a\tb") == 2)
        #expect(DisplayWidth.of("\r\n") == 0)
        #expect(DisplayWidth.of("\u{7F}\u{85}\u{9B}") == 0)
    }

    @Test(arguments: [
        ("漢字", 4), ("ＡＢ", 4), ("한국어", 6), ("ｶﾀｶﾅ", 4), ("ひらがな", 8), ("日本語abc", 9),
        ("\u{1100}\u{1161}\u{11A8}", 2),  // Conjoining Hangul jamo: one syllable.
        ("\u{20000}", 2),  // CJK Extension B.
        ("…", 1), ("é", 1), ("Ω", 1), ("→", 1),
    ])
    func eastAsianWidth(text: String, cells: Int) {
        #expect(DisplayWidth.of(text) == cells, "\(text)")
    }

    @Test(arguments: [
        ("😀", 2), ("👍🏽", 2), ("👨‍👩‍👧‍👦", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("❤", 1),
        ("1️⃣", 2), ("🏳️‍🌈", 2), ("❤️‍🔥", 2), ("⌚", 2), ("🇯", 2), ("🏽", 2), ("\u{261D}\u{1F3FD}", 2),
        ("ok 👍", 5), ("🇯🇵🇫🇷", 4),
    ])
    func emoji(text: String, cells: Int) {
        #expect(DisplayWidth.of(text) == cells, "\(text)")
    }

    @Test func emojiCharacters() {
        #expect(DisplayWidth.of(Character("\u{2764}\u{FE0F}")) == 2)
        #expect(DisplayWidth.of(Character("\u{2764}")) == 1)
        #expect(DisplayWidth.of(Character("\u{2764}\u{FE0E}")) == 1)
        #expect(DisplayWidth.of(Character("#\u{FE0F}\u{20E3}")) == 2)
        #expect(DisplayWidth.of(Character("1\u{20E3}")) == 1)
    }

    @Test func combiningMarksAddNothing() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("a\u{0308}\u{0304}") == 1)
        #expect(DisplayWidth.of("漢\u{301}") == 2)
        #expect(DisplayWidth.of("\u{301}") == 0)
        #expect(DisplayWidth.of("a\u{20DD}") == 1)  // Enclosing circle.
        #expect(DisplayWidth.of("e\u{301}e\u{301}") == 2)
    }

    @Test func formatCharactersTakeNoCells() {
        #expect(DisplayWidth.of("\u{200D}") == 0)
        #expect(DisplayWidth.of("a\u{200D}b") == 2)
        #expect(DisplayWidth.of("\u{FE0F}") == 0)
        #expect(DisplayWidth.of("\u{200B}\u{2060}\u{FEFF}\u{AD}") == 0)
        #expect(DisplayWidth.of("\u{1160}") == 0)
        #expect(DisplayWidth.of("\u{2028}") == 0)
    }

    @Test func truncationKeepsTextThatFits() {
        #expect(DisplayWidth.truncate("hello", toWidth: 5) == "hello")
        #expect(DisplayWidth.truncate("hello", toWidth: 80) == "hello")
        #expect(DisplayWidth.truncate("漢字", toWidth: 4) == "漢字")
        #expect(DisplayWidth.truncate("", toWidth: 3) == "")
    }

    @Test func truncationEndsWithEllipsis() {
        #expect(DisplayWidth.truncate("hello", toWidth: 4) == "hel…")
        #expect(DisplayWidth.truncate("hello", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("hello", toWidth: 0) == "")
        #expect(DisplayWidth.truncate("hello", toWidth: -3) == "")
        #expect(DisplayWidth.truncate("漢字", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("漢字", toWidth: 3) == "漢…")
    }

    @Test func truncationNeverSplitsClusters() {
        let cut = DisplayWidth.truncate("ab漢字", toWidth: 4)
        #expect(cut == "ab…")
        #expect(DisplayWidth.of(cut) == 3)
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
        #expect(DisplayWidth.truncate("👨‍👩‍👧‍👦👨‍👩‍👧‍👦", toWidth: 3) == "👨‍👩‍👧‍👦…")
        #expect(DisplayWidth.truncate("🇯🇵🇫🇷", toWidth: 3) == "🇯🇵…")
    }

    /// Truncation of many generated strings fits the width and keeps a prefix of the input.
    @Test func truncationProperties() {
        let pieces = [
            "a", "Z", " ", "漢", "ｶ", "한", "😀", "👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️", "❤", "1️⃣",
            "e\u{301}", "\u{301}", "\u{200D}", "…", "\t",
        ]
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<generator.next(below: 12) {
                text += pieces[generator.next(below: pieces.count)]
            }
            let total = DisplayWidth.of(text)
            for width in 0...(total + 1) {
                let cut = DisplayWidth.truncate(text, toWidth: width)
                #expect(DisplayWidth.of(cut) <= width, "\(text) to \(width)")
                if width == 0 {
                    #expect(cut.isEmpty)
                } else if width >= total {
                    #expect(cut == text)
                } else if width > 0 {
                    #expect(cut.hasSuffix("…"))
                    let kept = cut.unicodeScalars.dropLast()
                    #expect(text.unicodeScalars.starts(with: kept), "\(text) to \(width)")
                }
            }
        }
    }
}

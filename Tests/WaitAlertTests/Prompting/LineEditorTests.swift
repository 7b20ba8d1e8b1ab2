import Testing
import WaitAlert

/// A one-line field edited by characters, and the part of it shown in a few cells.
struct LineEditorTests {
    /// A field after typing `text` and applying `keys`.
    private func editor(_ text: String = "", maximumLength: Int? = nil, then keys: [Key] = []) -> LineEditor {
        var editor = LineEditor(maximumLength: maximumLength)
        _ = editor.apply(.text(text))
        for key in keys { _ = editor.apply(key) }
        return editor
    }

    @Test func typingInsertsAtTheCursor() {
        var field = LineEditor()
        #expect(field.apply(.text("hello")) == .changed)
        #expect((field.text, field.cursor) == ("hello", 5))
        #expect(field.apply(.left) == .changed)
        #expect(field.apply(.left) == .changed)
        #expect(field.apply(.text("XY")) == .changed)
        #expect((field.text, field.cursor) == ("helXYlo", 5))
        #expect(field.apply(.text("")) == .unchanged)
    }

    @Test func initialTextIsCleanedAndCut() {
        let field = LineEditor(text: "ab\u{1B}[31mcd\nef", maximumLength: 5)
        #expect((field.text, field.cursor) == ("abcd ", 5))
        #expect(LineEditor().text == "")
        #expect(LineEditor(text: "x", maximumLength: -3).text == "")
    }

    @Test func cursorMotions() {
        var field = editor("abc")
        #expect(field.apply(.right) == .unchanged, "already at the end")
        #expect(field.apply(.home) == .changed)
        #expect(field.cursor == 0)
        #expect(field.apply(.left) == .unchanged)
        #expect(field.apply(.home) == .unchanged)
        #expect(field.apply(.right) == .changed)
        #expect(field.cursor == 1)
        #expect(field.apply(.end) == .changed)
        #expect(field.cursor == 3)
    }

    @Test func backspaceAndDelete() {
        var field = editor("abcd", then: [.left, .left])
        #expect(field.apply(.backspace) == .changed)
        #expect((field.text, field.cursor) == ("acd", 1))
        #expect(field.apply(.delete) == .changed)
        #expect((field.text, field.cursor) == ("ad", 1))
        _ = field.apply(.end)
        #expect(field.apply(.delete) == .unchanged)
        _ = field.apply(.home)
        #expect(field.apply(.backspace) == .unchanged)
        #expect(field.text == "ad")
    }

    @Test func answersAndDismissals() {
        var field = editor("x")
        #expect(field.apply(.enter) == .submit)
        #expect(field.apply(.escape) == .cancel)
        #expect(field.apply(.interrupt) == .interrupt)
        for key: Key in [.tab, .backTab, .up, .down, .pageUp, .pageDown, .suspend] {
            #expect(field.apply(key) == .unchanged, "\(key)")
        }
        #expect(field.text == "x")
    }

    @Test func endOfInputCancelsAnEmptyFieldAndDeletesForwardOtherwise() {
        var empty = LineEditor()
        #expect(empty.apply(.endOfInput) == .cancel)
        var field = editor("ab", then: [.home])
        #expect(field.apply(.endOfInput) == .changed)
        #expect((field.text, field.cursor) == ("b", 0))
        _ = field.apply(.end)
        #expect(field.apply(.endOfInput) == .unchanged)
        #expect(field.text == "b")
    }

    @Test func combiningMarksAreOneCharacter() {
        var field = editor("e\u{301}te\u{301}")
        #expect(field.text.count == 3)
        #expect(field.cursor == 3)
        #expect(field.apply(.backspace) == .changed)
        #expect((field.text, field.cursor) == ("e\u{301}t", 2))
        _ = field.apply(.home)
        #expect(field.apply(.delete) == .changed)
        #expect(field.text == "t")
    }

    @Test func aCombiningMarkTypedAfterItsBaseJoinsIt() {
        var field = editor("e")
        #expect(field.apply(.text("\u{301}")) == .changed)
        #expect((field.text, field.cursor) == ("e\u{301}", 1))
        _ = field.apply(.backspace)
        #expect(field.text == "")
    }

    @Test func emojiSequencesAndCJKAreNeverSplit() {
        let family = "👩‍👩‍👧"
        var field = editor("a\(family)中b")
        #expect(field.cursor == 4)
        _ = field.apply(.left)
        _ = field.apply(.left)
        #expect(field.cursor == 2)
        #expect(field.apply(.backspace) == .changed)
        #expect((field.text, field.cursor) == ("a中b", 1))
        _ = field.apply(.text("🇫🇷"))
        #expect((field.text, field.cursor) == ("a🇫🇷中b", 2))
        _ = field.apply(.delete)
        #expect(field.text == "a🇫🇷b")
    }

    @Test func pasteIsInsertedCleanAndNeverSubmits() {
        var field = editor("<>", then: [.left])
        #expect(field.apply(.paste("one\r\ntwo\nthree\rfour\tfive")) == .changed)
        #expect(field.text == "<one two three four five>")
        #expect(field.cursor == field.text.count - 1)
        var hostile = LineEditor()
        #expect(hostile.apply(.paste("x\u{1B}[31my\u{1B}]0;title\u{07}z\u{9B}2J\u{7}\u{03}")) == .changed)
        #expect(hostile.text == "xyz")
        #expect(hostile.apply(.paste("\u{1B}[2J")) == .unchanged)
    }

    @Test func maximumLengthCutsInsertions() {
        var field = LineEditor(maximumLength: 5)
        #expect(field.apply(.text("abcdefg")) == .changed)
        #expect((field.text, field.cursor) == ("abcde", 5))
        #expect(field.apply(.text("x")) == .unchanged)
        _ = field.apply(.home)
        _ = field.apply(.delete)
        _ = field.apply(.delete)
        #expect(field.apply(.paste("XYZ")) == .changed)
        #expect((field.text, field.cursor) == ("XYcde", 2))
        var emoji = LineEditor(maximumLength: 2)
        _ = emoji.apply(.text("👩‍👩‍👧e\u{301}z"))
        #expect(emoji.text == "👩‍👩‍👧e\u{301}", "the limit counts characters, not scalars")
    }

    @Test func wordMotionsStopAtWhitespaceAndPunctuation() {
        var field = editor("hello, big  world")
        let lefts = (0..<4).map { _ in
            _ = field.apply(.wordLeft)
            return field.cursor
        }
        #expect(lefts == [12, 7, 0, 0])
        let rights = (0..<4).map { _ in
            _ = field.apply(.wordRight)
            return field.cursor
        }
        #expect(rights == [5, 10, 17, 17])
        var path = editor("/usr/local/bin")
        _ = path.apply(.wordLeft)
        #expect(path.cursor == 11)
    }

    @Test func killsRemoveWordsAndLineParts() {
        var field = editor("hello, big  world")
        #expect(field.apply(.killWordBefore) == .changed)
        #expect((field.text, field.cursor) == ("hello, big  ", 12))
        _ = field.apply(.killWordBefore)
        #expect((field.text, field.cursor) == ("hello, ", 7))
        _ = field.apply(.killWordBefore)
        #expect((field.text, field.cursor) == ("", 0))
        #expect(field.apply(.killWordBefore) == .unchanged)

        var line = editor("abc def", then: [.left, .left, .left])
        #expect(line.apply(.killToEnd) == .changed)
        #expect((line.text, line.cursor) == ("abc ", 4))
        #expect(line.apply(.killToEnd) == .unchanged)
        _ = line.apply(.left)
        #expect(line.apply(.killToStart) == .changed)
        #expect((line.text, line.cursor) == (" ", 0))
        #expect(line.apply(.killToStart) == .unchanged)

        var emoji = editor("a 👩‍👩‍👧e\u{301}")
        _ = emoji.apply(.killWordBefore)
        #expect(emoji.text == "a ")
    }

    @Test func displayShowsShortTextWhole() {
        let field = editor("abc", then: [.left])
        #expect(field.display(width: 10, secret: false) == ("abc", 2))
        #expect(field.display(width: 10, secret: true) == ("•••", 2))
        #expect(field.display(width: 10, secret: true, mask: "*") == ("***", 2))
        #expect(field.display(width: 10, secret: true, mask: "\n") == ("•••", 2))
        #expect(field.display(width: 0, secret: false) == ("", 0))
        #expect(editor("中文", then: [.left]).display(width: 10, secret: false) == ("中文", 2))
        #expect(editor("中文e\u{301}").display(width: 10, secret: true) == ("•••", 3))
        #expect(editor("👩‍👩‍👧x").display(width: 10, secret: false) == ("👩‍👩‍👧x", 3))
    }

    /// Typing at the end fills the field, then jumps back a third; the view holds still between
    /// jumps, and the cursor is always inside the field.
    @Test func typingScrollsByThirdsAndStaysStable() {
        var field = LineEditor()
        var columns: [Int] = []
        for index in 0..<20 {
            _ = field.apply(.text(String(UnicodeScalar(UInt8(97 + index)))))
            let shown = field.display(width: 9, secret: false)
            #expect(field.text.hasSuffix(shown.text))
            #expect(shown.cursorColumn == shown.text.count)
            columns.append(shown.cursorColumn)
        }
        #expect(columns == [1, 2, 3, 4, 5, 6, 7, 8, 6, 7, 8, 6, 7, 8, 6, 7, 8, 6, 7, 8])
        #expect(field.display(width: 9, secret: false).text == "mnopqrst")
        _ = field.apply(.home)
        #expect(field.display(width: 9, secret: false) == ("abcdefghi", 0))
    }

    /// Moving left through a scrolled text keeps the cursor in the field's last third until the
    /// start of the text fits, the view stepping back a third at a time.
    @Test func movingLeftScrollsBackByThirds() {
        var field = editor(String(repeating: "x", count: 11) + "abcdefghi")  // 20 characters.
        #expect(field.display(width: 9, secret: false) == ("bcdefghi", 8))
        var columns: [Int] = []
        for _ in 0..<21 {
            _ = field.apply(.left)
            columns.append(field.display(width: 9, secret: false).cursorColumn)
        }
        #expect(columns == [7, 6, 8, 7, 6, 8, 7, 6, 8, 7, 6, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0])
        _ = field.apply(.right)
        _ = field.apply(.right)
        #expect(field.display(width: 9, secret: false) == ("xxxxxxxxx", 2))
    }

    @Test func wideCharactersAtTheEdgesAreNeverCut() {
        // Widths 1, 2, 2, 2: cells a 0, 中 1–2, 文 3–4, 字 5–6; step 2.
        let field = editor("a中文字")
        #expect(field.display(width: 6, secret: false) == ("文字", 4), "中 straddles the scroll point")
        let start = editor("中文字", then: [.home])
        #expect(start.display(width: 5, secret: false) == ("中文", 0), "字 would straddle the right edge")
        #expect(start.display(width: 1, secret: false) == ("", 0))
        let end = editor("中文字")
        #expect(end.display(width: 1, secret: false) == ("", 0))
        #expect(end.display(width: 2, secret: false) == ("", 0))
        #expect(end.display(width: 3, secret: false) == ("字", 2))
        for width in 1...8 {
            for cursor in 0...4 {
                var moved = field
                _ = moved.apply(.home)
                for _ in 0..<cursor { _ = moved.apply(.right) }
                let shown = moved.display(width: width, secret: false)
                #expect(DisplayWidth.of(shown.text) <= width, "width \(width), cursor \(cursor)")
                #expect((0..<width).contains(shown.cursorColumn), "width \(width), cursor \(cursor)")
                #expect("a中文字".contains(shown.text))
            }
        }
    }
}

/// A one-line text field edited character by character (grapheme clusters, Swift `Character`).
///
/// A combining mark and the character before it, an emoji ZWJ sequence, a flag or a CJK
/// ideograph is one character: the cursor moves over it in one step and deletion removes it
/// whole. The text only ever holds what ``TextSanitizer/line(_:)`` keeps, so it has no controls,
/// escape sequences or line breaks.
package struct LineEditor: Sendable {
    /// What a key did to the field.
    package enum Edit: Sendable, Equatable {
        /// Neither the text nor the cursor moved.
        case unchanged
        /// The text or the cursor changed: the field must be drawn again.
        case changed
        /// Enter: the text is the answer.
        case submit
        /// Escape, or Ctrl-D on an empty field: the question is dismissed.
        case cancel
        /// Ctrl-C.
        case interrupt
    }

    /// The text in the field.
    package private(set) var text: String

    /// Where the cursor is, in characters from the start of ``text``: `0...text.count`.
    package private(set) var cursor: Int

    /// Most characters the field holds, or `nil` for no limit.
    package let maximumLength: Int?

    /// Whether the last key's text or paste did not fit in ``maximumLength`` and was cut.
    package private(set) var lastInsertionWasCut = false

    /// A field holding `text`, cleaned like typed text and cut to `maximumLength` characters,
    /// with the cursor at its end.
    package init(text: String = "", maximumLength: Int? = nil) {
        self.maximumLength = maximumLength.map { max(0, $0) }
        self.text = ""
        self.cursor = 0
        insert(text)
    }

    /// Applies a key and tells what it did.
    ///
    /// Text and pastes are inserted at the cursor, cleaned of controls and escape sequences, each
    /// line break and tab becoming one space, and cut to what ``maximumLength`` leaves room for:
    /// a paste never submits. Enter submits, Escape cancels and Ctrl-C interrupts. Ctrl-D cancels
    /// on an empty field and deletes forward otherwise. Words, for the word motions and Ctrl-W,
    /// are runs of characters that are neither whitespace nor punctuation. Keys a one-line field
    /// has no use for (Tab, Up, Page Down, Ctrl-Z…) leave it unchanged.
    package mutating func apply(_ key: Key) -> Edit {
        let before = (text, cursor)
        lastInsertionWasCut = false
        var characters = Array(text)
        switch key {
        case .text(let typed), .paste(let typed):
            insert(typed)
            return before == (text, cursor) ? .unchanged : .changed
        case .enter:
            return .submit
        case .escape:
            return .cancel
        case .interrupt:
            return .interrupt
        case .endOfInput where characters.isEmpty:
            return .cancel
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(characters.count, cursor + 1)
        case .home:
            cursor = 0
        case .end:
            cursor = characters.count
        case .wordLeft:
            cursor = Self.wordStart(before: cursor, in: characters)
        case .wordRight:
            cursor = Self.wordEnd(after: cursor, in: characters)
        case .backspace where cursor > 0:
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete where cursor < characters.count, .endOfInput where cursor < characters.count:
            characters.remove(at: cursor)
        case .killToStart:
            characters.removeFirst(cursor)
            cursor = 0
        case .killWordBefore:
            let start = Self.wordStart(before: cursor, in: characters)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .killToEnd:
            characters.removeSubrange(cursor...)
        default:
            return .unchanged
        }
        setText(characters)
        return before == (text, cursor) ? .unchanged : .changed
    }

    /// The part of the field shown in `width` cells and the cursor's column in it.
    ///
    /// A text wider than the field scrolls horizontally in steps of a third of the width: the
    /// first shown cell is the smallest multiple of the step that keeps the cursor inside the
    /// field, so typing at the end fills the field up to its right edge, then jumps back a third,
    /// and the view only moves when the cursor leaves it. A wide character that would straddle
    /// either edge is left out rather than cut in half. With `secret`, each character shows as
    /// one `mask` (a mask that takes no cell is replaced by "•"). `cursorColumn` counts cells from
    /// the start of the field; a `width` of 0 or less shows nothing.
    package func display(width: Int, secret: Bool, mask: Character = "•") -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        let mask: Character = DisplayWidth.of(mask) > 0 && !mask.isNewline ? mask : "•"
        let shown: [Character] = secret ? Array(repeating: mask, count: text.count) : Array(text)
        let widths = shown.map(DisplayWidth.of)
        let cursorCell = widths[..<cursor].reduce(0, +)
        let step = max(1, width / 3)
        let overflow = cursorCell - (width - 1)
        let scroll = overflow > 0 ? (overflow + step - 1) / step * step : 0
        var index = 0
        var cell = 0
        while index < shown.count, cell < scroll {
            cell += widths[index]
            index += 1
        }
        let firstCell = cell
        var visible = ""
        while index < shown.count, cell + widths[index] - firstCell <= width {
            visible.append(shown[index])
            cell += widths[index]
            index += 1
        }
        return (visible, cursorCell - firstCell)
    }

    /// Inserts cleaned text at the cursor, as much as ``maximumLength`` leaves room for.
    private mutating func insert(_ typed: String) {
        let characters = Array(text)
        var inserted = TextSanitizer.line(typed)
        if let maximumLength {
            let room = max(0, maximumLength - characters.count)
            lastInsertionWasCut = inserted.count > room
            inserted = String(inserted.prefix(room))
        }
        guard !inserted.isEmpty else { return }
        let upToCursor = String(characters[..<cursor]) + inserted
        text = upToCursor + String(characters[cursor...])
        cursor = min(upToCursor.count, text.count)
    }

    /// Stores edited characters as the text, keeping the cursor within it. Characters that join
    /// into one grapheme cluster once side by side count as one from then on.
    private mutating func setText(_ characters: [Character]) {
        let cursorText = String(characters[..<min(cursor, characters.count)])
        text = String(characters)
        cursor = min(cursorText.count, text.count)
    }

    /// Whether a character separates words.
    private static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace || character.isPunctuation
    }

    /// The start of the word before `index`, skipping separators first.
    private static func wordStart(before index: Int, in characters: [Character]) -> Int {
        var index = index
        while index > 0, isSeparator(characters[index - 1]) { index -= 1 }
        while index > 0, !isSeparator(characters[index - 1]) { index -= 1 }
        return index
    }

    /// The end of the word after `index`, skipping separators first.
    private static func wordEnd(after index: Int, in characters: [Character]) -> Int {
        var index = index
        while index < characters.count, isSeparator(characters[index]) { index += 1 }
        while index < characters.count, !isSeparator(characters[index]) { index += 1 }
        return index
    }
}

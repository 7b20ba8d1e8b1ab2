// What the screen stores: cells, lines, and the text style in effect.

extension InMemoryTerminal {
    /// One cell of the screen.
    enum Cell: Equatable {
        /// An empty cell, shown as a space.
        case blank
        /// A grapheme cluster (with any zero-width clusters joined to it) starting in this cell.
        case character(String, width: Int)
        /// The right half of a character of width 2.
        case continuation

        /// The number of cells the content starting here takes.
        var width: Int {
            if case .character(_, let width) = self { width } else { 1 }
        }
    }

    /// One line of the screen.
    struct Line {
        var cells: [Cell]
        /// Where autowrap continued this line on the next one: the column after its last cell of text (the
        /// width, unless a wide character did not fit); `nil` when the line does not continue.
        var wrapColumn: Int?

        /// Whether autowrap continued this line on the next one.
        var isWrapped: Bool { wrapColumn != nil }

        init(columns: Int) {
            cells = Array(repeating: .blank, count: columns)
        }

        var isBlank: Bool {
            cells.allSatisfy { $0 == .blank }
        }

        /// The line's characters without trailing spaces.
        var text: String {
            guard let last = cells.lastIndex(where: { $0 != .blank }) else { return "" }
            var text = ""
            for cell in cells[...last] {
                switch cell {
                case .blank: text.append(" ")
                case .character(let string, _): text.append(string)
                case .continuation: break
                }
            }
            while text.last == " " {
                text.removeLast()
            }
            return text
        }

        /// The line's part of the logical line it belongs to: its cells up to ``wrapColumn``, spaces included,
        /// when autowrap continued it; otherwise ``text``.
        var continuedText: String {
            guard let wrapColumn else { return text }
            var text = ""
            for cell in cells.prefix(wrapColumn) {
                switch cell {
                case .blank: text.append(" ")
                case .character(let string, _): text.append(string)
                case .continuation: break
                }
            }
            return text
        }
    }

    /// SGR attributes that are in effect.
    struct Style: OptionSet {
        let rawValue: UInt16

        static let bold = Style(rawValue: 1 << 0)
        static let faint = Style(rawValue: 1 << 1)
        static let italic = Style(rawValue: 1 << 2)
        static let underline = Style(rawValue: 1 << 3)
        static let blink = Style(rawValue: 1 << 4)
        static let inverse = Style(rawValue: 1 << 5)
        static let hidden = Style(rawValue: 1 << 6)
        static let strikethrough = Style(rawValue: 1 << 7)
        static let foreground = Style(rawValue: 1 << 8)
        static let background = Style(rawValue: 1 << 9)
        static let overline = Style(rawValue: 1 << 10)
        static let underlineColor = Style(rawValue: 1 << 11)
    }
}

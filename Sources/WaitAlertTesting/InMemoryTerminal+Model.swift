import WaitAlert

// The in-memory terminal's model: cells, lines, styles, and the input decoders.

extension InMemoryTerminal {
    /// Everything behind the terminal's lock.
    struct TerminalState {
        var screen: Screen
        var isClosed = false
        var isForeground = true
        var bytesWritten = 0
        var writeCount = 0
        var output: [UInt8] = []

        init(columns: Int, rows: Int) {
            screen = Screen(columns: columns, rows: rows)
        }
    }

    // MARK: - Cells and lines

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
        /// Whether autowrap continued this line on the next one.
        var isWrapped = false

        init(columns: Int) {
            cells = Array(repeating: .blank, count: columns)
        }

        var isBlank: Bool {
            cells.allSatisfy { $0 == .blank }
        }

        /// The line's characters without trailing spaces.
        var text: String {
            var text = ""
            for cell in cells {
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

    // MARK: - Input decoding

    /// Where the parser is between two bytes.
    enum ParserState {
        /// Text and control characters.
        case ground
        /// After ESC.
        case escape
        /// After ESC and one or more intermediate bytes (0x20–0x2F).
        case escapeIntermediate
        /// After ESC [, collecting parameter and intermediate bytes until the final byte.
        case controlSequence
        /// Inside an OSC, DCS, SOS, PM or APC string, which ends with ST (ESC \) or, for OSC, BEL.
        case controlString(isOperatingSystemCommand: Bool)
        /// After an ESC inside a control string.
        case controlStringEscape
    }

    /// A UTF-8 decoder that is fed one byte at a time.
    struct UTF8Decoder {
        enum Result {
            /// A complete scalar.
            case scalar(Unicode.Scalar)
            /// More bytes are needed.
            case incomplete
            /// The bytes so far are not valid UTF-8; `reprocess` tells whether the current byte starts anew.
            case invalid(reprocess: Bool)
        }

        private var value: UInt32 = 0
        private var remaining = 0
        private var validRange: ClosedRange<UInt8> = 0x80...0xBF

        /// Whether a multi-byte sequence has started but not finished.
        var isIncomplete: Bool { remaining > 0 }

        mutating func decode(_ byte: UInt8) -> Result {
            guard remaining > 0 else { return start(byte) }
            guard validRange.contains(byte) else {
                remaining = 0
                return .invalid(reprocess: true)
            }
            value = value << 6 | UInt32(byte & 0x3F)
            remaining -= 1
            validRange = 0x80...0xBF
            guard remaining == 0 else { return .incomplete }
            return Unicode.Scalar(value).map(Result.scalar) ?? .invalid(reprocess: false)
        }

        /// Starts a sequence at a lead byte.
        ///
        /// The range allowed for the second byte excludes overlong forms, surrogates and values above U+10FFFF.
        private mutating func start(_ byte: UInt8) -> Result {
            switch byte {
            case 0x00...0x7F: return .scalar(Unicode.Scalar(byte))
            case 0xC2...0xDF: begin(byte & 0x1F, remaining: 1, second: 0x80...0xBF)
            case 0xE0: begin(byte & 0x0F, remaining: 2, second: 0xA0...0xBF)
            case 0xED: begin(byte & 0x0F, remaining: 2, second: 0x80...0x9F)
            case 0xE1...0xEF: begin(byte & 0x0F, remaining: 2, second: 0x80...0xBF)
            case 0xF0: begin(byte & 0x07, remaining: 3, second: 0x90...0xBF)
            case 0xF4: begin(byte & 0x07, remaining: 3, second: 0x80...0x8F)
            case 0xF1...0xF3: begin(byte & 0x07, remaining: 3, second: 0x80...0xBF)
            default: return .invalid(reprocess: false)
            }
            return .incomplete
        }

        private mutating func begin(_ bits: UInt8, remaining: Int, second: ClosedRange<UInt8>) {
            value = UInt32(bits)
            self.remaining = remaining
            validRange = second
        }
    }

    /// The parts of a control sequence (ESC [ …).
    struct ControlSequence {
        /// A leading `<`, `=`, `>` or `?`.
        var privateMarker: UInt8?
        /// The `;`-separated parameters, each with its `:`-separated sub-parameters; `nil` where a value is empty.
        var parameters: [[Int?]]
        var intermediates: [UInt8]
        var final: UInt8

        /// Parses `bytes`, which start with ESC [ and end with the final byte; `nil` when malformed.
        init?(_ bytes: [UInt8]) {
            final = bytes[bytes.count - 1]
            var body = bytes[2..<(bytes.count - 1)]
            if let first = body.first, (0x3C...0x3F).contains(first) {
                privateMarker = first
                body = body.dropFirst()
            }
            let parameterEnd = body.firstIndex { (0x20...0x2F).contains($0) } ?? body.endIndex
            intermediates = Array(body[parameterEnd...])
            guard intermediates.allSatisfy({ (0x20...0x2F).contains($0) }) else { return nil }

            parameters = []
            let parameterBytes = body[..<parameterEnd]
            guard !parameterBytes.isEmpty else { return }
            for parameter in parameterBytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                var values: [Int?] = []
                for field in parameter.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
                    var value: Int?
                    for byte in field {
                        guard (0x30...0x39).contains(byte) else { return nil }
                        value = min((value ?? 0) * 10 + Int(byte - 0x30), 65_535)
                    }
                    values.append(value)
                }
                parameters.append(values)
            }
        }

        /// The value of parameter `index`, or `nil` when it is absent or empty.
        func value(at index: Int) -> Int? {
            index < parameters.count ? parameters[index][0] : nil
        }

        /// A count parameter: absent, empty and 0 all mean 1.
        func count(at index: Int) -> Int {
            max(1, value(at: index) ?? 1)
        }

        var hasSubparameters: Bool {
            parameters.contains { $0.count > 1 }
        }
    }
}

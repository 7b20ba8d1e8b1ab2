/// Makes untrusted text safe to draw on a terminal.
///
/// The sanitizer removes everything a terminal would act on instead of printing: C0 and C1
/// controls, DEL, whole escape sequences and bidirectional controls. Escape sequences are read
/// by ``EscapeSequenceTokenizer`` as a terminal reads a program's output: `ESC [` or U+009B
/// starts a control sequence, `ESC ]` or U+009D an operating system command ended by BEL or ST,
/// `ESC P`, `ESC X`, `ESC ^`, `ESC _` (or their C1 forms) a string ended by ST, and any other
/// `ESC` a short escape. CAN and SUB cancel a sequence, `ESC` starts a new one, and other controls
/// inside one are dropped. A character beyond ASCII ends a control sequence or short escape early
/// and is kept, so only text that a terminal would swallow is lost. A line break ends any
/// sequence, and a sequence still open at the end of the text is removed.
package enum TextSanitizer {
    /// A text made safe for a one-line terminal overlay.
    ///
    /// Controls, escape sequences with their bodies, DEL and bidirectional controls (U+061C,
    /// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) are removed. Each line break ("\n", "\r",
    /// "\r\n", U+0085, U+2028, U+2029) and each tab, vertical tab and form feed becomes one space.
    /// Other text, including emoji, CJK, combining marks and the zero-width joiner, is kept
    /// unchanged; a text that needs no change is returned as it is, without copying.
    package static func line(_ text: String) -> String {
        guard needsCleaning(text.utf8) else { return text }
        return cleaned(text, keepingColors: false)
    }

    /// `text` cleaned in one pass over its UTF-8 bytes; with `keepingColors`, its plain Select
    /// Graphic Rendition sequences are kept, and a reset added at the end when there was one.
    static func cleaned(_ text: String, keepingColors: Bool) -> String {
        var text = text
        return text.withUTF8 { source in
            String(unsafeUninitializedCapacity: source.count + 4) { output in
                var tokenizer = EscapeSequenceTokenizer(.output)
                var written = 0
                var afterCarriageReturn = false
                var keptStyle = false
                for index in source.indices {
                    let byte = source[index]
                    var token = tokenizer.consume(byte)
                    if case .interrupted = token { token = tokenizer.consume(byte) }
                    var blank = false
                    let carriageReturn = byte == 0x0D
                    switch token {
                    case .text(let scalar) where scalar.value < 0x80:
                        output[written] = byte
                        written += 1
                    case .text(let scalar), .control(let scalar):
                        if isLineBreak(scalar.value) {
                            blank = !(afterCarriageReturn && byte == 0x0A)
                        } else if case .control = token {
                            blank = isSpacing(scalar.value)
                        } else if !isBidiControl(scalar.value) {
                            let length = UTF8.width(scalar)
                            for offset in 0..<length { output[written + offset] = source[index - length + 1 + offset] }
                            written += length
                        }
                    case .sequence where keepingColors && tokenizer.endedSelectGraphicRendition:
                        let length = tokenizer.parameterCount + 3
                        for offset in 0..<length { output[written + offset] = source[index - length + 1 + offset] }
                        written += length
                        keptStyle = true
                    default:
                        break
                    }
                    if blank {
                        output[written] = UInt8(ascii: " ")
                        written += 1
                    }
                    afterCarriageReturn = carriageReturn
                }
                if keptStyle {
                    for byte in "\u{1B}[0m".utf8 {
                        output[written] = byte
                        written += 1
                    }
                }
                return written
            }
        }
    }

    /// A log line split at line breaks into several lines, each made safe like ``line(_:)``.
    ///
    /// Lines end at "\n", "\r\n", a lone "\r", U+0085, U+2028 and U+2029. An empty text gives
    /// one empty line, and a line break at the end does not add an empty line after it.
    package static func logLines(_ text: String) -> [String] {
        logLines(text, keepingColors: false)
    }

    /// ``logLines(_:)``, each line's colours kept (``keepingColors(_:)``) when `keepingColors` is
    /// set: for a CI service's log, which shows them.
    package static func logLines(_ text: String, keepingColors: Bool) -> [String] {
        let line = keepingColors ? Self.keepingColors : Self.line
        guard needsCleaning(text.utf8) else { return [text] }
        let scalars = text.unicodeScalars
        var lines: [String] = []
        var start = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let value = scalars[index].value
            let lineEnd = index
            scalars.formIndex(after: &index)
            guard isLineBreak(value) else { continue }
            lines.append(line(String(scalars[start..<lineEnd])))
            if value == 0x0D, index < scalars.endIndex, scalars[index] == "\n" {
                scalars.formIndex(after: &index)
            }
            start = index
        }
        if start < scalars.endIndex || lines.isEmpty {
            lines.append(line(String(scalars[start...])))
        }
        return lines
    }

    /// Whether a scalar ends a line: LF, CR, NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR.
    private static func isLineBreak(_ value: UInt32) -> Bool {
        value == 0x0A || value == 0x0D || value == 0x85 || value == 0x2028 || value == 0x2029
    }

    /// Whether a control stands for blank space on a line: tab, vertical tab or form feed.
    private static func isSpacing(_ value: UInt32) -> Bool {
        value == 0x09 || value == 0x0B || value == 0x0C
    }

    /// Whether a scalar is a bidirectional formatting control.
    private static func isBidiControl(_ value: UInt32) -> Bool {
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether UTF-8 text contains a scalar ``line(_:)`` changes, in one pass over its bytes.
    private static func needsCleaning(_ utf8: String.UTF8View) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F { return true }
            if byte >= 0x80 {
                switch (beforePrevious, previous, byte) {
                case (_, 0xC2, 0x80...0x9F),  // U+0080–U+009F
                    (_, 0xD8, 0x9C),  // U+061C
                    (0xE2, 0x80, 0x8E...0x8F),  // U+200E, U+200F
                    (0xE2, 0x80, 0xA8...0xAE),  // U+2028–U+202E
                    (0xE2, 0x81, 0xA6...0xA9):  // U+2066–U+2069
                    return true
                default:
                    break
                }
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}

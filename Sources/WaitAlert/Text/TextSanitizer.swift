/// Makes untrusted text safe to draw on a terminal.
///
/// The sanitizer removes everything a terminal would act on instead of printing: C0 and C1
/// controls, DEL, whole escape sequences and bidirectional controls. Escape sequences are parsed
/// like a terminal parses them, on Unicode scalars:
///
/// - `ESC [` (or U+009B) starts a control sequence, ended by a final byte in `@`…`~`;
/// - `ESC ]` (or U+009D) starts an operating system command, ended by BEL or ST;
/// - `ESC P`, `ESC X`, `ESC ^`, `ESC _` (or U+0090, U+0098, U+009E, U+009F) start a device
///   control, start-of-string, privacy message or application command string, ended by ST;
/// - any other `ESC`, with optional intermediates in ` `…`/`, is ended by one byte in `0`…`~`.
///
/// ST is `ESC \` or U+009C. Inside a sequence, CAN and SUB cancel it, `ESC` starts a new one,
/// and other controls are dropped. A printable scalar beyond ASCII ends a control sequence or
/// short escape early and is kept, so only text that a terminal would swallow is lost. A line
/// break ends any sequence, and a sequence still open at the end of the text is removed.
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
        var state = State.ground
        var output = ""
        output.reserveCapacity(text.utf8.count)
        let scalars = text.unicodeScalars
        var runStart = scalars.startIndex  // Start of the kept text not yet copied to `output`.
        var index = scalars.startIndex
        var afterCarriageReturn = false
        while index < scalars.endIndex {
            let value = scalars[index].value
            if state == .ground, !isSpecial(value) {
                scalars.formIndex(after: &index)
                afterCarriageReturn = false
                continue
            }
            output += Substring(scalars[runStart..<index])
            scalars.formIndex(after: &index)
            runStart = index
            if isLineBreak(value) {
                if !(afterCarriageReturn && value == 0x0A) { output.append(" ") }
                afterCarriageReturn = value == 0x0D
                state = .ground
                continue
            }
            afterCarriageReturn = false
            if let newState = stateAfterControl(value) {
                state = newState
            } else if isBidiControl(value) || value == 0x7F {
                continue
            } else if value < 0x20 {
                if state == .ground, isSpacing(value) { output.append(" ") }
                if state == .string(endsAtBell: true), value == 0x07 { state = .ground }
            } else {
                switch state {
                case .ground, .string:
                    break
                case .escape, .escapeIntermediate, .controlSequence:
                    if value >= 0xA0 {
                        state = .ground  // Not part of a sequence: keep it as text.
                        runStart = scalars.index(before: index)
                    } else {
                        state = state.after(printableASCII: UInt8(value))
                    }
                }
            }
        }
        output += Substring(scalars[runStart...])
        return output
    }

    /// A log line split at line breaks into several lines, each made safe like ``line(_:)``.
    ///
    /// Lines end at "\n", "\r\n", a lone "\r", U+0085, U+2028 and U+2029. An empty text gives
    /// one empty line, and a line break at the end does not add an empty line after it.
    package static func logLines(_ text: String) -> [String] {
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

    /// Where the parser is: in plain text or inside an escape sequence.
    private enum State: Equatable {
        /// Plain text.
        case ground
        /// After `ESC`.
        case escape
        /// After `ESC` and one or more intermediates.
        case escapeIntermediate
        /// Inside a control sequence (after `ESC [` or U+009B).
        case controlSequence
        /// Inside a command string, which ends at ST and, for an OSC only, at BEL.
        case string(endsAtBell: Bool)

        /// The state after a printable ASCII byte in an escape or control sequence.
        func after(printableASCII byte: UInt8) -> State {
            switch (self, byte) {
            case (.escape, UInt8(ascii: "[")): .controlSequence
            case (.escape, UInt8(ascii: "]")): .string(endsAtBell: true)
            case (.escape, UInt8(ascii: "P")), (.escape, UInt8(ascii: "X")),
                (.escape, UInt8(ascii: "^")), (.escape, UInt8(ascii: "_")):
                .string(endsAtBell: false)
            case (.escape, 0x20...0x2F), (.escapeIntermediate, 0x20...0x2F): .escapeIntermediate
            case (.controlSequence, 0x20...0x3F): .controlSequence
            default: .ground  // A final byte ends the sequence.
            }
        }
    }

    /// The state a control that matters in every state leads to: `ESC`, CAN, SUB or a C1 control.
    private static func stateAfterControl(_ value: UInt32) -> State? {
        switch value {
        case 0x1B: .escape
        case 0x18, 0x1A: .ground
        case 0x9B: .controlSequence
        case 0x9D: .string(endsAtBell: true)
        case 0x90, 0x98, 0x9E, 0x9F: .string(endsAtBell: false)
        case 0x80...0x9F: .ground
        default: nil
        }
    }

    /// Whether a scalar is not plain text: a control, DEL, a line or paragraph separator or a
    /// bidirectional control.
    private static func isSpecial(_ value: UInt32) -> Bool {
        if value < 0x20 { return true }
        if value < 0x7F { return false }
        return value <= 0x9F || isLineBreak(value) || isBidiControl(value)
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

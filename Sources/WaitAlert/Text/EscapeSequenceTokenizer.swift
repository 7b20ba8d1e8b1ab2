/// Reads the bytes a program writes to a terminal, or a terminal sends as keys, one at a time,
/// the way a terminal reads them (ECMA-48, as xterm implements it): each byte is text, a
/// control, part of something unfinished, or the end of an escape sequence. Pure and incremental;
/// it allocates nothing and keeps only a few counters and the first ``maximumStoredBytes`` bytes
/// of the current sequence, so a signal handler may run it.
///
/// The sequences it recognises:
///
/// - `ESC [` or U+009B: a control sequence (CSI), parameter and intermediate bytes in ` `…`?`,
///   ended by a final byte in `@`…`~`;
/// - `ESC ]` or U+009D: an operating system command (OSC), ended by BEL or ST;
/// - `ESC P`, `ESC X`, `ESC ^`, `ESC _` or U+0090, U+0098, U+009E, U+009F: a device control
///   string, start of string, privacy message or application program command, ended by ST;
/// - any other `ESC`, with intermediates in ` `…`/`, ended by one byte in `0`…`~`.
///
/// ST is `ESC \` or U+009C. Bytes are read as UTF-8: a C1 control is the character
/// U+0080–U+009F (`C2 80`…`C2 9F`); a lone byte 0x80–0xFF is not UTF-8 and is
/// ``Token/invalid``, never a control. In every direction:
///
/// - CAN and SUB cancel a sequence;
/// - `ESC` ends a control sequence or an escape and starts a new one; in a string it is the start
///   of ST, or else ends the string and starts a new sequence;
/// - a C1 control acts wherever it comes: ST ends a string, U+009B, U+009D and the string
///   introducers start a new sequence, and the others end any sequence and are controls;
/// - a byte beyond ASCII ends a control sequence or an escape early and is read on its own;
///   in a string it is part of the string;
/// - other C0 controls and DEL inside a sequence are ignored.
///
/// The two directions differ where their streams do:
///
/// - ``Direction/output``: a line break (LF, CR, NEL, U+2028, U+2029) ends any sequence and is
///   read on its own, since output is shown line by line: a sequence never swallows the next line.
/// - ``Direction/input``: `ESC` is a key too, and a prefix for Alt. A control or DEL inside a
///   control sequence or an escape with intermediates ends it and is read on its own, so Ctrl-C
///   is never swallowed (CAN and SUB only cancel); after a lone `ESC` a control or a byte beyond
///   ASCII means Escape was pressed before it (``Unfinished/escape``), except DEL and BS, which
///   end an escape as Alt-Backspace; `ESC O` starts a single shift (SS3) read like a control
///   sequence, as terminals send keys.
///
/// When a byte cannot be part of what came before it, ``consume(_:)`` returns
/// ``Token/interrupted(_:)`` and reads nothing: feed the same byte again.
///
/// ```swift
/// var tokenizer = EscapeSequenceTokenizer(.output)
/// for byte in bytes {
///     var token = tokenizer.consume(byte)
///     if case .interrupted = token { token = tokenizer.consume(byte) }
///     if case .text(let scalar) = token { print(scalar, terminator: "") }
/// }
/// ```
package struct EscapeSequenceTokenizer: Sendable {
    /// Most bytes of a sequence's parameters, intermediates or string kept for
    /// ``parameters``; the rest are counted in ``parameterCount`` only.
    package static let maximumStoredBytes = 32

    /// Where the tokenizer is.
    enum State: Sendable {
        case ground
        /// After `ESC`.
        case escape
        /// After `ESC` and one or more intermediates.
        case escapeIntermediate
        /// Inside a control sequence.
        case controlSequence
        /// After `ESC O` (input).
        case singleShift
        /// Inside a string: ``stringKind``.
        case string
        /// After `ESC` inside a string.
        case stringEscape
    }

    /// The stream read.
    package let direction: Direction
    var state = State.ground
    var stringKind = Kind.operatingSystemCommand
    /// The bytes of the UTF-8 character being read, the first in the lowest eight bits.
    var characterBytes: UInt32 = 0
    /// How many bytes of the UTF-8 character being read came, and how many it takes.
    var characterCount = 0
    var characterLength = 0
    /// The first bytes of the current sequence's parameters, intermediates or string.
    var stored: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// How many parameter, intermediate or string bytes the current or last sequence had.
    package internal(set) var parameterCount = 0
    /// The last sequence's final byte: for a string, BEL, `\` or 0x9C (ST as a character).
    package internal(set) var final: UInt8 = 0
    /// Whether the sequence began with `ESC` rather than a C1 control.
    var sevenBit = true
    /// Whether no byte inside the sequence was ignored.
    var uninterrupted = true
    /// Whether the sequence's parameters are only digits, `;` and `:`.
    var digitsOnly = true

    /// A tokenizer between characters, outside any sequence.
    package init(_ direction: Direction) {
        self.direction = direction
    }

    /// Whether the tokenizer is between characters, outside any sequence.
    package var isIdle: Bool { state == .ground && characterCount == 0 }

    /// How many bytes of an unfinished character outside any sequence were read: bytes a filter
    /// writes later, when the character ends.
    package var heldCount: Int { state == .ground ? characterCount : 0 }

    /// The parameter and intermediate bytes, or the string, of the last sequence — at most
    /// ``maximumStoredBytes``.
    package var parameters: [UInt8] {
        withUnsafeBytes(of: stored) { Array($0.prefix(min(parameterCount, Self.maximumStoredBytes))) }
    }

    /// Whether the last sequence is Select Graphic Rendition written plainly: `ESC [`, digits,
    /// `;` and `:`, then `m`, with nothing else inside — its bytes are the last
    /// ``parameterCount`` + 3 read.
    package var endedSelectGraphicRendition: Bool {
        lastKind == .controlSequence && final == UInt8(ascii: "m") && sevenBit && uninterrupted && digitsOnly
    }

    /// The kind of the last sequence.
    var lastKind = Kind.escape

    /// Reads one byte.
    @inline(__always)
    package mutating func consume(_ byte: UInt8) -> Token {
        if byte &- 0x20 < 0x5F, state == .ground, characterCount == 0 { return .text(Unicode.Scalar(byte)) }
        return consumeOther(byte)
    }

    /// Reads a byte that is not printable ASCII outside any sequence.
    @inline(__always)
    private mutating func consumeOther(_ byte: UInt8) -> Token {
        switch state {
        case .ground: ground(byte)
        case .escape: afterEscape(byte)
        case .escapeIntermediate:
            switch byte {
            case 0x20...0x2F: store(byte)
            case 0x30...0x7E: end(.escape, final: byte)
            default: outside(byte)
            }
        case .controlSequence, .singleShift:
            switch byte {
            case 0x20...0x3F: store(byte)
            case 0x40...0x7E: end(state == .singleShift ? .singleShift : .controlSequence, final: byte)
            default: outside(byte)
            }
        case .string: inString(byte)
        case .stringEscape: afterStringEscape(byte)
        }
    }

    /// Ends what is unfinished, as when no more bytes come: returns what it was.
    package mutating func flush() -> Unfinished? {
        defer {
            state = .ground
            characterCount = 0
        }
        switch state {
        case .ground: return characterCount > 0 ? .character(heldPrefix) : nil
        case .escape: return .escape
        default: return .sequence
        }
    }

    /// Reads a byte outside any sequence.
    @inline(__always)
    private mutating func ground(_ byte: UInt8) -> Token {
        if characterCount == 0 {
            switch byte {
            case 0x20...0x7E: return .text(Unicode.Scalar(byte))
            case 0x1B:
                begin(.escape, sevenBit: true)
                return .partial
            case 0x00...0x1F, 0x7F: return .control(Unicode.Scalar(byte))
            default: break
            }
        }
        switch decode(byte) {
        case .partial: return .partial
        case .invalid: return .invalid
        case .broken(let prefix): return .interrupted(.character(prefix))
        case .scalar(let scalar):
            return scalar.value >= 0x80 && scalar.value <= 0x9F ? c1(scalar) : .text(scalar)
        }
    }

    /// Reads the byte after `ESC`.
    private mutating func afterEscape(_ byte: UInt8) -> Token {
        switch byte {
        case UInt8(ascii: "["): state = .controlSequence
        case UInt8(ascii: "]"): enterString(.operatingSystemCommand)
        case UInt8(ascii: "P"): enterString(.deviceControl)
        case UInt8(ascii: "X"): enterString(.startOfString)
        case UInt8(ascii: "^"): enterString(.privacyMessage)
        case UInt8(ascii: "_"): enterString(.applicationCommand)
        case UInt8(ascii: "O") where direction == .input: state = .singleShift
        case 0x20...0x2F:
            state = .escapeIntermediate
            return store(byte)
        case 0x30...0x7E: return end(.escape, final: byte)
        case 0x7F where direction == .input, 0x08 where direction == .input: return end(.escape, final: byte)
        default: return outside(byte)
        }
        return .partial
    }

    /// Reads a byte that is not part of a control sequence or an escape, inside one.
    private mutating func outside(_ byte: UInt8) -> Token {
        let lone = state == .escape
        let cancels = byte == 0x18 || byte == 0x1A
        if cancels, direction == .output || !lone {
            state = .ground
            return .partial
        }
        let ignored = byte == 0x7F || (byte < 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x1B)
        if ignored, direction == .output {
            uninterrupted = false
            return .partial
        }
        state = .ground
        return .interrupted(lone ? .escape : .sequence)
    }

    /// Enters a sequence at its introducer.
    mutating func begin(_ state: State, sevenBit: Bool) {
        self.state = state
        self.sevenBit = sevenBit
        parameterCount = 0
        uninterrupted = true
        digitsOnly = true
    }

    /// Enters a string after `ESC` and its introducer.
    private mutating func enterString(_ kind: Kind) {
        state = .string
        stringKind = kind
    }

    /// Keeps a parameter, intermediate or string byte.
    @discardableResult
    @inline(__always)
    mutating func store(_ byte: UInt8) -> Token {
        if parameterCount < Self.maximumStoredBytes {
            withUnsafeMutableBytes(of: &stored) { $0[parameterCount] = byte }
        }
        parameterCount &+= 1
        if byte < 0x30 || byte > 0x3B { digitsOnly = false }
        return .partial
    }

    /// Ends the current sequence at its final byte.
    @inline(__always)
    mutating func end(_ kind: Kind, final: UInt8) -> Token {
        state = .ground
        lastKind = kind
        self.final = final
        return .sequence(kind)
    }
}

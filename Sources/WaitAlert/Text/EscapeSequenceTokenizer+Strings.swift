/// Strings (OSC, DCS, SOS, PM, APC), C1 controls and UTF-8.
extension EscapeSequenceTokenizer {
    /// What a byte read as UTF-8 makes.
    enum Decoded {
        /// The first bytes of a character.
        case partial
        /// A complete character.
        case scalar(Unicode.Scalar)
        /// A byte that cannot start a character.
        case invalid
        /// A byte that cannot continue the character begun: the bytes before it, not read.
        case broken(UTF8Prefix)
    }

    /// The bytes of the unfinished character.
    var heldPrefix: UTF8Prefix { UTF8Prefix(bytes: characterBytes, count: characterCount) }

    /// Reads a byte as UTF-8 (well-formed only: no overlong forms, surrogates or values beyond
    /// U+10FFFF).
    @inline(__always)
    mutating func decode(_ byte: UInt8) -> Decoded {
        guard characterCount > 0 else {
            switch byte {
            case 0x00...0x7F: return .scalar(Unicode.Scalar(byte))
            case 0xC2...0xDF: characterLength = 2
            case 0xE0...0xEF: characterLength = 3
            case 0xF0...0xF4: characterLength = 4
            default: return .invalid
            }
            characterBytes = UInt32(byte)
            characterCount = 1
            return .partial
        }
        guard Self.isContinuation(byte, at: characterCount, after: UInt8(truncatingIfNeeded: characterBytes)) else {
            defer { characterCount = 0 }
            return .broken(heldPrefix)
        }
        characterBytes |= UInt32(byte) << (8 * UInt32(characterCount))
        characterCount += 1
        guard characterCount == characterLength else { return .partial }
        characterCount = 0
        var value = characterBytes & (0x7F >> UInt32(characterLength))
        for index in 1..<characterLength {
            value = value << 6 | (characterBytes >> (8 * UInt32(index)) & 0x3F)
        }
        return .scalar(Unicode.Scalar(value) ?? "\u{FFFD}")
    }

    /// Whether `byte` may be byte number `position` (from 1) of a UTF-8 character starting
    /// with `lead`.
    static func isContinuation(_ byte: UInt8, at position: Int, after lead: UInt8) -> Bool {
        guard position == 1 else { return byte & 0xC0 == 0x80 }
        switch lead {
        case 0xE0: return byte >= 0xA0 && byte <= 0xBF
        case 0xED: return byte >= 0x80 && byte <= 0x9F
        case 0xF0: return byte >= 0x90 && byte <= 0xBF
        case 0xF4: return byte >= 0x80 && byte <= 0x8F
        default: return byte & 0xC0 == 0x80
        }
    }

    /// Reads a C1 control, wherever it comes: it starts a sequence, ends a string, or ends any
    /// sequence and is a control.
    mutating func c1(_ scalar: Unicode.Scalar) -> Token {
        let inString = state == .string
        switch scalar.value {
        case 0x9B: begin(.controlSequence, sevenBit: false)
        case 0x9D: beginString(.operatingSystemCommand, sevenBit: false)
        case 0x90: beginString(.deviceControl, sevenBit: false)
        case 0x98: beginString(.startOfString, sevenBit: false)
        case 0x9E: beginString(.privacyMessage, sevenBit: false)
        case 0x9F: beginString(.applicationCommand, sevenBit: false)
        case 0x9C where inString: return end(stringKind, final: 0x9C)
        default:
            state = .ground
            return .control(scalar)
        }
        return .partial
    }

    /// Enters a string at a C1 introducer.
    private mutating func beginString(_ kind: Kind, sevenBit: Bool) {
        begin(.string, sevenBit: sevenBit)
        stringKind = kind
    }

    /// Reads a byte inside a string.
    mutating func inString(_ byte: UInt8) -> Token {
        if characterCount == 0 {
            switch byte {
            case 0x07 where stringKind == .operatingSystemCommand: return end(stringKind, final: byte)
            case 0x1B:
                state = .stringEscape
                return .partial
            case 0x18, 0x1A:
                state = .ground  // Cancelled.
                return .partial
            case 0x0A where direction == .output, 0x0D where direction == .output:
                state = .ground
                return .interrupted(.sequence)
            case 0x00...0x1F, 0x7F: return .partial  // Ignored.
            case 0x20...0x7E: return store(byte)
            default: break
            }
        }
        switch decode(byte) {
        case .partial, .invalid:
            return store(byte)
        case .broken:
            return inString(byte)  // The bytes before stay in the string; this one is read afresh.
        case .scalar(let scalar):
            if scalar.value <= 0x9F {
                parameterCount &-= 1  // The first byte, stored, was the control's.
                return c1(scalar)
            }
            if direction == .output, scalar.value == 0x2028 || scalar.value == 0x2029 {
                state = .ground  // A line break ends the string.
                return .text(scalar)
            }
            return store(byte)
        }
    }

    /// Reads the byte after `ESC` inside a string: `\` ends it, anything else ends it unfinished
    /// and goes on the `ESC` that starts a new sequence.
    mutating func afterStringEscape(_ byte: UInt8) -> Token {
        if byte == UInt8(ascii: "\\") { return end(stringKind, final: byte) }
        begin(.escape, sevenBit: true)
        return consume(byte)
    }
}

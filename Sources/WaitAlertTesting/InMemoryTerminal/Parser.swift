// The byte parser: turns the bytes written to the terminal into actions for the screen.

extension InMemoryTerminal {
    /// Turns the bytes written to the terminal into actions, one byte at a time.
    ///
    /// As in the Rust `vte` crate, the parser is not a screen: it knows UTF-8, control characters, escape sequences
    /// and control strings, and hands each complete unit to a ``Performer`` without knowing what it does. Characters
    /// and escape sequences may be split across bytes fed at different times; the parser keeps what it has seen of
    /// them until they are complete.
    struct Parser {
        /// What the bytes ask of the screen.
        enum Action {
            /// Shows a character; bytes that are not valid UTF-8 arrive as U+FFFD.
            case print(Unicode.Scalar)
            /// Runs a control character: a C0 control other than ESC, DEL, or a C1 control received as UTF-8.
            ///
            /// A C0 control inside an escape sequence runs without interrupting it, except CAN, SUB and ESC, which end
            /// it; DEL inside an escape sequence is dropped.
            case execute(UInt8)
            /// Runs an escape sequence that is neither a control sequence nor a control string: ESC, any
            /// intermediate bytes (0x20–0x2F) and the final byte.
            case escape([UInt8])
            /// Runs a well-formed control sequence; `bytes` is the sequence as received, from its ESC.
            case controlSequence(ControlSequence, bytes: [UInt8])
            /// Reports a sequence that nothing runs, as received from its ESC: a control string (OSC, DCS, SOS, PM or
            /// APC) with the ST or BEL that ends it, a malformed control sequence, or a sequence cut short by CAN,
            /// SUB, ESC or a non-ASCII byte (without that byte).
            case ignore([UInt8])
        }

        /// What performs the parser's actions.
        protocol Performer {
            mutating func perform(_ action: Action)
        }

        /// Where the parser is between two bytes.
        enum State {
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

        private var state = State.ground
        /// The bytes of the escape sequence being parsed, from its ESC.
        private var sequence: [UInt8] = []
        private var decoder = UTF8Decoder()

        /// Takes the next byte and hands any action it completes to `performer`.
        mutating func advance(_ byte: UInt8, performer: inout some Performer) {
            switch state {
            case .ground:
                consumeText(byte, &performer)
            case .escape:
                consumeEscape(byte, &performer)
            case .escapeIntermediate, .controlSequence:
                consumeSequenceByte(byte, &performer)
            case .controlString(let isOperatingSystemCommand):
                consumeControlString(byte, isOperatingSystemCommand: isOperatingSystemCommand, &performer)
            case .controlStringEscape:
                if byte == UInt8(ascii: "\\") {
                    sequence.append(byte)
                    ignoreSequence(&performer)
                } else {
                    // The ESC ends the string and starts a new sequence.
                    sequence.removeLast()
                    ignoreSequence(&performer)
                    startEscape()
                    advance(byte, performer: &performer)
                }
            }
        }

        private mutating func consumeText(_ byte: UInt8, _ performer: inout some Performer) {
            guard decoder.isIncomplete || byte >= 0x80 else {
                switch byte {
                case 0x1B: startEscape()
                case 0x00..<0x20, 0x7F: performer.perform(.execute(byte))
                default: performer.perform(.print(Unicode.Scalar(byte)))
                }
                return
            }
            switch decoder.decode(byte) {
            case .scalar(let scalar) where (0x80...0x9F).contains(scalar.value):
                // C1 control characters are never text.
                performer.perform(.execute(UInt8(scalar.value)))
            case .scalar(let scalar):
                performer.perform(.print(scalar))
            case .incomplete:
                break
            case .invalid(let reprocess):
                performer.perform(.print("\u{FFFD}"))
                if reprocess { consumeText(byte, &performer) }
            }
        }

        /// Handles a byte that interrupts an escape sequence: a C0 control runs inside it, DEL is
        /// ignored, a byte of a non-ASCII character abandons it.
        ///
        /// - Returns: whether the byte was handled.
        private mutating func interruptsSequence(_ byte: UInt8, _ performer: inout some Performer) -> Bool {
            switch byte {
            case 0x00...0x1F:
                executeInSequence(byte, &performer)
            case 0x7F:
                break
            case 0x80...:
                ignoreSequence(&performer)
                advance(byte, performer: &performer)
            default:
                return false
            }
            return true
        }

        private mutating func consumeEscape(_ byte: UInt8, _ performer: inout some Performer) {
            guard !interruptsSequence(byte, &performer) else { return }
            sequence.append(byte)
            switch byte {
            case UInt8(ascii: "["): state = .controlSequence
            case UInt8(ascii: "]"): state = .controlString(isOperatingSystemCommand: true)
            case UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
                state = .controlString(isOperatingSystemCommand: false)
            case 0x20...0x2F: state = .escapeIntermediate
            default: dispatchEscape(&performer)
            }
        }

        /// Handles a byte after ESC and an intermediate byte, or after ESC [.
        private mutating func consumeSequenceByte(_ byte: UInt8, _ performer: inout some Performer) {
            guard !interruptsSequence(byte, &performer) else { return }
            let isControlSequence = if case .controlSequence = state { true } else { false }
            sequence.append(byte)
            if isControlSequence, (0x40...0x7E).contains(byte) {
                dispatchControlSequence(&performer)
            } else if !isControlSequence, (0x30...0x7E).contains(byte) {
                dispatchEscape(&performer)
            }
        }

        private mutating func consumeControlString(
            _ byte: UInt8,
            isOperatingSystemCommand: Bool,
            _ performer: inout some Performer
        ) {
            switch byte {
            case 0x07 where isOperatingSystemCommand:
                sequence.append(byte)
                ignoreSequence(&performer)
            case 0x18, 0x1A:
                ignoreSequence(&performer)
            case 0x1B:
                sequence.append(byte)
                state = .controlStringEscape
            default:
                sequence.append(byte)
            }
        }

        /// A control character inside an escape sequence: CAN and SUB cancel it, ESC starts a new one, and the
        /// others take effect without interrupting it.
        private mutating func executeInSequence(_ byte: UInt8, _ performer: inout some Performer) {
            switch byte {
            case 0x18, 0x1A:
                ignoreSequence(&performer)
            case 0x1B:
                ignoreSequence(&performer)
                startEscape()
            default:
                performer.perform(.execute(byte))
            }
        }

        private mutating func startEscape() {
            sequence = [0x1B]
            state = .escape
        }

        private mutating func dispatchEscape(_ performer: inout some Performer) {
            performer.perform(.escape(sequence))
            finishSequence()
        }

        private mutating func dispatchControlSequence(_ performer: inout some Performer) {
            if let controlSequence = ControlSequence(sequence) {
                performer.perform(.controlSequence(controlSequence, bytes: sequence))
                finishSequence()
            } else {
                ignoreSequence(&performer)
            }
        }

        /// Hands the sequence parsed so far over as ignored and returns to text.
        private mutating func ignoreSequence(_ performer: inout some Performer) {
            performer.perform(.ignore(sequence))
            finishSequence()
        }

        private mutating func finishSequence() {
            sequence = []
            state = .ground
        }
    }
}

extension InMemoryTerminal.Parser {
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
}

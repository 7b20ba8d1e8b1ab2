/// What the tokenizer reads and says.
extension EscapeSequenceTokenizer {
    /// Which stream the bytes come from.
    package enum Direction: Sendable {
        /// What a program writes to a terminal.
        case output
        /// What a terminal sends in raw mode: keys.
        case input
    }

    /// A kind of escape sequence.
    package enum Kind: Sendable, Equatable {
        /// `ESC [` or U+009B, parameters, intermediates and a final byte.
        case controlSequence
        /// `ESC O` and a final byte, maybe after parameters: a key (``Direction/input`` only).
        case singleShift
        /// `ESC`, intermediates and a final byte.
        case escape
        /// An OSC string.
        case operatingSystemCommand
        /// A DCS string.
        case deviceControl
        /// An SOS string.
        case startOfString
        /// A PM string.
        case privacyMessage
        /// An APC string.
        case applicationCommand
    }

    /// What a byte that could not continue it cut short.
    package enum Unfinished: Sendable, Equatable {
        /// A lone `ESC`: in ``Direction/input``, the Escape key.
        case escape
        /// An escape sequence.
        case sequence
        /// The first bytes of a UTF-8 character, which are not valid UTF-8.
        case character(UTF8Prefix)
    }

    /// The first one to three bytes of a UTF-8 character.
    package struct UTF8Prefix: Sendable, Equatable {
        /// The bytes, the first in the lowest eight bits, and their count in the highest eight.
        private let packed: UInt32

        /// The first `count` bytes of `bytes`, the first in the lowest eight bits.
        init(bytes: UInt32, count: Int) {
            packed = bytes & 0xFF_FFFF | UInt32(count) << 24
        }

        /// How many bytes there are.
        package var count: Int { Int(packed >> 24) }

        /// Calls `body` with each byte, in order.
        package func forEach(_ body: (UInt8) -> Void) {
            for index in 0..<count { body(UInt8(truncatingIfNeeded: packed >> (8 * UInt32(index)))) }
        }
    }

    /// What a byte is.
    package enum Token: Sendable, Equatable {
        /// A printable character ends at this byte: an ASCII one, or the last byte of a UTF-8
        /// character (any but a C1 control).
        case text(Unicode.Scalar)
        /// A control outside any sequence: a C0 control, DEL, or a C1 control that starts no
        /// sequence.
        case control(Unicode.Scalar)
        /// Part of something unfinished (a UTF-8 character or a sequence), or ignored or
        /// cancelling inside a sequence: nothing to show.
        case partial
        /// The end of an escape sequence of this kind, described by ``final``, ``parameters``
        /// and ``parameterCount`` until the next byte.
        case sequence(Kind)
        /// The byte cannot continue what came before it, which ends unfinished; the byte was not
        /// read: feed it again.
        case interrupted(Unfinished)
        /// A byte that is not UTF-8: a stray continuation byte or one UTF-8 never uses.
        case invalid
    }
}

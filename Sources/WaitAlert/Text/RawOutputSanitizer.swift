/// Makes a program's raw output safe for a terminal byte by byte, in place, without allocating:
/// for a signal handler, which writes the output a program caught under an overlay had not
/// printed yet when it ends abruptly.
///
/// It follows ``TextSanitizer``'s rules on bytes, with line structure kept: `\n`, `\r` and tab
/// pass (the terminal shows a line rewritten with `\r` as it would have); every other C0 and C1
/// control, DEL, every escape sequence with its body (colours too) and the bidirectional
/// controls are removed. A UTF-8 sequence cut at a buffer's end is held until the next buffer, so
/// the state carries over from one buffer to the next.
package struct RawOutputSanitizer: Sendable {
    private enum State: Sendable {
        case ground
        case escape
        case escapeIntermediate
        case controlSequence
        case string(endsAtBell: Bool)
        /// An `ESC` inside a string: `\` ends the string, anything else starts a new sequence.
        case stringEscape
    }

    private var state = State.ground
    /// The first bytes of a UTF-8 sequence that may be a control (U+0080–U+009F, a bidirectional
    /// control or a line separator), held until the byte that decides.
    private var held: (UInt8, UInt8) = (0, 0)
    private var heldCount = 0

    package init() {}

    /// The most bytes held from one buffer to the next: a buffer filtered after another leaves
    /// this many bytes free before its input.
    package static let maximumHeld = 2

    /// Sanitizes the bytes of `buffer` in `input` and writes what is kept from the start of
    /// `buffer`, in place; returns how many bytes it wrote. Async-signal-safe.
    ///
    /// Bytes held from the previous buffer are written first, so `input` must start at least
    /// ``maximumHeld`` bytes in when this is not the first buffer: the writing then never
    /// overtakes the reading.
    package mutating func filter(_ buffer: UnsafeMutableRawBufferPointer, input: Range<Int>) -> Int {
        precondition(input.lowerBound >= heldCount && input.upperBound <= buffer.count)
        var written = 0
        for index in input {
            let byte = buffer[index]
            feed(byte) { kept in
                buffer[written] = kept
                written += 1
            }
        }
        return written
    }

    /// What a sequence of bytes cut at the end of the output becomes: the held bytes of an
    /// unfinished UTF-8 sequence, written as they are (the terminal shows a replacement). Returns
    /// how many bytes it wrote into `buffer` (at most 2).
    package mutating func finish(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        defer { heldCount = 0 }
        guard case .ground = state else { return 0 }
        let count = min(heldCount, buffer.count)
        if count > 0 { buffer[0] = held.0 }
        if count > 1 { buffer[1] = held.1 }
        return count
    }

    private mutating func feed(_ byte: UInt8, emit: (UInt8) -> Void) {
        if heldCount > 0 {
            switch decideHeld(byte) {
            case .holdMore:
                held.1 = byte
                heldCount = 2
                return
            case .dropWith(let state):
                heldCount = 0
                self.state = state
                return
            case .keep:
                emit(held.0)
                if heldCount > 1 { emit(held.1) }
                heldCount = 0
            }
        }
        switch state {
        case .ground:
            ground(byte, emit: emit)
        case .escape, .escapeIntermediate, .controlSequence:
            inSequence(byte, emit: emit)
        case .string(let endsAtBell):
            switch byte {
            case 0x07 where endsAtBell, 0x18, 0x1A: state = .ground
            case 0x1B: state = .stringEscape
            case 0x0A:
                state = .ground  // a line break ends any sequence
                emit(byte)
            default: break
            }
        case .stringEscape:
            if byte == UInt8(ascii: "\\") {
                state = .ground
            } else {
                state = .escape
                inSequence(byte, emit: emit)
            }
        }
    }

    private mutating func ground(_ byte: UInt8, emit: (UInt8) -> Void) {
        switch byte {
        case 0x0A, 0x0D, 0x09: emit(byte)
        case 0x1B: state = .escape
        case 0x00..<0x20, 0x7F: break
        case 0xC2, 0xD8, 0xE2:
            held.0 = byte
            heldCount = 1
        default: emit(byte)
        }
    }

    private mutating func inSequence(_ byte: UInt8, emit: (UInt8) -> Void) {
        switch (state, byte) {
        case (_, 0x1B): state = .escape
        case (_, 0x18), (_, 0x1A): state = .ground
        case (_, 0x0A):
            state = .ground
            emit(byte)
        case (_, 0x00..<0x20), (_, 0x7F): break
        case (_, 0x80...):
            // Not part of a sequence: text beyond ASCII ends it early and is kept.
            state = .ground
            ground(byte, emit: emit)
        case (.escape, UInt8(ascii: "[")): state = .controlSequence
        case (.escape, UInt8(ascii: "]")): state = .string(endsAtBell: true)
        case (.escape, UInt8(ascii: "P")), (.escape, UInt8(ascii: "X")), (.escape, UInt8(ascii: "^")),
            (.escape, UInt8(ascii: "_")):
            state = .string(endsAtBell: false)
        case (.escape, 0x20...0x2F), (.escapeIntermediate, 0x20...0x2F): state = .escapeIntermediate
        case (.controlSequence, 0x20...0x3F): break
        default: state = .ground  // a final byte ends the sequence
        }
    }

    private enum HeldDecision {
        case holdMore
        case dropWith(State)
        case keep
    }

    /// What the held bytes and `byte` make: a control to drop (and the state it leads to), the
    /// start of one that needs another byte, or text to keep.
    private func decideHeld(_ byte: UInt8) -> HeldDecision {
        switch (heldCount, held.0, held.1, byte) {
        case (1, 0xC2, _, 0x80...0x9F):
            switch byte {
            case 0x9B: return .dropWith(.controlSequence)
            case 0x9D: return .dropWith(.string(endsAtBell: true))
            case 0x90, 0x98, 0x9E, 0x9F: return .dropWith(.string(endsAtBell: false))
            default: return .dropWith(.ground)
            }
        case (1, 0xD8, _, 0x9C): return .dropWith(.ground)  // U+061C
        case (1, 0xE2, _, 0x80), (1, 0xE2, _, 0x81): return .holdMore
        case (2, 0xE2, 0x80, 0x8E...0x8F), (2, 0xE2, 0x80, 0xA8...0xAE), (2, 0xE2, 0x81, 0xA6...0xA9):
            return .dropWith(.ground)  // U+200E, U+200F, U+2028–U+202E, U+2066–U+2069
        default: return .keep
        }
    }
}

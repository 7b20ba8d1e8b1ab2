/// Makes a program's raw output safe for a terminal byte by byte, in place, without allocating:
/// for a signal handler, which writes the output a program caught under an overlay had not
/// printed yet when it ends abruptly.
///
/// It reads the output with ``EscapeSequenceTokenizer`` as ``TextSanitizer`` does, with line
/// structure kept: `\n`, `\r` and tab pass (the terminal shows a line rewritten with `\r` as it
/// would have); every other C0 and C1 control, DEL, every escape sequence with its body (colours
/// too) and the bidirectional controls and line and paragraph separators are removed. Bytes that
/// are not UTF-8 pass as they are. A UTF-8 character cut at a buffer's end is held until the next
/// buffer, so the state carries over from one buffer to the next.
package struct RawOutputSanitizer: Sendable {
    private var tokenizer = EscapeSequenceTokenizer(.output)

    package init() {}

    /// The most bytes held from one buffer to the next: a buffer filtered after another leaves
    /// this many bytes free before its input.
    package static let maximumHeld = 3

    /// Sanitizes the bytes of `buffer` in `input` and writes what is kept from the start of
    /// `buffer`, in place; returns how many bytes it wrote. Async-signal-safe.
    ///
    /// Bytes held from the previous buffer are written first, so `input` must start at least
    /// ``maximumHeld`` bytes in when this is not the first buffer: the writing then never
    /// overtakes the reading.
    package mutating func filter(_ buffer: UnsafeMutableRawBufferPointer, input: Range<Int>) -> Int {
        precondition(input.lowerBound >= tokenizer.heldCount && input.upperBound <= buffer.count)
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
    /// unfinished UTF-8 character, written as they are (the terminal shows a replacement). Returns
    /// how many bytes it wrote into `buffer` (at most ``maximumHeld``).
    package mutating func finish(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard case .character(let held) = tokenizer.flush() else { return 0 }
        var written = 0
        held.forEach { byte in
            guard written < buffer.count else { return }
            buffer[written] = byte
            written += 1
        }
        return written
    }

    @inline(__always)
    private mutating func feed(_ byte: UInt8, emit: (UInt8) -> Void) {
        var token = tokenizer.consume(byte)
        if case .text(let scalar) = token, scalar.isASCII { return emit(byte) }
        if case .interrupted(let unfinished) = token {
            if case .character(let held) = unfinished { held.forEach(emit) }  // Not UTF-8: as it is.
            token = tokenizer.consume(byte)
        }
        switch token {
        case .text(let scalar) where scalar.value < 0x80:
            emit(byte)
        case .text(let scalar):
            switch scalar.value {
            case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: break
            default: UTF8.encode(scalar, into: emit)
            }
        case .control(let scalar):
            if scalar == "\n" || scalar == "\r" || scalar == "\t" { emit(byte) }
        case .invalid:
            emit(byte)
        case .partial, .sequence, .interrupted:
            break
        }
    }
}

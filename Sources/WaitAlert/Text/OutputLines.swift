/// Cuts the bytes a program writes to a terminal into lines, the way a terminal would show them:
/// a pure state machine fed with explicit instants.
///
/// - `\n` (or `\r\n`, or `\r\r\n` as output processing may make it) ends a line.
/// - A `\r` not followed by `\n` returns to the start of the line: what follows replaces it, so a
///   progress line rewritten with `\r` stays one line (its latest text) instead of stacking.
/// - A line still unfinished ``partialDelay`` after its first byte becomes ``partial``, for a
///   display to show as a live line; it is committed when its `\n` comes (or by ``finish()``).
/// - A line longer than ``maximumLineBytes`` is committed in pieces of that size, so memory stays
///   bounded whatever the program writes.
///
/// Bytes are decoded as UTF-8 (invalid sequences become U+FFFD) only when a line is committed or
/// shown, never cutting a character in two at a read boundary. The lines keep escape sequences:
/// sanitizing is the display's business.
package struct OutputLines: Sendable {
    /// How long an unfinished line waits before it shows as ``partial``.
    package static let partialDelay = Duration.milliseconds(100)
    /// The longest line kept whole.
    package static let maximumLineBytes = 16 * 1024

    /// The bytes of the current line since its last `\r`.
    private var current: [UInt8] = []
    /// Whether the last byte was a `\r` whose meaning waits on the next byte.
    private var carriageReturn = false
    /// Whether the current line has been rewritten with `\r`.
    private var rewritten = false
    /// When the current line got its first byte.
    private var startedAt: Duration?
    /// Whether the current line continues a piece of an overlong line already committed.
    private var continuesPiece = false

    package init() {}

    /// Feeds `bytes` written at `instant`; returns the lines they completed, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>, at instant: Duration) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if carriageReturn {
                // `\r\r\n` (a terminal's output processing adds a `\r` before each `\n`) ends
                // the line as `\r\n` does: only text after a `\r` rewrites the line.
                if byte == UInt8(ascii: "\r") { continue }
                carriageReturn = false
                if byte == UInt8(ascii: "\n") {
                    endLine(into: &lines)
                    continue
                }
                current.removeAll(keepingCapacity: true)
                rewritten = true
            }
            switch byte {
            case UInt8(ascii: "\n"):
                endLine(into: &lines)
            case UInt8(ascii: "\r"):
                carriageReturn = true
                if startedAt == nil { startedAt = instant }
            default:
                if startedAt == nil { startedAt = instant }
                current.append(byte)
                if current.count >= Self.maximumLineBytes { lines.append(takePiece(at: instant)) }
            }
        }
        return lines
    }

    /// The unfinished line as it shows now (its text since its last `\r`), once it has waited
    /// ``partialDelay``; `nil` before, and when there is none.
    package func partial(at instant: Duration) -> String? {
        guard let startedAt, instant - startedAt >= Self.partialDelay, !current.isEmpty || rewritten else {
            return nil
        }
        return Self.decode(current.prefix(Self.completePrefix(of: current)))
    }

    /// When an unfinished line will show as ``partial``, if it does not yet.
    package var partialDeadline: Duration? {
        guard let startedAt, !current.isEmpty || carriageReturn || rewritten else { return nil }
        return startedAt + Self.partialDelay
    }

    /// The unfinished line's bytes since its last `\r`, and a `\r` that ended it: what a
    /// terminal needs to show the line as it is and go on with it as the program will.
    package var unfinishedBytes: [UInt8] { carriageReturn ? current + [UInt8(ascii: "\r")] : current }

    /// Whether a line is under way (written but not finished).
    package var hasUnfinishedLine: Bool { startedAt != nil }

    /// Ends the stream: the unfinished line, if it has any text, is committed.
    package mutating func finish() -> [String] {
        defer { self = OutputLines() }
        guard !current.isEmpty else { return [] }
        return [Self.decode(current[...])]
    }

    /// Ends the stream for a display that is going away: the unfinished line (its text since its
    /// last `\r`, and a `\r` that ended it), made safe to write where the program left it, with
    /// no line end added; its colours are kept (``TextSanitizer/keepingColors(_:)``).
    package mutating func finishForDisplay() -> String {
        defer { self = OutputLines() }
        guard !current.isEmpty || carriageReturn else { return "" }
        let text = current.isEmpty ? "" : TextSanitizer.keepingColors(Self.decode(current[...]))
        return carriageReturn ? text + "\r" : text
    }

    private mutating func endLine(into lines: inout [String]) {
        if continuesPiece, current.isEmpty, !rewritten {
            (continuesPiece, startedAt) = (false, nil)  // the overlong line ended with its last piece
        } else {
            lines.append(take())
        }
    }

    private mutating func take() -> String {
        let line = Self.decode(current[...])
        current.removeAll(keepingCapacity: current.count <= 4096)
        rewritten = false
        continuesPiece = false
        startedAt = nil
        return line
    }

    /// The first piece of an overlong line, cut before a character cut short; the rest stays.
    private mutating func takePiece(at instant: Duration) -> String {
        let end = Self.completePrefix(of: current)
        let piece = Self.decode(current[..<end])
        current.removeFirst(end)
        continuesPiece = true
        startedAt = instant
        return piece
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The length of `bytes` without a UTF-8 sequence cut short at its end.
    private static func completePrefix(of bytes: [UInt8]) -> Int {
        var index = bytes.count
        var continuation = 0
        while index > 0, continuation < 3, bytes[index - 1] & 0xC0 == 0x80 {
            index -= 1
            continuation += 1
        }
        guard index > 0 else { return bytes.count }
        let lead = bytes[index - 1]
        let needed =
            switch lead {
            case 0xC0...0xDF: 1
            case 0xE0...0xEF: 2
            case 0xF0...0xF7: 3
            default: 0
            }
        return needed > continuation ? index - 1 : bytes.count
    }
}

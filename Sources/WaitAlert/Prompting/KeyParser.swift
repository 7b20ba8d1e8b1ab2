/// Turns the bytes a terminal sends in raw mode into ``Key``s.
///
/// The parser keeps what it needs between calls to ``feed(_:)``, so an escape sequence, a
/// UTF-8 character or a bracketed paste may be split across reads at any byte. It reads:
///
/// - printable ASCII and UTF-8 as ``Key/text(_:)``, consecutive characters of one read merged;
///   invalid UTF-8 and C1 controls (U+0080–U+009F) are dropped;
/// - CR or LF as ``Key/enter`` (CR LF counts once), DEL and BS as ``Key/backspace``, HT as
///   ``Key/tab``, and Ctrl-A, -E, -B, -F, -U, -W, -K, -C, -D, -Z as ``Key/home``, ``Key/end``,
///   ``Key/left``, ``Key/right``, ``Key/killToStart``, ``Key/killWordBefore``,
///   ``Key/killToEnd``, ``Key/interrupt``, ``Key/endOfInput`` and ``Key/suspend``; other C0
///   controls are dropped;
/// - `CSI A`, `B`, `C`, `D`, `H`, `F` and the same finals after `SS3` as arrows, Home and
///   End; with a Ctrl, Alt or Meta modifier (`CSI 1;5D`, `CSI 1;3C`) Left and Right become
///   ``Key/wordLeft`` and ``Key/wordRight``, as do rxvt's `SS3 d` and `SS3 c`; `CSI Z` is
///   ``Key/backTab``; `CSI 1~`/`7~` Home, `CSI 4~`/`8~` End, `CSI 3~` Delete, `CSI 5~`/`6~`
///   Page Up and Page Down, whatever their modifier;
/// - `ESC b` and `ESC f` as word motions and `ESC DEL` (or `ESC BS`) as ``Key/killWordBefore``;
/// - `CSI 200~` … `CSI 201~` as one ``Key/paste(_:)`` holding the raw bytes between them,
///   decoded as UTF-8 (invalid bytes dropped) and cut to ``maximumPasteBytes``.
///
/// Sequences are read by ``EscapeSequenceTokenizer`` as a terminal's input. Every other escape
/// sequence is consumed whole and dropped: control sequences with any parameters or
/// intermediates, other `ESC` sequences, and OSC, DCS, SOS, PM and APC strings (ended by BEL for
/// OSC, or by ST, `ESC \` or U+009C); CAN and SUB cancel a sequence. A control byte or a
/// non-ASCII byte inside a control sequence ends it and is read on its own, so Ctrl-C is never
/// swallowed; a control after a lone `ESC` means Escape was pressed before it.
///
/// A lone `ESC` cannot be told from the start of a sequence until more bytes come or none do:
/// the caller calls ``flush()`` after a short silence (about 50 ms) while ``isAwaitingMore``.
/// The same silence inside a paste delivers the paste's text so far without closing it.
package struct KeyParser: Sendable {
    /// Most bytes one bracketed paste keeps; the rest of a longer paste is dropped, and
    /// ``Key/pasteCut`` follows the paste.
    package static let maximumPasteBytes = 64 * 1024

    /// Consecutive calls to ``flush()`` without input after which an open paste is closed, in
    /// case its end marker never comes.
    package static let pasteSilenceLimit = 10

    /// Most parameter and intermediate bytes of a control sequence kept for decoding; a longer
    /// sequence is consumed and dropped.
    private static let maximumSequenceBytes = 16

    /// `CSI 201~`, the end of a bracketed paste.
    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    /// The bytes read as keys.
    private var tokenizer = EscapeSequenceTokenizer(.input)
    /// Whether a bracketed paste is open: its bytes are read raw, not as keys.
    private var inPaste = false
    /// Whether the last byte was a CR, so that an LF right after it is not a second Enter.
    private var afterCarriageReturn = false
    /// Bytes of the open paste not delivered yet.
    private var pasteBytes: [UInt8] = []
    /// Bytes the open paste has had so far, kept or dropped.
    private var pasteTotal = 0
    /// How many bytes of ``pasteEnd`` the paste's last bytes match.
    private var pasteEndMatched = 0
    /// Calls to ``flush()`` in a row without input during the open paste.
    private var silentFlushes = 0

    /// A parser between keys.
    package init() {}

    /// Whether input read so far ends inside something unfinished: a lone `ESC`, an escape
    /// sequence, a UTF-8 character or a bracketed paste.
    package var isAwaitingMore: Bool {
        inPaste || !tokenizer.isIdle
    }

    /// The keys the next bytes of input complete, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        var output = Output()
        for byte in bytes {
            silentFlushes = 0
            consume(byte, into: &output)
        }
        return output.finish()
    }

    /// The keys pending input stands for once no more input came for a while.
    ///
    /// A lone `ESC` becomes ``Key/escape``; an unfinished escape sequence or UTF-8 character is
    /// dropped. An open paste stays open, but the complete characters it holds are delivered as
    /// a ``Key/paste(_:)``; after ``pasteSilenceLimit`` calls in a row without input the paste is
    /// closed.
    package mutating func flush() -> [Key] {
        var output = Output()
        afterCarriageReturn = false
        if inPaste {
            silentFlushes += 1
            if silentFlushes >= Self.pasteSilenceLimit {
                for held in Self.pasteEnd[..<pasteEndMatched] { keepPasted(held) }
                endPaste(into: &output)
            } else {
                deliverPaste(upTo: Self.completeUTF8Prefix(of: pasteBytes), into: &output)
            }
        } else if tokenizer.flush() == .escape {
            output.append(.escape)
        }
        return output.finish()
    }

    /// Reads one byte.
    private mutating func consume(_ byte: UInt8, into output: inout Output) {
        guard !inPaste else { return pasteByte(byte, into: &output) }
        var token = tokenizer.consume(byte)
        if case .interrupted(let unfinished) = token {
            if unfinished == .escape { output.append(.escape) }  // Escape pressed, then this byte.
            token = tokenizer.consume(byte)
        }
        let afterCarriageReturn = self.afterCarriageReturn
        self.afterCarriageReturn = byte == 0x0D && token == .control("\r")
        switch token {
        case .text(let scalar):
            output.append(text: scalar)
        case .control(let scalar):
            guard scalar.isASCII, !(scalar == "\n" && afterCarriageReturn) else { break }  // C1 controls are dropped.
            if let key = Self.controlKey(UInt8(scalar.value)) { output.append(key) }
        case .sequence(let kind):
            sequence(kind, into: &output)
        case .partial, .interrupted, .invalid:
            break
        }
    }

    /// Reads a complete escape sequence: a key, the start of a paste, or nothing.
    private mutating func sequence(_ kind: EscapeSequenceTokenizer.Kind, into output: inout Output) {
        let final = tokenizer.final
        let count = tokenizer.parameterCount
        switch kind {
        case .escape where count == 0:
            switch final {
            case UInt8(ascii: "b"): output.append(.wordLeft)
            case UInt8(ascii: "f"): output.append(.wordRight)
            case 0x7F, 0x08: output.append(.killWordBefore)
            default: break  // Alt with a key this parser has no use for.
            }
        case .singleShift where count == 0:
            if let key = Self.singleShiftKey(final) { output.append(key) }
        case .controlSequence where count <= Self.maximumSequenceBytes:
            let parameters = tokenizer.parameters
            if final == UInt8(ascii: "~"), parameters == Array("200".utf8) {
                inPaste = true
                pasteBytes.removeAll()
                pasteTotal = 0
                pasteEndMatched = 0
                silentFlushes = 0
            } else if let key = Self.controlSequenceKey(parameters: parameters, final: final) {
                output.append(key)
            }
        default:
            break
        }
    }

    /// Reads a byte of a bracketed paste, watching for its end marker.
    private mutating func pasteByte(_ byte: UInt8, into output: inout Output) {
        let end = Self.pasteEnd
        if byte == end[pasteEndMatched] {
            pasteEndMatched += 1
            if pasteEndMatched == end.count {
                pasteEndMatched = 0
                endPaste(into: &output)
            }
            return
        }
        if pasteEndMatched > 0 {
            for held in end[..<pasteEndMatched] { keepPasted(held) }
            pasteEndMatched = 0
            if byte == end[0] {
                pasteEndMatched = 1
                return
            }
        }
        keepPasted(byte)
    }

    /// Adds a pasted byte, unless the paste already holds ``maximumPasteBytes``.
    private mutating func keepPasted(_ byte: UInt8) {
        if pasteTotal < Self.maximumPasteBytes { pasteBytes.append(byte) }
        pasteTotal += 1
    }

    /// Closes the open paste and delivers what it holds.
    private mutating func endPaste(into output: inout Output) {
        deliverPaste(upTo: pasteBytes.count, into: &output)
        if pasteTotal > Self.maximumPasteBytes { output.append(.pasteCut) }
        pasteBytes.removeAll()
        pasteEndMatched = 0
        inPaste = false
    }

    /// Delivers the first `count` held pasted bytes as a ``Key/paste(_:)``, if they hold text.
    private mutating func deliverPaste(upTo count: Int, into output: inout Output) {
        let text = Self.decodeDroppingInvalid(pasteBytes[..<count])
        pasteBytes.removeFirst(count)
        if !text.isEmpty { output.append(.paste(text)) }
    }

    /// Keys decoded during one call, with the text typed since the last key.
    private struct Output {
        private var keys: [Key] = []
        private var text = ""

        /// Adds a key after the text typed before it.
        mutating func append(_ key: Key) {
            endText()
            keys.append(key)
        }

        /// Adds a typed character to the current text.
        mutating func append(text scalar: Unicode.Scalar) {
            text.unicodeScalars.append(scalar)
        }

        /// The keys, the text typed last included.
        mutating func finish() -> [Key] {
            endText()
            return keys
        }

        /// Turns the text typed so far into a key.
        private mutating func endText() {
            guard !text.isEmpty else { return }
            keys.append(.text(text))
            text = ""
        }
    }
}

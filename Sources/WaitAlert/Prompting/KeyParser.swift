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
/// Every other escape sequence is consumed whole and dropped: control sequences with any
/// parameters or intermediates, other `ESC` sequences, and OSC, DCS, SOS, PM and APC strings
/// (ended by BEL for OSC, or by ST, `ESC \`); CAN and SUB cancel a sequence. A control byte or a
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

    /// Where the parser is in the byte stream.
    private enum State: Sendable, Equatable {
        /// Between keys.
        case ground
        /// After `ESC`.
        case escape
        /// After `ESC` and one or more intermediate bytes.
        case escapeIntermediate
        /// Inside a control sequence, after `ESC [` or U+009B.
        case controlSequence
        /// After `ESC O`.
        case singleShift
        /// Inside an OSC (ended by BEL or ST) or another command string (ended by ST).
        case string(endsAtBell: Bool)
        /// After `ESC` inside a command string: `\` ends the string.
        case stringEscape(endsAtBell: Bool)
        /// Inside a bracketed paste.
        case paste
    }

    private var state = State.ground
    /// Parameter and intermediate bytes of the current control sequence or SS3 sequence.
    private var sequence: [UInt8] = []
    /// Whether the current sequence outgrew ``maximumSequenceBytes`` and will be dropped.
    private var sequenceOverflowed = false
    /// The first bytes of a UTF-8 character not complete yet.
    private var scalarBytes: [UInt8] = []
    /// How many bytes the UTF-8 character in ``scalarBytes`` takes.
    private var scalarLength = 0
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
        state != .ground || !scalarBytes.isEmpty
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
        scalarBytes.removeAll()
        switch state {
        case .escape:
            output.append(.escape)
            state = .ground
        case .paste:
            silentFlushes += 1
            if silentFlushes >= Self.pasteSilenceLimit {
                for held in Self.pasteEnd[..<pasteEndMatched] { keepPasted(held) }
                endPaste(into: &output)
            } else {
                deliverPaste(upTo: Self.completeUTF8Prefix(of: pasteBytes), into: &output)
            }
        default:
            state = .ground
        }
        return output.finish()
    }

    /// Reads one byte in the current state.
    private mutating func consume(_ byte: UInt8, into output: inout Output) {
        switch state {
        case .ground:
            ground(byte, into: &output)
        case .escape:
            afterEscape(byte, into: &output)
        case .escapeIntermediate:
            switch byte {
            case 0x20...0x2F: break
            case 0x30...0x7E: state = .ground
            default: abortSequence(at: byte, into: &output)
            }
        case .controlSequence, .singleShift:
            switch byte {
            case 0x20...0x3F:
                if sequence.count < Self.maximumSequenceBytes {
                    sequence.append(byte)
                } else {
                    sequenceOverflowed = true
                }
            case 0x40...0x7E:
                finishSequence(final: byte, into: &output)
            default:
                abortSequence(at: byte, into: &output)
            }
        case .string(let endsAtBell):
            switch byte {
            case 0x1B: state = .stringEscape(endsAtBell: endsAtBell)
            case 0x07 where endsAtBell, 0x18, 0x1A: state = .ground
            default: break
            }
        case .stringEscape:
            if byte == UInt8(ascii: "\\") {
                state = .ground
            } else {
                state = .escape
                consume(byte, into: &output)
            }
        case .paste:
            pasteByte(byte, into: &output)
        }
    }

    /// Reads a byte between keys.
    private mutating func ground(_ byte: UInt8, into output: inout Output) {
        let afterCarriageReturn = self.afterCarriageReturn
        self.afterCarriageReturn = byte == 0x0D
        if !scalarBytes.isEmpty {
            if Self.isContinuation(byte, at: scalarBytes.count, after: scalarBytes[0]) {
                scalarBytes.append(byte)
                if scalarBytes.count == scalarLength {
                    scalar(Self.decode(scalarBytes), into: &output)
                    scalarBytes.removeAll()
                }
                return
            }
            scalarBytes.removeAll()  // Invalid: drop it and read this byte afresh.
        }
        switch byte {
        case 0x20...0x7E:
            output.append(text: Unicode.Scalar(byte))
        case 0x1B:
            state = .escape
        case 0xC2...0xF4:
            scalarBytes = [byte]
            scalarLength = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        case 0x80...0xFF:
            break  // A stray continuation byte or a byte UTF-8 never uses.
        case 0x0A where afterCarriageReturn:
            break
        default:
            if let key = Self.controlKey(byte) { output.append(key) }
        }
    }

    /// Reads a complete non-ASCII character: text, or a C1 control.
    private mutating func scalar(_ scalar: Unicode.Scalar, into output: inout Output) {
        switch scalar.value {
        case 0x9B:
            startSequence(.controlSequence)
        case 0x9D:
            state = .string(endsAtBell: true)
        case 0x90, 0x98, 0x9E, 0x9F:
            state = .string(endsAtBell: false)
        case 0x80...0x9F:
            break
        default:
            output.append(text: scalar)
        }
    }

    /// Reads the byte after `ESC`.
    private mutating func afterEscape(_ byte: UInt8, into output: inout Output) {
        state = .ground
        switch byte {
        case UInt8(ascii: "["): startSequence(.controlSequence)
        case UInt8(ascii: "O"): startSequence(.singleShift)
        case UInt8(ascii: "]"): state = .string(endsAtBell: true)
        case UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
            state = .string(endsAtBell: false)
        case UInt8(ascii: "b"): output.append(.wordLeft)
        case UInt8(ascii: "f"): output.append(.wordRight)
        case 0x7F, 0x08: output.append(.killWordBefore)
        case 0x1B:
            output.append(.escape)
            state = .escape
        case 0x20...0x2F: state = .escapeIntermediate
        case 0x30...0x7E: break  // Alt with a key this parser has no use for.
        default:
            output.append(.escape)  // Escape pressed, then a control or a non-ASCII character.
            consume(byte, into: &output)
        }
    }

    /// Enters a control sequence or an SS3 sequence with no parameters yet.
    private mutating func startSequence(_ state: State) {
        self.state = state
        sequence.removeAll()
        sequenceOverflowed = false
    }

    /// Ends the current sequence early at a byte that cannot be part of it, then reads the byte
    /// on its own unless it is CAN or SUB, which only cancel the sequence.
    private mutating func abortSequence(at byte: UInt8, into output: inout Output) {
        state = .ground
        if byte != 0x18, byte != 0x1A { consume(byte, into: &output) }
    }

    /// Decodes the current control or SS3 sequence at its final byte.
    private mutating func finishSequence(final: UInt8, into output: inout Output) {
        let singleShift = state == .singleShift
        state = .ground
        guard !sequenceOverflowed else { return }
        if singleShift {
            if sequence.isEmpty, let key = Self.singleShiftKey(final) { output.append(key) }
            return
        }
        if final == UInt8(ascii: "~"), sequence == Array("200".utf8) {
            state = .paste
            pasteBytes.removeAll()
            pasteTotal = 0
            pasteEndMatched = 0
            silentFlushes = 0
            return
        }
        if let key = Self.controlSequenceKey(parameters: sequence, final: final) { output.append(key) }
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
        state = .ground
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

import Testing
import WaitAlert

/// The one reader of escape sequences: what each byte is, in both directions.
struct EscapeSequenceTokenizerTests {
    /// What a run of bytes says, adjacent text merged.
    enum Event: Equatable, CustomStringConvertible {
        case text(String)
        case control(UInt32)
        case sequence(EscapeSequenceTokenizer.Kind, final: UInt8, parameters: String)
        case interrupted(EscapeSequenceTokenizer.Unfinished)
        case invalid(UInt8)

        var description: String {
            switch self {
            case .text(let text): "text \(text.debugDescription)"
            case .control(let value): "control \(String(value, radix: 16))"
            case .sequence(let kind, let final, let parameters):
                "\(kind) \(Unicode.Scalar(final).escaped(asASCII: true)) \(parameters.debugDescription)"
            case .interrupted(let unfinished): "interrupted \(unfinished)"
            case .invalid(let byte): "invalid \(String(byte, radix: 16))"
            }
        }
    }

    private func events(_ input: String, _ direction: EscapeSequenceTokenizer.Direction = .output) -> [Event] {
        events(Array(input.utf8), direction)
    }

    /// The events of `bytes`, each interrupting byte fed again as a reader must.
    private func events(_ bytes: [UInt8], _ direction: EscapeSequenceTokenizer.Direction = .output) -> [Event] {
        var tokenizer = EscapeSequenceTokenizer(direction)
        var events: [Event] = []
        func add(_ event: Event) {
            if case .text(let more) = event, case .text(let text) = events.last {
                events[events.count - 1] = .text(text + more)
            } else {
                events.append(event)
            }
        }
        for byte in bytes {
            var token = tokenizer.consume(byte)
            if case .interrupted(let unfinished) = token {
                add(.interrupted(unfinished))
                token = tokenizer.consume(byte)
            }
            switch token {
            case .text(let scalar): add(.text(String(scalar)))
            case .control(let scalar): add(.control(scalar.value))
            case .sequence(let kind):
                let parameters = String(decoding: tokenizer.parameters, as: UTF8.self)
                add(.sequence(kind, final: tokenizer.final, parameters: parameters))
            case .invalid: add(.invalid(byte))
            case .partial, .interrupted: break
            }
        }
        return events
    }

    private let csi = EscapeSequenceTokenizer.Kind.controlSequence
    private let osc = EscapeSequenceTokenizer.Kind.operatingSystemCommand

    @Test func eachKindInItsSevenBitAndC1Forms() {
        #expect(events("a\u{1B}[1;31mb") == [.text("a"), .sequence(csi, final: 0x6D, parameters: "1;31"), .text("b")])
        #expect(events("\u{9B}?25l") == [.sequence(csi, final: 0x6C, parameters: "?25")])
        for (input, final) in [
            ("\u{1B}]0;title\u{07}", 0x07), ("\u{1B}]0;title\u{1B}\\", 0x5C), ("\u{9D}0;title\u{9C}", 0x9C),
            ("\u{1B}]0;title\u{9C}", 0x9C), ("\u{9D}0;title\u{07}", 0x07),
        ] as [(String, UInt8)] {
            #expect(events(input) == [.sequence(osc, final: final, parameters: "0;title")], "\(input.debugDescription)")
        }
        let strings: [(String, String, EscapeSequenceTokenizer.Kind)] = [
            ("\u{1B}P", "\u{90}", .deviceControl), ("\u{1B}X", "\u{98}", .startOfString),
            ("\u{1B}^", "\u{9E}", .privacyMessage), ("\u{1B}_", "\u{9F}", .applicationCommand),
        ]
        for (sevenBit, c1, kind) in strings {
            #expect(events(sevenBit + "body\u{1B}\\") == [.sequence(kind, final: 0x5C, parameters: "body")])
            #expect(events(c1 + "body\u{9C}") == [.sequence(kind, final: 0x9C, parameters: "body")])
        }
        #expect(
            events("\u{1B}(B\u{1B}7") == [
                .sequence(.escape, final: 0x42, parameters: "("), .sequence(.escape, final: 0x37, parameters: ""),
            ])
    }

    /// Only an OSC ends at BEL; the other strings ignore it, as they ignore other controls.
    @Test func aStringEndsAtItsTerminatorOnly() {
        #expect(
            events("\u{1B}Pa\u{07}b\u{08}c\u{7F}\u{1B}\\") == [
                .sequence(.deviceControl, final: 0x5C, parameters: "abc")
            ])
        #expect(events("\u{1B}]a\u{08}b\u{07}c") == [.sequence(osc, final: 0x07, parameters: "ab"), .text("c")])
        #expect(
            events("\u{1B}]0;Ü✜\u{07}") == [.sequence(osc, final: 0x07, parameters: "0;Ü✜")],
            "a byte 9C inside a character is not ST")
    }

    @Test func cancelAndSubstituteCancelASequence() {
        for input in ["\u{1B}[12\u{18}x", "\u{1B}]0;t\u{1A}x", "\u{1B}(\u{18}x", "\u{1B}\u{1A}x", "\u{9B}1\u{1A}x"] {
            #expect(events(input) == [.text("x")], "\(input.debugDescription)")
        }
        #expect(events("\u{1B}[12\u{18}x", .input) == [.text("x")])
        #expect(events("\u{1B}\u{1A}", .input) == [.interrupted(.escape), .control(0x1A)], "Escape, then Ctrl-Z")
    }

    @Test func escapeStartsANewSequence() {
        #expect(
            events("\u{1B}[12\u{1B}[3m") == [.interrupted(.sequence), .sequence(csi, final: 0x6D, parameters: "3")])
        #expect(events("\u{1B}]0;t\u{1B}[3m") == [.sequence(csi, final: 0x6D, parameters: "3")], "the string is left")
        #expect(
            events("\u{1B}\u{1B}[A", .input) == [.interrupted(.escape), .sequence(csi, final: 0x41, parameters: "")])
    }

    /// A C1 control acts wherever it comes, inside a string too, in both directions.
    @Test(arguments: [EscapeSequenceTokenizer.Direction.output, .input])
    func c1ControlsActInsideStrings(direction: EscapeSequenceTokenizer.Direction) {
        #expect(events("\u{1B}]0;t\u{9C}x", direction) == [.sequence(osc, final: 0x9C, parameters: "0;t"), .text("x")])
        #expect(events("\u{1B}Pq\u{84}x", direction) == [.control(0x84), .text("x")])
        #expect(events("\u{1B}]0;t\u{9B}2Jx", direction) == [.sequence(csi, final: 0x4A, parameters: "2"), .text("x")])
        #expect(events("\u{1B}_a\u{9D}b\u{07}", direction) == [.sequence(osc, final: 0x07, parameters: "b")])
    }

    @Test(arguments: [EscapeSequenceTokenizer.Direction.output, .input])
    func aCharacterBeyondASCIIEndsAControlSequenceEarly(direction: EscapeSequenceTokenizer.Direction) {
        #expect(events("\u{1B}[1é", direction) == [.interrupted(.sequence), .text("é")])
        #expect(events("\u{1B}é", direction) == [.interrupted(.escape), .text("é")])
        #expect(events("\u{1B}[3\u{202E}1m", direction) == [.interrupted(.sequence), .text("\u{202E}1m")])
    }

    /// Output is shown line by line: a line break ends any sequence. Input has no lines.
    @Test func lineBreaksEndSequencesInOutputOnly() {
        #expect(events("\u{1B}]0;t\nx") == [.interrupted(.sequence), .control(0x0A), .text("x")])
        #expect(events("\u{1B}[1\rx") == [.interrupted(.sequence), .control(0x0D), .text("x")])
        #expect(events("\u{1B}\rx") == [.interrupted(.escape), .control(0x0D), .text("x")])
        #expect(events("\u{1B}]0;t\u{2028}x") == [.text("\u{2028}x")])
        #expect(events("\u{1B}]0;t\u{85}x") == [.control(0x85), .text("x")])
        #expect(events("\u{1B}]0;t\rx\u{07}", .input) == [.sequence(osc, final: 0x07, parameters: "0;tx")])
        #expect(events("\u{1B}]0;t\u{2028}\u{07}", .input) == [.sequence(osc, final: 0x07, parameters: "0;t\u{2028}")])
    }

    /// In output a control inside a control sequence is ignored; in input it is a key, so it ends
    /// the sequence and is read on its own — Ctrl-C is never swallowed.
    @Test func controlsInsideSequences() {
        #expect(events("\u{1B}[1\u{08}2m") == [.sequence(csi, final: 0x6D, parameters: "12")])
        #expect(events("\u{1B}\u{08}[2m") == [.sequence(csi, final: 0x6D, parameters: "2")])
        #expect(events("\u{1B}[1\u{03}A", .input) == [.interrupted(.sequence), .control(0x03), .text("A")])
        #expect(events("\u{1B}(\u{7F}", .input) == [.interrupted(.sequence), .control(0x7F)])
        #expect(events("\u{1B}\u{03}", .input) == [.interrupted(.escape), .control(0x03)], "Escape, then Ctrl-C")
        #expect(
            events("\u{1B}\u{7F}\u{1B}\u{08}", .input) == [
                .sequence(.escape, final: 0x7F, parameters: ""), .sequence(.escape, final: 0x08, parameters: ""),
            ], "Alt-Backspace")
        #expect(events("\u{1B}\u{7F}") == [], "DEL is ignored in output")
    }

    /// `ESC O` is a single shift that takes a key's final byte in input, and a whole escape in
    /// output.
    @Test func singleShiftIsAKeyInInputOnly() {
        #expect(
            events("\u{1B}OA\u{1B}O5D", .input) == [
                .sequence(.singleShift, final: 0x41, parameters: ""),
                .sequence(.singleShift, final: 0x44, parameters: "5"),
            ])
        #expect(events("\u{1B}OA") == [.sequence(.escape, final: 0x4F, parameters: ""), .text("A")])
    }

    @Test func anOverlongSequenceIsCountedAndKeepsItsStart() {
        var tokenizer = EscapeSequenceTokenizer(.output)
        let parameters = String(repeating: "1;", count: 50)
        var last = EscapeSequenceTokenizer.Token.partial
        for byte in Array(("\u{1B}[" + parameters + "m").utf8) { last = tokenizer.consume(byte) }
        #expect(last == .sequence(.controlSequence))
        #expect(tokenizer.parameterCount == 100)
        #expect(tokenizer.parameters == Array(parameters.utf8.prefix(EscapeSequenceTokenizer.maximumStoredBytes)))
        for byte in Array(("\u{1B}]" + String(repeating: "x", count: 100_000) + "\u{07}").utf8) {
            last = tokenizer.consume(byte)
        }
        #expect(last == .sequence(.operatingSystemCommand))
        #expect(tokenizer.parameterCount == 100_000 && tokenizer.parameters.count == 32)
    }

    @Test func selectGraphicRenditionWrittenPlainly() {
        func ends(_ input: String) -> Bool {
            var tokenizer = EscapeSequenceTokenizer(.output)
            for byte in Array(input.utf8) { _ = tokenizer.consume(byte) }
            return tokenizer.endedSelectGraphicRendition
        }
        #expect(ends("\u{1B}[1;38;5;208m") && ends("\u{1B}[m") && ends("\u{1B}[38:2::1:2:3m"))
        for other in ["\u{1B}[?1m", "\u{9B}1m", "\u{1B}[1 m", "\u{1B}[1\u{07}m", "\u{1B}[1J", "\u{1B}]1m\u{07}"] {
            #expect(!ends(other), "\(other.debugDescription)")
        }
    }

    @Test func utf8IsReadWholeAndInvalidBytesSaySo() {
        #expect(events("é漢👍🏽") == [.text("é漢👍🏽")])
        #expect(
            events([0x61, 0xFF, 0x80, 0xC0, 0xAF]) == [
                .text("a"), .invalid(0xFF), .invalid(0x80), .invalid(0xC0), .invalid(0xAF),
            ])
        let broken: [UInt8] = [0xE2, 0x82, 0x41, 0xED, 0xA0, 0x80]  // A cut character, then a surrogate.
        var tokenizer = EscapeSequenceTokenizer(.output)
        #expect(tokenizer.consume(broken[0]) == .partial && tokenizer.consume(broken[1]) == .partial)
        #expect(tokenizer.heldCount == 2)
        guard case .interrupted(.character(let prefix)) = tokenizer.consume(broken[2]) else {
            Issue.record("a cut character is interrupted")
            return
        }
        var held: [UInt8] = []
        prefix.forEach { held.append($0) }
        #expect(held == [0xE2, 0x82] && prefix.count == 2)
        #expect(tokenizer.consume(broken[2]) == .text("A"))
        #expect(
            events(Array(broken[3...])) == [
                .interrupted(.character(self.prefix(of: [0xED]))), .invalid(0xA0), .invalid(0x80),
            ])
    }

    private func prefix(of bytes: [UInt8]) -> EscapeSequenceTokenizer.UTF8Prefix {
        var tokenizer = EscapeSequenceTokenizer(.output)
        for byte in bytes { _ = tokenizer.consume(byte) }
        guard case .character(let prefix) = tokenizer.flush() else { fatalError("no unfinished character") }
        return prefix
    }

    @Test func flushSaysWhatWasUnfinished() {
        func flushed(_ input: [UInt8], _ direction: EscapeSequenceTokenizer.Direction) -> EscapeSequenceTokenizer
            .Unfinished?
        {
            var tokenizer = EscapeSequenceTokenizer(direction)
            for byte in input { _ = tokenizer.consume(byte) }
            defer { #expect(tokenizer.isIdle, "idle after a flush") }
            return tokenizer.flush()
        }
        #expect(flushed([0x1B], .input) == .escape)
        #expect(flushed(Array("\u{1B}[1;5".utf8), .input) == .sequence)
        #expect(flushed(Array("\u{1B}]0;t\u{1B}".utf8), .output) == .sequence)
        #expect(flushed([0xE4, 0xB8], .output) == .character(prefix(of: [0xE4, 0xB8])))
        #expect(flushed(Array("ok".utf8), .output) == nil)
    }

    /// The tokenizer is plain bytes: copying or changing it never allocates or retains anything,
    /// so a signal handler may run it (as ``RawOutputSanitizer`` does).
    @Test func itHoldsNoReference() {
        #expect(_isPOD(EscapeSequenceTokenizer.self))
        #expect(_isPOD(RawOutputSanitizer.self))
        #expect(MemoryLayout<EscapeSequenceTokenizer>.size <= 96)
    }
}

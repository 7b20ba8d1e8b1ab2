import Testing
import WaitAlert

/// Raw terminal input decoded into keys, whole and split across reads.
struct KeyParserTests {
    /// The keys a whole input gives, pending input flushed at the end.
    private func keys(_ input: String) -> [Key] {
        keys(Array(input.utf8))
    }

    private func keys(_ bytes: [UInt8]) -> [Key] {
        var parser = KeyParser()
        return parser.feed(bytes) + parser.flush()
    }

    /// Adjacent text keys joined, since how typed text is grouped depends on how reads split it.
    private func joined(_ keys: [Key]) -> [Key] {
        var result: [Key] = []
        for key in keys {
            if case .text(let more) = key, case .text(let text) = result.last {
                result[result.count - 1] = .text(text + more)
            } else {
                result.append(key)
            }
        }
        return result
    }

    /// Whether a string holds a control: C0, DEL or C1 (ESC included).
    private func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    @Test func controlBytesMapToKeys() {
        let table: [(String, Key)] = [
            ("\r", .enter), ("\n", .enter), ("\u{7F}", .backspace), ("\u{08}", .backspace), ("\t", .tab),
            ("\u{01}", .home), ("\u{05}", .end), ("\u{02}", .left), ("\u{06}", .right),
            ("\u{15}", .killToStart), ("\u{17}", .killWordBefore), ("\u{0B}", .killToEnd),
            ("\u{03}", .interrupt), ("\u{04}", .endOfInput), ("\u{1A}", .suspend),
        ]
        for (input, key) in table {
            #expect(keys(input) == [key], "\(input.debugDescription)")
        }
    }

    @Test func escapeSequencesMapToKeys() {
        let table: [(String, Key)] = [
            ("[A", .up), ("[B", .down), ("[C", .right), ("[D", .left), ("[H", .home), ("[F", .end),
            ("[1;5D", .wordLeft), ("[1;3D", .wordLeft), ("[1;9D", .wordLeft), ("[1;5C", .wordRight),
            ("[1;3C", .wordRight), ("[1;2D", .left), ("[1;2C", .right), ("[1;5A", .up), ("[1;5H", .home),
            ("[1A", .up), ("[Z", .backTab), ("[1~", .home), ("[7~", .home), ("[4~", .end), ("[8~", .end),
            ("[3~", .delete), ("[3;5~", .delete), ("[5~", .pageUp), ("[6~", .pageDown),
            ("OA", .up), ("OB", .down), ("OC", .right), ("OD", .left), ("OH", .home), ("OF", .end),
            ("Od", .wordLeft), ("Oc", .wordRight), ("b", .wordLeft), ("f", .wordRight),
            ("\u{7F}", .killWordBefore), ("\u{08}", .killWordBefore),
        ]
        for (sequence, key) in table {
            #expect(keys("\u{1B}" + sequence) == [key], "ESC \(sequence.debugDescription)")
        }
    }

    @Test func otherControlsAndSequencesAreDropped() {
        let dropped = [
            "\u{00}", "\u{07}", "\u{0C}", "\u{0E}", "\u{1C}", "\u{1F}", "\u{1B}[2~", "\u{1B}[?1049h",
            "\u{1B}[38;5;196m", "\u{1B}[<0;12;7M", "\u{1B}[I", "\u{1B}[O", "\u{1B}[201~", "\u{1B}[9;5C",
            "\u{1B}[1;5;7D", "\u{1B}[ q", "\u{1B}[1:5D", "\u{1B}[2Z",
            "\u{1B}]0;title\u{07}", "\u{1B}]8;;https://x\u{1B}\\", "\u{1B}P1$r0m\u{1B}\\", "\u{1B}_apc\u{1B}\\",
            "\u{1B}^pm\u{1B}\\", "\u{1B}Xsos\u{1B}\\", "\u{1B}(B", "\u{1B}#8", "\u{1B}x", "\u{1B}7", "\u{1B}O5D",
            "\u{1B}[" + String(repeating: "1;", count: 40) + "D",
        ]
        for input in dropped {
            #expect(keys(input) == [], "\(input.debugDescription)")
        }
    }

    @Test func printableInputIsText() {
        #expect(keys("héllo 中文 👩‍👩‍👧") == [.text("héllo 中文 👩‍👩‍👧")])
        #expect(keys("ab\u{1B}[Dc") == [.text("ab"), .left, .text("c")])
        #expect(keys("x\u{03}y") == [.text("x"), .interrupt, .text("y")])
    }

    @Test func carriageReturnThenLineFeedIsOneEnter() {
        #expect(keys("a\r\nb") == [.text("a"), .enter, .text("b")])
        #expect(keys("\r\r") == [.enter, .enter])
        #expect(keys("\n\n") == [.enter, .enter])
        #expect(keys("\n\r") == [.enter, .enter])
        var parser = KeyParser()
        #expect(parser.feed(Array("\r".utf8)) == [.enter])
        #expect(parser.feed(Array("\n".utf8)) == [], "an LF right after a CR in the next read")
        #expect(parser.feed(Array("\r".utf8)) == [.enter])
        #expect(parser.flush() == [])
        #expect(parser.feed(Array("\n".utf8)) == [.enter], "an LF after a silence is a key of its own")
    }

    @Test func aLoneEscapeWaitsForFlush() {
        var parser = KeyParser()
        #expect(parser.feed([0x1B]) == [])
        #expect(parser.isAwaitingMore)
        #expect(parser.flush() == [.escape])
        #expect(!parser.isAwaitingMore)
        #expect(parser.flush() == [])
    }

    @Test func escapeFollowedByAControlIsEscapeThenTheControl() {
        #expect(keys("\u{1B}\u{03}") == [.escape, .interrupt])
        #expect(keys("\u{1B}\r") == [.escape, .enter])
        #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
        #expect(keys("\u{1B}é") == [.escape, .text("é")])
    }

    @Test func aControlInsideASequenceEndsItAndCounts() {
        #expect(keys("\u{1B}[1;\u{03}A") == [.interrupt, .text("A")])
        #expect(keys("\u{1B}[1\u{1B}[B") == [.down])
        #expect(keys("\u{1B}[1\u{18}A") == [.text("A")], "CAN cancels the sequence")
        #expect(keys("\u{1B}]0;t\u{1B}[C") == [.right], "ESC inside a string starts a new sequence")
    }

    @Test func flushDropsAnUnfinishedSequence() {
        var parser = KeyParser()
        #expect(parser.feed(Array("\u{1B}[1;5".utf8)) == [])
        #expect(parser.isAwaitingMore)
        #expect(parser.flush() == [])
        #expect(!parser.isAwaitingMore)
        #expect(parser.feed(Array("D".utf8)) == [.text("D")])
        #expect(parser.feed(Array("\u{1B}]0;never ends".utf8)) == [])
        #expect(parser.flush() == [])
        #expect(parser.feed(Array("ok".utf8)) == [.text("ok")])
    }

    @Test func utf8SplitAcrossReadsIsReassembled() {
        var parser = KeyParser()
        let bytes = Array("é中👩‍👩‍👧".utf8)
        var result: [Key] = []
        for byte in bytes {
            result += parser.feed([byte])
        }
        #expect(joined(result) == [.text("é中👩‍👩‍👧")])
        #expect(parser.feed([0xE4]) == [])
        #expect(parser.isAwaitingMore)
        #expect(parser.flush() == [], "an unfinished character is dropped")
        #expect(parser.feed([0xB8, 0x61]) == [.text("a")], "and its late continuation too")
    }

    @Test func invalidUTF8IsDropped() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xC3, 0x28, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF5, 0x81, 0x63, 0xE2, 0x82]
        #expect(keys(bytes) == [.text("ab(c")])
    }

    @Test func bracketedPasteIsOneKeyWithRawContent() {
        #expect(keys("\u{1B}[200~hello\r\nworld\u{1B}[201~") == [.paste("hello\r\nworld")])
        #expect(
            keys("\u{1B}[200~a\u{1B}[31mb\u{03}\u{1B}[202~c\u{1B}[201~\r") == [
                .paste("a\u{1B}[31mb\u{03}\u{1B}[202~c"), .enter,
            ])
        #expect(keys("\u{1B}[200~\u{1B}\u{1B}[201~") == [.paste("\u{1B}")])
        #expect(keys("\u{1B}[200~\u{1B}[201~x") == [.text("x")], "an empty paste gives no key")
        #expect(
            keys([0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E, 0x61, 0xFF, 0x62, 0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]) == [
                .paste("ab")
            ])
    }

    @Test func aPasteIsBounded() {
        let long = String(repeating: "a", count: KeyParser.maximumPasteBytes + 5000)
        let result = keys("\u{1B}[200~" + long + "\u{1B}[201~\r")
        let kept = String(repeating: "a", count: KeyParser.maximumPasteBytes)
        #expect(result.count == 3 && result.first == .paste(kept), "the paste's start, whole")
        #expect(result.dropFirst() == [.pasteCut, .enter], "then word that it was cut")
    }

    @Test func flushDuringAPasteDeliversWholeCharactersAndKeepsTheRest() {
        var parser = KeyParser()
        let bytes = Array("\u{1B}[200~ab€".utf8)
        #expect(parser.feed(bytes.dropLast(1)) == [])
        #expect(parser.isAwaitingMore)
        #expect(parser.flush() == [.paste("ab")])
        #expect(parser.isAwaitingMore, "the paste is still open")
        #expect(parser.feed(bytes.suffix(1) + Array("\r\u{1B}[20".utf8)) == [])
        #expect(parser.flush() == [.paste("€\r")])
        #expect(parser.feed(Array("1~x".utf8)) == [.text("x")])
        #expect(!parser.isAwaitingMore)
    }

    @Test func aPasteWhoseEndNeverComesClosesAfterRepeatedSilence() {
        var parser = KeyParser()
        #expect(parser.feed(Array("\u{1B}[200~abc\u{1B}[2".utf8)) == [])
        var delivered: [Key] = []
        for _ in 1..<KeyParser.pasteSilenceLimit {
            delivered += parser.flush()
            #expect(parser.isAwaitingMore)
        }
        #expect(delivered == [.paste("abc")])
        #expect(parser.flush() == [.paste("\u{1B}[2")])
        #expect(!parser.isAwaitingMore)
        #expect(parser.feed(Array("\u{03}".utf8)) == [.interrupt])
    }

    /// Every split of a mixed input into two reads gives the keys the whole input gives.
    @Test func everySplitGivesTheSameKeys() {
        let input = Array(
            ("a\u{1B}[1;5Dé👩‍👩‍👧\u{1B}[200~x\r\ny€\u{1B}[201~\u{1B}]0;t\u{07}\r\n中\u{1B}[3~\u{03}"
                + "\u{1B}OH\u{1B}b\u{1B}P1$r\u{1B}\\\u{1B}[Z\u{C2}\u{9B}31mz\u{1B}[?25l\u{1B}\u{7F}e\u{301}").utf8)
        let expected = joined(keys(input))
        #expect(expected.contains(.paste("x\r\ny€")))
        #expect(expected.contains(.backTab))
        for cut in 0...input.count {
            var parser = KeyParser()
            let result = parser.feed(input[..<cut]) + parser.feed(input[cut...]) + parser.flush()
            #expect(joined(result) == expected, "split at \(cut)")
        }
    }

    /// Every split into three reads, for a shorter input full of sequences.
    @Test func everySplitInThreeGivesTheSameKeys() {
        let input = Array("\u{1B}[1;3C\u{1B}OA\u{1B}[200~p\u{1B}[201~é\u{1B}[6~\u{1B}f\r\n".utf8)
        let expected = joined(keys(input))
        #expect(expected == [.wordRight, .up, .paste("p"), .text("é"), .pageDown, .wordRight, .enter])
        for first in 0...input.count {
            for second in first...input.count {
                var parser = KeyParser()
                let result =
                    parser.feed(input[..<first]) + parser.feed(input[first..<second]) + parser.feed(input[second...])
                    + parser.flush()
                #expect(joined(result) == expected, "split at \(first) and \(second)")
            }
        }
    }

    /// A terminal's reply string (a colour, a status) ends at the C1 ST too, and a C1 control
    /// ends it: the keys typed after it are read.
    @Test func aStringEndsAtC1Controls() {
        #expect(keys("\u{1B}]11;rgb:0/0/0\u{9C}x") == [.text("x")])
        #expect(keys("\u{1B}P1$r0m\u{84}y") == [.text("y")])
        #expect(keys("\u{9D}0;t\u{9B}A") == [.up])
        #expect(keys("\u{1B}]0;Ü✜\u{07}z") == [.text("z")], "a byte 9C inside a character is not ST")
    }

    @Test func c1ControlsAreNotText() {
        #expect(keys("\u{9B}31mX\u{9D}0;t\u{07}Y\u{85}Z\u{90}q\u{1B}\\W") == [.text("XYZW")])
        #expect(keys([0x9B, 0x61]) == [.text("a")], "a raw 8-bit C1 byte is invalid UTF-8")
    }

    /// Hostile input never produces text holding ESC or another control, and a field fed every
    /// key it produces ends up holding none either.
    @Test func hostileInputNeverYieldsControlsInText() {
        var inputs: [[UInt8]] = [
            "\u{1B}]0;evil\u{07}ok", "\u{1B}]52;c;ZXZpbA==\u{1B}\\", "\u{C2}\u{9B}31mX", "\u{1B}P+q\u{1B}\\",
            "\u{1B}[200~\u{1B}]0;x\u{07}\u{1B}[2J\u{9B}H\r\nrm -rf\u{1B}[201~",
            "\u{1B}[200~\u{1B}[201~\u{1B}[31m", "\u{1B}\u{1B}]]\u{07}\u{07}",
        ].map { Array($0.utf8) }
        // Deterministic pseudo-random inputs over an alphabet rich in sequence bytes.
        let alphabet: [UInt8] = [
            0x1B, 0x1B, 0x5B, 0x5D, 0x50, 0x4F, 0x5C, 0x07, 0x30, 0x31, 0x32, 0x3B, 0x7E, 0x41, 0x61, 0x0D, 0x0A,
            0x03, 0x18, 0x9B, 0xC2, 0x9D, 0x85, 0xE4, 0xB8, 0xAD, 0x7F, 0x20, 0x3F, 0x6D,
        ]
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(seed >> 59) + 1 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(seed >> 33) % alphabet.count])
            }
            inputs.append(bytes)
        }
        for input in inputs {
            var editor = LineEditor()
            for key in keys(input) {
                if case .text(let text) = key {
                    #expect(!hasControl(text), "\(input)")
                }
                _ = editor.apply(key)
            }
            #expect(!hasControl(editor.text), "\(input)")
        }
    }
}

/// A paste longer than the parser keeps is cut, and says so.
struct PasteCutTests {
    @Test func aPasteLongerThanTheBoundIsCutAndFollowedByPasteCut() {
        var parser = KeyParser()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: KeyParser.maximumPasteBytes + 10)
        let keys = parser.feed(Array("\u{1B}[200~".utf8) + long + Array("\u{1B}[201~".utf8))
        #expect(keys.count == 2)
        #expect(keys.first == .paste(String(repeating: "x", count: KeyParser.maximumPasteBytes)))
        #expect(keys.last == .pasteCut)
    }

    @Test func aPasteWithinTheBoundIsWhole() {
        var parser = KeyParser()
        #expect(parser.feed(Array("\u{1B}[200~abc\u{1B}[201~".utf8)) == [.paste("abc")])
    }

    @Test func theEditorSaysWhenTheMaximumLengthCutAnInsertion() {
        var editor = LineEditor(maximumLength: 5)
        _ = editor.apply(.paste("abc"))
        #expect(!editor.lastInsertionWasCut)
        _ = editor.apply(.paste("defg"))
        #expect(editor.lastInsertionWasCut && editor.text == "abcde")
        _ = editor.apply(.left)
        #expect(!editor.lastInsertionWasCut, "the next key clears it")
    }
}

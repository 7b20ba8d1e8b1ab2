import Testing

@testable import WaitAlert

/// `OSC 9;4` progress read from a command's output, in any cut.
struct ProgressSequencesTests {
    private func reports(_ text: String) -> [ProgressSequences.Report] {
        var reader = ProgressSequences()
        return reader.feed(Array(text.utf8))
    }

    @Test func eachStateAndBothEndings() {
        #expect(reports("\u{1B}]9;4;1;40\u{07}") == [.percent(40)])
        #expect(reports("\u{1B}]9;4;1;75\u{1B}\\") == [.percent(75)])
        #expect(reports("\u{1B}]9;4;2;60\u{07}\u{1B}]9;4;4;61\u{07}") == [.failing(60), .percent(61)])
        #expect(reports("\u{1B}]9;4;2\u{07}") == [.failing(nil)], "an error without a percentage")
        #expect(reports("\u{1B}]9;4;3\u{07}\u{1B}]9;4;0;0\u{07}") == [.unknown, .unknown])
        #expect(reports("\u{1B}]9;4;1;250\u{07}\u{1B}]9;4;1;-5\u{07}") == [.percent(100), .percent(0)])
    }

    @Test func otherSequencesAndBrokenOnesSayNothing() {
        #expect(reports("plain text 9;4;1;40\u{07}").isEmpty)
        #expect(reports("\u{1B}]0;a title\u{07}\u{1B}]9;4;1\u{07}\u{1B}]9;4;7;5\u{07}\u{1B}]9;3;1;5\u{07}").isEmpty)
        #expect(reports("\u{1B}]9;4;1;40\u{18}\u{07}").isEmpty, "CAN abandons the sequence")
        let long = "\u{1B}]8;;" + String(repeating: "x", count: 100) + "\u{07}"
        #expect(reports(long + "\u{1B}]9;4;1;5\u{07}") == [.percent(5)], "a long OSC is skipped, the next read")
    }

    /// Progress is read from the sequences a terminal reads: the C1 forms of OSC and ST, controls
    /// inside ignored; a byte 0x9C inside a character does not end one.
    @Test func sequencesAreReadAsATerminalReadsThem() {
        #expect(reports("\u{9D}9;4;1;40\u{9C}") == [.percent(40)])
        #expect(reports("\u{1B}]9;4;1;41\u{9C}") == [.percent(41)])
        #expect(reports("\u{9D}9;4;1;42\u{07}") == [.percent(42)])
        #expect(reports("\u{1B}]9;4;1;4\u{08}3\u{07}") == [.percent(43)])
        #expect(reports("\u{1B}]9;4;1;70;Ü").isEmpty, "an OSC not ended yet says nothing")
        #expect(reports("\u{1B}]9;4;1;44\u{85}\u{07}").isEmpty, "NEL ends it unfinished")
    }

    /// A sequence cut across reads at every byte is read once, the same.
    @Test func aSequenceCutAnywhere() {
        let bytes = Array("line\n\u{1B}]9;4;1;42\u{1B}\\more".utf8)
        for cut in 0...bytes.count {
            var reader = ProgressSequences()
            let found = reader.feed(bytes[..<cut]) + reader.feed(bytes[cut...])
            #expect(found == [.percent(42)], "cut at \(cut)")
        }
    }
}

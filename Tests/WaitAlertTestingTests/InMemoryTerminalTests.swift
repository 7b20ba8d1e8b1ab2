import Testing
import WaitAlert
import WaitAlertTesting

private let esc = "\u{1B}"
private let csi = "\u{1B}["

extension InMemoryTerminal {
    /// Writes the UTF-8 bytes of `text` in one write.
    fileprivate func send(_ text: String) {
        #expect(write(Array(text.utf8)))
    }
}

/// A sample that exercises text, wide and combining characters, controls and escape sequences.
private let mixedSample =
    "⠋ Loading 漢字 e\u{301} 🇺🇸 👍🏽\r\n\(csi)1;32mOK\(csi)0m\t|\u{7}\(csi)?25l"
    + "\(esc)]0;title\u{7}\(csi)2;5Hx\(csi)K\(esc)7\(csi)3Gy\(esc)8z\(csi)?25h\(csi)5n"
    + "\r\nline three that is long enough to wrap around the forty column screen\r\n\(csi)A\(csi)2K"

@Suite("InMemoryTerminal")
struct InMemoryTerminalTests {
    // MARK: Initial state and text

    @Test func startsBlankWithTheGivenSize() {
        let terminal = InMemoryTerminal()
        #expect(terminal.columns == 80)
        #expect(terminal.rows == 24)
        #expect(terminal.isInteractive)
        #expect(!terminal.reflowsOnResize)
        #expect(terminal.lines.isEmpty)
        #expect(terminal.screen == "")
        #expect(terminal.cursor == (0, 0))
        #expect(terminal.isCursorVisible)
        #expect(!terminal.isStyled)
        #expect(terminal.unknownSequences.isEmpty)

        let custom = InMemoryTerminal(columns: 20, rows: 4, isInteractive: false, reflowsOnResize: true)
        #expect(custom.columns == 20)
        #expect(custom.rows == 4)
        #expect(!custom.isInteractive)
        #expect(custom.reflowsOnResize)
    }

    @Test func printsTextAtTheCursor() {
        let terminal = InMemoryTerminal()
        terminal.send("hello")
        #expect(terminal.lines == ["hello"])
        #expect(terminal.cursor == (0, 5))
    }

    @Test func linesAreTrimmedAndTrailingEmptyLinesDropped() {
        let terminal = InMemoryTerminal()
        terminal.send("a  \r\n\r\nb   \r\n\r\n")
        #expect(terminal.lines == ["a", "", "b"])
        #expect(terminal.screen == "a\n\nb")
        #expect(terminal.cursor == (4, 0))
    }

    // MARK: Control characters

    @Test func carriageReturnGoesToColumnZero() {
        let terminal = InMemoryTerminal()
        terminal.send("hello\rJ")
        #expect(terminal.lines == ["Jello"])
        #expect(terminal.cursor == (0, 1))
    }

    @Test(arguments: ["\n", "\r\n", "\u{0B}", "\u{0C}"])
    func lineFeedStartsTheNextLine(newline: String) {
        let terminal = InMemoryTerminal()
        terminal.send("ab\(newline)cd")
        #expect(terminal.lines == ["ab", "cd"])
        #expect(terminal.cursor == (1, 2))
    }

    @Test func backspaceMovesLeftAndStopsAtColumnZero() {
        let terminal = InMemoryTerminal()
        terminal.send("abc\u{8}\u{8}X")
        #expect(terminal.lines == ["aXc"])
        #expect(terminal.cursor == (0, 2))
        terminal.send("\u{8}\u{8}\u{8}\u{8}Y")
        #expect(terminal.lines == ["YXc"])
        #expect(terminal.cursor == (0, 1))
    }

    @Test func tabMovesToTheNextMultipleOfEightAndStopsAtTheLastColumn() {
        let terminal = InMemoryTerminal(columns: 12)
        terminal.send("a\tb")
        #expect(terminal.lines == ["a       b"])
        #expect(terminal.cursor == (0, 9))
        terminal.send("\t")
        #expect(terminal.cursor == (0, 11))
        terminal.send("\tc")
        #expect(terminal.lines == ["a       b  c"])
    }

    @Test func bellIsCountedAndPrintsNothing() {
        let terminal = InMemoryTerminal()
        terminal.send("a\u{7}b\u{7}")
        #expect(terminal.lines == ["ab"])
        #expect(terminal.cursor == (0, 2))
        #expect(terminal.bellCount == 2)
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func otherControlCharactersAreRecordedAndIgnored() {
        let terminal = InMemoryTerminal()
        terminal.send("a\u{0}b\u{0E}c\u{7F}d\u{9B}e")
        #expect(terminal.lines == ["abcde"])
        #expect(terminal.unknownSequences == ["\u{0}", "\u{0E}", "\u{7F}", "\u{9B}"])
    }

    // MARK: Erasing

    @Test(arguments: [
        ("K", ["abcd"]),
        ("0K", ["abcd"]),
        ("1K", ["     fghij"]),
        ("2K", []),
    ])
    func eraseInLine(sequence: String, expected: [String]) {
        let terminal = InMemoryTerminal()
        terminal.send("abcdefghij\(csi)5G\(csi)\(sequence)")
        #expect(terminal.lines == expected)
        #expect(terminal.cursor == (0, 4))
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test(arguments: [
        ("J", ["aaaa", "bb"]),
        ("0J", ["aaaa", "bb"]),
        ("1J", ["", "   b", "cccc"]),
        ("2J", []),
    ])
    func eraseInDisplay(sequence: String, expected: [String]) {
        let terminal = InMemoryTerminal()
        terminal.send("aaaa\r\nbbbb\r\ncccc\(csi)2;3H\(csi)\(sequence)")
        #expect(terminal.lines == expected)
        #expect(terminal.cursor == (1, 2))
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func eraseAfterPendingWrapIncludesTheLastColumn() {
        let terminal = InMemoryTerminal(columns: 5)
        terminal.send("abcde\(csi)K")
        #expect(terminal.lines == ["abcd"])
        terminal.send("X")
        #expect(terminal.lines == ["abcdX"])
    }

    // MARK: Cursor movement

    @Test func relativeCursorMovementClampsToTheScreen() {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        terminal.send("\n\n\n")
        terminal.send("\(csi)A")
        #expect(terminal.cursor == (2, 0))
        terminal.send("\(csi)2A")
        #expect(terminal.cursor == (0, 0))
        terminal.send("\(csi)A")
        #expect(terminal.cursor == (0, 0))
        terminal.send("\(csi)5C")
        #expect(terminal.cursor == (0, 5))
        terminal.send("\(csi)C")
        #expect(terminal.cursor == (0, 6))
        terminal.send("\(csi)0C")
        #expect(terminal.cursor == (0, 7))
        terminal.send("\(csi)2D")
        #expect(terminal.cursor == (0, 5))
        terminal.send("\(csi)99D")
        #expect(terminal.cursor == (0, 0))
        terminal.send("\(csi)B")
        #expect(terminal.cursor == (1, 0))
        terminal.send("\(csi)99B\(csi)999C")
        #expect(terminal.cursor == (23, 79))
        terminal.send("\(csi)D")
        #expect(terminal.cursor == (23, 78))
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func cursorMovementPlacesText() {
        let terminal = InMemoryTerminal()
        terminal.send("abc\r\ndef\(csi)A\(csi)2DX\(csi)BY")
        #expect(terminal.lines == ["aXc", "deY"])
    }

    @Test func cursorColumnAbsolute() {
        let terminal = InMemoryTerminal()
        terminal.send("abcdef\(csi)3GX")
        #expect(terminal.lines == ["abXdef"])
        terminal.send("\(csi)G")
        #expect(terminal.cursor == (0, 0))
        terminal.send("\(csi)999G")
        #expect(terminal.cursor == (0, 79))
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test(arguments: ["H", "f"])
    func cursorPosition(final: String) {
        let terminal = InMemoryTerminal()
        terminal.send("\(csi)2;3\(final)X")
        #expect(terminal.lines == ["", "  X"])
        terminal.send("\(csi)\(final)")
        #expect(terminal.cursor == (0, 0))
        terminal.send("\(csi)3\(final)")
        #expect(terminal.cursor == (2, 0))
        terminal.send("\(csi);5\(final)")
        #expect(terminal.cursor == (0, 4))
        terminal.send("\(csi)99;999\(final)")
        #expect(terminal.cursor == (23, 79))
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func hidesAndShowsTheCursor() {
        let terminal = InMemoryTerminal()
        terminal.send("\(csi)?25l")
        #expect(!terminal.isCursorVisible)
        terminal.send("\(csi)?25h")
        #expect(terminal.isCursorVisible)
        #expect(terminal.lines.isEmpty)
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test(arguments: [("\(csi)s", "\(csi)u"), ("\(esc)7", "\(esc)8")])
    func savesAndRestoresTheCursor(save: String, restore: String) {
        let terminal = InMemoryTerminal()
        terminal.send("abc\(csi)1m\(save)\(csi)0m\(csi)2;8HX\(restore)Y")
        #expect(terminal.lines == ["abcY", "       X"])
        #expect(terminal.cursor == (0, 4))
        #expect(terminal.isStyled)
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func restoringWithoutSavingGoesHome() {
        let terminal = InMemoryTerminal()
        terminal.send("abc\(csi)31m\(esc)8")
        #expect(terminal.cursor == (0, 0))
        #expect(!terminal.isStyled)
    }

    // MARK: Autowrap and scrolling

    @Test func writingTheLastColumnLeavesAPendingWrap() {
        let terminal = InMemoryTerminal(columns: 10)
        terminal.send("0123456789")
        #expect(terminal.lines == ["0123456789"])
        #expect(terminal.cursor == (0, 9))
        terminal.send("A")
        #expect(terminal.lines == ["0123456789", "A"])
        #expect(terminal.cursor == (1, 1))
    }

    @Test func carriageReturnCancelsAPendingWrap() {
        let terminal = InMemoryTerminal(columns: 10)
        terminal.send("0123456789\rX")
        #expect(terminal.lines == ["X123456789"])
        #expect(terminal.cursor == (0, 1))
    }

    @Test func lineFeedAfterAPendingWrapMovesDownOnce() {
        let terminal = InMemoryTerminal(columns: 10)
        terminal.send("0123456789\r\nX")
        #expect(terminal.lines == ["0123456789", "X"])
    }

    @Test func autowrapCanBeTurnedOff() {
        let terminal = InMemoryTerminal(columns: 10)
        terminal.send("\(csi)?7l0123456789AB")
        #expect(terminal.lines == ["012345678B"])
        #expect(terminal.cursor == (0, 9))
        terminal.send("\(csi)?7hC")
        #expect(terminal.lines == ["012345678C"])
        terminal.send("D")
        #expect(terminal.lines == ["012345678C", "D"])
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func lineFeedOnTheBottomLineScrollsIntoScrollback() {
        let terminal = InMemoryTerminal(columns: 10, rows: 3)
        terminal.send("1\n2\n3\n4\n5")
        #expect(terminal.lines == ["3", "4", "5"])
        #expect(terminal.scrollback == ["1", "2"])
        #expect(terminal.transcript == ["1", "2", "3", "4", "5"])
        #expect(terminal.cursor == (2, 1))
    }

    @Test func autowrapOnTheBottomLineScrolls() {
        let terminal = InMemoryTerminal(columns: 5, rows: 2)
        terminal.send("abcdefghijklm")
        #expect(terminal.scrollback == ["abcde"])
        #expect(terminal.lines == ["fghij", "klm"])
        #expect(terminal.cursor == (1, 3))
    }

    // MARK: Text style

    @Test(arguments: [
        ("1m", true),
        ("31m", true),
        ("97m", true),
        ("44m", true),
        ("7m", true),
        ("4:3m", true),
        ("38;5;208m", true),
        ("38;2;10;20;30m", true),
        ("48:2::10:20:30m", true),
        ("1m\(csi)0m", false),
        ("1m\(csi)m", false),
        ("31m\(csi)39m", false),
        ("1;4m\(csi)22;24m", false),
        ("4:3m\(csi)4:0m", false),
        ("38;5;208;1m\(csi)39;22m", false),
    ])
    func graphicRenditionIsTrackedButDoesNotChangeText(sequence: String, isStyled: Bool) {
        let terminal = InMemoryTerminal()
        terminal.send("a\(csi)\(sequence)b")
        #expect(terminal.isStyled == isStyled)
        #expect(terminal.lines == ["ab"])
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func unsupportedGraphicRenditionIsRecorded() {
        let terminal = InMemoryTerminal()
        terminal.send("\(csi)11m\(csi)38;5m")
        #expect(terminal.unknownSequences == ["\(csi)11m", "\(csi)38;5m"])
    }

    // MARK: Unknown sequences

    @Test func unknownSequencesAreRecordedAndIgnored() {
        let unknown = [
            "\(csi)5n",
            "\(esc)]0;title\u{7}",
            "\(esc)]8;;https://example.com\(esc)\\",
            "\(esc)(B",
            "\(esc)c",
            "\(esc)M",
            "\(csi)?1049h",
            "\(csi)3J",
            "\(csi)2 q",
            "\(csi)>c",
            "\(esc)Pq#0\(esc)\\",
            "\(csi)2@",
        ]
        let terminal = InMemoryTerminal()
        terminal.send("a" + unknown.joined() + "b")
        #expect(terminal.lines == ["ab"])
        #expect(terminal.cursor == (0, 2))
        #expect(terminal.unknownSequences == unknown)
    }

    @Test func supportedModesApplyEvenWhenAnotherModeIsUnknown() {
        let terminal = InMemoryTerminal()
        terminal.send("\(csi)?25;1049l")
        #expect(!terminal.isCursorVisible)
        #expect(terminal.unknownSequences == ["\(csi)?25;1049l"])
    }

    @Test func bracketedPasteIsTracked() {
        let terminal = InMemoryTerminal()
        #expect(!terminal.isPasteBracketed)
        terminal.send("\(csi)?2004h")
        #expect(terminal.isPasteBracketed)
        terminal.send("\(csi)?2004l")
        #expect(!terminal.isPasteBracketed)
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func controlCharactersInsideASequenceTakeEffect() {
        let terminal = InMemoryTerminal()
        terminal.send("abcdef\(csi)2\u{7}D")
        #expect(terminal.cursor == (0, 4))
        #expect(terminal.bellCount == 1)
        #expect(terminal.lines == ["abcdef"])
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test(arguments: ["\u{18}", "\u{1A}"])
    func cancelAndSubstituteAbandonASequence(control: String) {
        let terminal = InMemoryTerminal()
        terminal.send("abc\(csi)2\(control)D")
        #expect(terminal.lines == ["abcD"])
        #expect(terminal.unknownSequences == ["\(csi)2"])
    }

    @Test func escapeInsideASequenceStartsANewOne() {
        let terminal = InMemoryTerminal()
        terminal.send("abc\(csi)1\(csi)2D")
        #expect(terminal.cursor == (0, 1))
        #expect(terminal.unknownSequences == ["\(csi)1"])
    }

    // MARK: Split writes

    @Test(arguments: [1, 2, 3, 7])
    func splitWritesGiveTheSameScreen(chunkSize: Int) {
        let bytes = Array(mixedSample.utf8)
        let whole = InMemoryTerminal(columns: 40, rows: 6)
        whole.write(bytes)
        let split = InMemoryTerminal(columns: 40, rows: 6)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            split.write(Array(bytes[start..<min(start + chunkSize, bytes.count)]))
        }
        #expect(whole.lines.count == 3)
        #expect(split.lines == whole.lines)
        #expect(split.scrollback == whole.scrollback)
        #expect(split.cursor == whole.cursor)
        #expect(split.isStyled == whole.isStyled)
        #expect(split.isCursorVisible == whole.isCursorVisible)
        #expect(split.bellCount == whole.bellCount)
        #expect(split.unknownSequences == whole.unknownSequences)
        #expect(split.output == whole.output)
    }

    @Test func escapeSequenceSplitAcrossWritesCompletesOnTheNextWrite() {
        let terminal = InMemoryTerminal()
        terminal.send("abcdef\(csi)3G\u{1B}")
        terminal.send("[")
        #expect(terminal.lines == ["abcdef"])
        terminal.send("0")
        terminal.send("K")
        #expect(terminal.lines == ["ab"])
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func characterSplitAcrossWritesCompletesOnTheNextWrite() {
        let terminal = InMemoryTerminal()
        let bytes = Array("漢".utf8)
        terminal.write([UInt8(ascii: "a")] + bytes.prefix(1))
        #expect(terminal.lines == ["a"])
        #expect(terminal.cursor == (0, 1))
        terminal.write(Array(bytes.dropFirst()))
        #expect(terminal.lines == ["a漢"])
        #expect(terminal.cursor == (0, 3))
    }

    @Test(arguments: ["e\u{301}", "❤\u{FE0F}", "🇺🇸", "👍🏽", "👩\u{200D}💻"])
    func clusterTakesTheWidthOfTheWholeCluster(cluster: Character) {
        let width = DisplayWidth.of(cluster)
        let terminal = InMemoryTerminal(columns: 10)
        terminal.send("\(cluster)x")
        #expect(terminal.lines == ["\(cluster)x"])
        #expect(terminal.cursor == (0, width + 1))

        // After nine characters, a wide cluster no longer fits in the last column and wraps whole.
        let nearTheEdge = InMemoryTerminal(columns: 10)
        nearTheEdge.send("012345678\(cluster)x")
        #expect(nearTheEdge.lines.joined() == "012345678\(cluster)x")
        #expect(nearTheEdge.cursor == (1, width == 2 ? 3 : 1))
    }

    @Test(arguments: ["", "012345678"])
    func clusterCompletedByALaterWriteMatchesOneWrite(prefix: String) {
        for text in ["e\u{301}x", "❤\u{FE0F}x", "🇺🇸x", "👍🏽x", "👩\u{200D}💻x"] {
            let whole = InMemoryTerminal(columns: 10)
            whole.send(prefix + text)
            let split = InMemoryTerminal(columns: 10)
            split.send(prefix)
            for scalar in text.unicodeScalars {
                split.send(String(scalar))
            }
            #expect(split.lines == whole.lines)
            #expect(split.cursor == whole.cursor)
        }
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        let terminal = InMemoryTerminal()
        terminal.write([0x61, 0xFF, 0x62, 0xE6, 0x63, 0xC0, 0xAF, 0x64, 0xED, 0xA0, 0x80])
        #expect(terminal.lines == ["a\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d\u{FFFD}\u{FFFD}\u{FFFD}"])
    }

    // MARK: Wide and zero-width characters

    @Test func wideCharactersTakeTwoCells() {
        let terminal = InMemoryTerminal()
        terminal.send("漢字x")
        #expect(terminal.lines == ["漢字x"])
        #expect(terminal.cursor == (0, 5))
    }

    @Test func overwritingTheRightHalfOfAWideCharacterBlanksTheLeftHalf() {
        let terminal = InMemoryTerminal()
        terminal.send("漢字\(csi)2Gx")
        #expect(terminal.lines == [" x字"])
        #expect(terminal.unknownSequences.isEmpty)
        #expect(terminal.cursor == (0, 2))
    }

    @Test func overwritingTheLeftHalfOfAWideCharacterBlanksTheRightHalf() {
        let terminal = InMemoryTerminal()
        terminal.send("漢字x\(csi)3Gy")
        #expect(terminal.lines == ["漢y x"])
        #expect(terminal.cursor == (0, 3))
    }

    @Test func erasingHalfOfAWideCharacterErasesAllOfIt() {
        let terminal = InMemoryTerminal()
        terminal.send("漢字\(csi)2G\(csi)1K")
        #expect(terminal.lines == ["  字"])
        terminal.send("\(csi)4G\(csi)K")
        #expect(terminal.lines == [])
    }

    @Test func wideCharacterThatDoesNotFitWrapsWhole() {
        let terminal = InMemoryTerminal(columns: 5)
        terminal.send("abcd漢")
        #expect(terminal.lines == ["abcd", "漢"])
        #expect(terminal.cursor == (1, 2))
    }

    @Test func wideCharacterInTheLastTwoColumnsLeavesAPendingWrap() {
        let terminal = InMemoryTerminal(columns: 4)
        terminal.send("ab漢")
        #expect(terminal.lines == ["ab漢"])
        #expect(terminal.cursor == (0, 3))
        terminal.send("c")
        #expect(terminal.lines == ["ab漢", "c"])
    }

    @Test func zeroWidthClustersJoinThePreviousCell() {
        let terminal = InMemoryTerminal()
        terminal.send("e\u{301}x")
        #expect(terminal.lines == ["e\u{301}x"])
        #expect(terminal.cursor == (0, 2))

        let afterSequence = InMemoryTerminal()
        afterSequence.send("e\(csi)m\u{301}")
        #expect(afterSequence.lines == ["e\u{301}"])
        #expect(afterSequence.cursor == (0, 1))

        let atLineStart = InMemoryTerminal()
        atLineStart.send("\u{301}")
        #expect(atLineStart.lines.isEmpty)
        #expect(atLineStart.cursor == (0, 0))
    }

    // MARK: Resizing

    private let thirty = "abcdefghij0123456789ABCDEFGHIJ"

    @Test func shrinkingCutsLinesByDefault() {
        let terminal = InMemoryTerminal()
        terminal.send(thirty)
        terminal.resize(columns: 10)
        #expect(terminal.columns == 10)
        #expect(terminal.rows == 24)
        #expect(terminal.lines == ["abcdefghij"])
        #expect(terminal.cursor == (0, 9))
        terminal.resize(columns: 30)
        #expect(terminal.lines == ["abcdefghij"])
    }

    @Test func growingWithoutReflowContinuesAfterAPendingWrap() {
        let terminal = InMemoryTerminal(columns: 10)
        terminal.send("0123456789")
        terminal.resize(columns: 20)
        #expect(terminal.cursor == (0, 10))
        terminal.send("X")
        #expect(terminal.lines == ["0123456789X"])
    }

    @Test func shrinkingReflowsLinesWhenAsked() {
        let terminal = InMemoryTerminal(reflowsOnResize: true)
        terminal.send(thirty)
        terminal.resize(columns: 10)
        #expect(terminal.lines == ["abcdefghij", "0123456789", "ABCDEFGHIJ"])
        #expect(terminal.cursor == (3, 0))
        terminal.resize(columns: 80)
        #expect(terminal.lines == [thirty])
        #expect(terminal.cursor == (0, 30))
    }

    @Test func reflowKeepsTheCursorOnItsCharacter() {
        let terminal = InMemoryTerminal(reflowsOnResize: true)
        terminal.send(thirty + "\(csi)15G")
        terminal.resize(columns: 10)
        #expect(terminal.cursor == (1, 4))
        terminal.send("*")
        #expect(terminal.lines == ["abcdefghij", "0123*56789", "ABCDEFGHIJ"])
    }

    @Test(arguments: [false, true])
    func redrawingAfterShrinkingLeavesGarbageOnlyWhenReflowing(reflows: Bool) {
        let terminal = InMemoryTerminal(reflowsOnResize: reflows)
        terminal.send(thirty + "\r")
        terminal.resize(columns: 10)
        terminal.send("\r\(csi)Kdone")
        #expect(terminal.lines == (reflows ? ["done", "0123456789", "ABCDEFGHIJ"] : ["done"]))
    }

    @Test func growingRejoinsWrappedLinesWhenReflowing() {
        let terminal = InMemoryTerminal(columns: 10, reflowsOnResize: true)
        terminal.send("abcdefghij0123456789ABCDE\r\nnext")
        #expect(terminal.lines == ["abcdefghij", "0123456789", "ABCDE", "next"])
        terminal.resize(columns: 30)
        #expect(terminal.lines == ["abcdefghij0123456789ABCDE", "next"])
        #expect(terminal.cursor == (1, 4))
    }

    @Test func erasingAWrappedLineToItsEndStopsItFromBeingJoined() {
        let terminal = InMemoryTerminal(columns: 10, reflowsOnResize: true)
        terminal.send("abcdefghijKLM\(csi)H\(csi)K")
        #expect(terminal.lines == ["", "KLM"])
        terminal.resize(columns: 20)
        #expect(terminal.lines == ["", "KLM"])
    }

    @Test func reflowKeepsAPendingWrap() {
        let terminal = InMemoryTerminal(columns: 10, reflowsOnResize: true)
        terminal.send("0123456789")
        terminal.resize(columns: 5)
        #expect(terminal.lines == ["01234", "56789"])
        #expect(terminal.cursor == (1, 4))
        terminal.send("X")
        #expect(terminal.lines == ["01234", "56789", "X"])
    }

    @Test(arguments: [false, true])
    func shrinkingBlanksAWideCharacterCutInHalfOrMovesIt(reflows: Bool) {
        let terminal = InMemoryTerminal(reflowsOnResize: reflows)
        terminal.send("abc漢")
        terminal.resize(columns: 4)
        #expect(terminal.lines == (reflows ? ["abc", "漢"] : ["abc"]))
    }

    @Test(arguments: [false, true])
    func fewerRowsScrollLinesAboveTheCursorIntoScrollback(reflows: Bool) {
        let terminal = InMemoryTerminal(columns: 10, rows: 5, reflowsOnResize: reflows)
        terminal.send("1\n2\n3\n4")
        terminal.resize(columns: 10, rows: 2)
        #expect(terminal.rows == 2)
        #expect(terminal.lines == ["3", "4"])
        #expect(terminal.scrollback == ["1", "2"])
        #expect(terminal.cursor == (1, 1))
        terminal.resize(columns: 10, rows: 4)
        #expect(terminal.lines == ["3", "4"])
        terminal.send("\n5\n6\n7")
        #expect(terminal.transcript == ["1", "2", "3", "4", "5", "6", "7"])
    }

    @Test func fewerRowsDropEmptyLinesBelowTheCursorFirst() {
        let terminal = InMemoryTerminal(columns: 10, rows: 5)
        terminal.send("1\n2\(csi)A")
        terminal.resize(columns: 10, rows: 2)
        #expect(terminal.lines == ["1", "2"])
        #expect(terminal.scrollback.isEmpty)
        #expect(terminal.cursor == (0, 1))
    }

    @Test func fewerRowsKeepTheCursorOnScreen() {
        let terminal = InMemoryTerminal(columns: 10, rows: 4)
        terminal.send("top\r\nmiddle\r\nbottom\(csi)H")
        terminal.resize(columns: 10, rows: 2)
        #expect(terminal.lines == ["top", "middle"])
        #expect(terminal.scrollback.isEmpty)
        #expect(terminal.cursor == (0, 0))
    }

    // MARK: Writes, counters and description

    @Test func closingMakesLaterWritesFail() {
        let terminal = InMemoryTerminal()
        #expect(terminal.write(Array("a".utf8)))
        terminal.close()
        #expect(!terminal.write(Array("b".utf8)))
        #expect(terminal.lines == ["a"])
        #expect(terminal.bytesWritten == 1)
        #expect(terminal.writeCount == 1)
        #expect(terminal.output == Array("a".utf8))
    }

    @Test func countsBytesAndWritesUntilReset() {
        let terminal = InMemoryTerminal()
        terminal.send("ab\u{7}")
        terminal.send("\(csi)?25lc")
        #expect(terminal.bytesWritten == 10)
        #expect(terminal.writeCount == 2)
        #expect(terminal.output == Array("ab\u{7}\(csi)?25lc".utf8))
        #expect(terminal.bellCount == 1)

        terminal.resetCounters()
        #expect(terminal.bytesWritten == 0)
        #expect(terminal.writeCount == 0)
        #expect(terminal.output.isEmpty)
        #expect(terminal.bellCount == 0)
        #expect(terminal.lines == ["abc"])
        #expect(terminal.cursor == (0, 3))
        #expect(!terminal.isCursorVisible)
    }

    @Test func descriptionShowsTheScreenAndTheCursor() {
        let terminal = InMemoryTerminal(columns: 10, rows: 3)
        terminal.send("ab\r\ncd\(csi)?25l")
        #expect(terminal.description == "InMemoryTerminal 10x3, cursor 1:2 (hidden)\n|ab\n|cd\n   ^")
        terminal.send("\n\n\n")
        #expect(
            terminal.description == "InMemoryTerminal 10x3, cursor 2:0 (hidden), 2 lines of scrollback\n|\n|\n|\n ^"
        )
    }

    @Test func concurrentWritesAreAllApplied() async {
        let terminal = InMemoryTerminal(columns: 10, rows: 30)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask { terminal.write(Array("x".utf8)) }
            }
        }
        #expect(terminal.bytesWritten == 100)
        #expect(terminal.writeCount == 100)
        #expect(terminal.lines == Array(repeating: "xxxxxxxxxx", count: 10))
    }
}

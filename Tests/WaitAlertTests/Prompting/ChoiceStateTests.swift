import Testing
import WaitAlert

/// Moving among a question's options and choosing one with keys.
struct ChoiceStateTests {
    private let three = ["Yes", "No", "Never"]

    private func numbered(_ count: Int) -> [String] {
        (1...count).map { "Option \($0)" }
    }

    @Test func invalidIndicesAreClampedOrIgnored() {
        #expect(ChoiceState(options: three, defaultIndex: 7).selected == 2)
        #expect(ChoiceState(options: three, defaultIndex: -1).selected == 0)
        #expect(ChoiceState(options: three, defaultIndex: 1).selected == 1)
        var ignored = ChoiceState(options: three, cancelIndex: 3)
        #expect(ignored.cancelIndex == nil)
        #expect(ignored.apply(.escape) == .cancel)
        #expect(ChoiceState(options: [], defaultIndex: 4, cancelIndex: 0).selected == 0)
    }

    @Test func arrowsAndTabsMoveAndWrap() {
        var choice = ChoiceState(options: three)
        var seen: [Int] = []
        for key: Key in [.right, .down, .tab, .left, .up, .backTab, .backTab] {
            #expect(choice.apply(key) == .changed, "\(key)")
            seen.append(choice.selected)
        }
        #expect(seen == [1, 2, 0, 2, 1, 0, 2])
        var single = ChoiceState(options: ["OK"])
        #expect(single.apply(.right) == .unchanged)
    }

    @Test func homeEndAndPages() {
        var choice = ChoiceState(options: numbered(10), defaultIndex: 4)
        choice.pageSize = 3
        #expect(choice.apply(.pageDown) == .changed)
        #expect(choice.selected == 7)
        _ = choice.apply(.pageDown)
        #expect(choice.selected == 9, "a page stops at the last option")
        #expect(choice.apply(.pageDown) == .unchanged)
        _ = choice.apply(.pageUp)
        #expect(choice.selected == 6)
        #expect(choice.apply(.home) == .changed)
        #expect(choice.selected == 0)
        #expect(choice.apply(.pageUp) == .unchanged)
        #expect(choice.apply(.home) == .unchanged)
        #expect(choice.apply(.end) == .changed)
        #expect(choice.selected == 9)
        choice.pageSize = 0
        _ = choice.apply(.pageUp)
        #expect(choice.selected == 8, "a page is at least one option")
    }

    @Test func enterChoosesTheSelection() {
        var choice = ChoiceState(options: three, defaultIndex: 1)
        #expect(choice.apply(.enter) == .choose(1))
        _ = choice.apply(.down)
        #expect(choice.apply(.enter) == .choose(2))
    }

    @Test func aDigitChoosesAmongUpToNineOptions() {
        var choice = ChoiceState(options: three)
        #expect(choice.apply(.text("2")) == .choose(1))
        #expect(choice.apply(.text("3")) == .choose(2))
        #expect(choice.apply(.text("4")) == .unchanged)
        #expect(choice.apply(.text("0")) == .unchanged)
        #expect(choice.apply(.text("12")) == .unchanged, "several characters at once are not a key press")
        #expect(choice.apply(.text("٢")) == .unchanged, "only ASCII digits number options")
        var nine = ChoiceState(options: numbered(9))
        #expect(nine.apply(.text("9")) == .choose(8))
        #expect(nine.apply(.text("1")) == .choose(0))
    }

    @Test func digitsAmongMoreThanNineOptionsWaitWhileAmbiguous() {
        var choice = ChoiceState(options: numbered(12))
        #expect(choice.apply(.text("3")) == .choose(2), "no option 30 or more: 3 is unambiguous")
        #expect(choice.apply(.text("1")) == .changed, "1, 10, 11 or 12")
        #expect(choice.selected == 0)
        #expect(choice.apply(.text("2")) == .choose(11))
        _ = choice.apply(.text("1"))
        #expect(choice.apply(.text("0")) == .choose(9))
        _ = choice.apply(.text("1"))
        #expect(choice.apply(.text("5")) == .unchanged, "there is no option 15")
        #expect(choice.apply(.text("2")) == .choose(1), "and the number starts over")
        _ = choice.apply(.text("1"))
        #expect(choice.apply(.enter) == .choose(0), "Enter takes the option the digit selected")
        _ = choice.apply(.text("1"))
        _ = choice.apply(.down)
        #expect(choice.apply(.text("2")) == .choose(1), "another key starts the number over")
    }

    @Test func digitsAmongHundredsOfOptions() {
        var choice = ChoiceState(options: numbered(120))
        #expect(choice.apply(.text("1")) == .changed)
        #expect(choice.apply(.text("0")) == .changed, "10 or 100…109")
        #expect(choice.selected == 9)
        #expect(choice.apply(.text("5")) == .choose(104))
        _ = choice.apply(.text("9"))
        #expect(choice.apply(.text("9")) == .choose(98))
        #expect(choice.apply(.text("0")) == .unchanged)
    }

    @Test func aLetterChoosesTheOnlyOptionStartingWithIt() {
        var choice = ChoiceState(options: three + ["  yonder", "Élan"])
        #expect(choice.apply(.text("e")) == .unchanged, "none starts with e")
        #expect(choice.apply(.text("é")) == .choose(4))
        #expect(choice.apply(.text("É")) == .choose(4))
        #expect(choice.apply(.text("n")) == .unchanged, "No and Never: ambiguous")
        #expect(choice.apply(.text("y")) == .unchanged, "Yes and   yonder: ambiguous")
        #expect(choice.selected == 0)
        var plain = ChoiceState(options: three)
        #expect(plain.apply(.text("Y")) == .choose(0))
        #expect(plain.apply(.text("y")) == .choose(0))
        #expect(plain.apply(.text("?")) == .unchanged)
        #expect(plain.apply(.text(" ")) == .unchanged)
        #expect(plain.apply(.paste("y")) == .unchanged)
    }

    @Test func escapeChoosesTheCancelOptionOrCancels() {
        var withCancel = ChoiceState(options: three, cancelIndex: 1)
        #expect(withCancel.apply(.escape) == .choose(1))
        #expect(withCancel.apply(.endOfInput) == .choose(1))
        #expect(withCancel.apply(.interrupt) == .interrupt)
        var without = ChoiceState(options: three)
        #expect(without.apply(.escape) == .cancel)
        #expect(without.apply(.endOfInput) == .cancel)
        #expect(without.apply(.interrupt) == .interrupt)
        #expect(without.apply(.backspace) == .unchanged)
        #expect(without.apply(.suspend) == .unchanged)
    }

    @Test func noOptions() {
        var choice = ChoiceState(options: [])
        #expect(choice.apply(.enter) == .unchanged)
        #expect(choice.apply(.down) == .unchanged)
        #expect(choice.apply(.text("1")) == .unchanged)
        #expect(choice.apply(.escape) == .cancel)
        #expect(choice.window(height: 5).isEmpty)
    }

    @Test func theWindowFollowsTheSelectionAndHoldsStill() {
        var choice = ChoiceState(options: numbered(10))
        var windows: [Range<Int>] = [choice.window(height: 3)]
        for key: Key in [.down, .down, .down, .down, .up, .up, .up, .up, .end, .down] {
            _ = choice.apply(key)
            windows.append(choice.window(height: 3))
        }
        #expect(windows == [0..<3, 0..<3, 0..<3, 1..<4, 2..<5, 2..<5, 2..<5, 1..<4, 0..<3, 7..<10, 0..<3])
    }

    @Test func theWindowFitsItsHeight() {
        var choice = ChoiceState(options: numbered(10), defaultIndex: 8)
        #expect(choice.window(height: 4) == 5..<9)
        #expect(choice.window(height: 6) == 4..<10, "a taller window does not run past the last option")
        #expect(choice.window(height: 20) == 0..<10)
        #expect(choice.window(height: 2) == 7..<9)
        #expect(choice.window(height: 0).isEmpty)
        var short = ChoiceState(options: three, defaultIndex: 2)
        #expect(short.window(height: 5) == 0..<3)
        #expect(short.window(height: 1) == 2..<3)
    }
}

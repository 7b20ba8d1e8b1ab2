import Testing

@testable import wait_alert

struct OutputPlanTests {
    private typealias Channel = OutputPlan.Channel

    @Test func bothOnTheTerminalShareOnePseudoTerminalShownAsDisplayOutput() {
        let plan = OutputPlan.make(standardOutputIsTerminal: true, standardErrorIsTerminal: true, interactive: true)
        #expect(plan.channels == [Channel(descriptors: [1, 2], isTerminal: true, passesThroughTo: nil)])
    }

    @Test func aCapturedStandardOutputIsAPipePassedThrough() {
        let plan = OutputPlan.make(standardOutputIsTerminal: false, standardErrorIsTerminal: true, interactive: true)
        #expect(
            plan.channels == [
                Channel(descriptors: [1], isTerminal: false, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: true, passesThroughTo: nil),
            ])
    }

    @Test func withoutAnOverlayEverythingPassesThrough() {
        let piped = OutputPlan.make(standardOutputIsTerminal: false, standardErrorIsTerminal: false, interactive: false)
        #expect(
            piped.channels == [
                Channel(descriptors: [1], isTerminal: false, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: false, passesThroughTo: 2),
            ])
        let outputOnTerminal = OutputPlan.make(
            standardOutputIsTerminal: true, standardErrorIsTerminal: false, interactive: false)
        #expect(
            outputOnTerminal.channels == [
                Channel(descriptors: [1], isTerminal: true, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: false, passesThroughTo: 2),
            ])
        let dumb = OutputPlan.make(standardOutputIsTerminal: true, standardErrorIsTerminal: true, interactive: false)
        #expect(dumb.channels == [Channel(descriptors: [1, 2], isTerminal: true, passesThroughTo: 1)])
    }

    @Test func theTailKeepsTheLastLinesOldestFirst() {
        var tail = OutputTail(capacity: 3)
        #expect(tail.lines.isEmpty)
        tail.append("a")
        tail.append("b")
        #expect(tail.lines == ["a", "b"])
        for line in ["c", "d", "e"] { tail.append(line) }
        #expect(tail.lines == ["c", "d", "e"])
        tail.append("f")
        #expect(tail.lines == ["d", "e", "f"])
        var none = OutputTail(capacity: 0)
        none.append("a")
        #expect(none.lines.isEmpty)
    }
}

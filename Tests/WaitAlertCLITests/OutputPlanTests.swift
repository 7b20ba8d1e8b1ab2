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
}

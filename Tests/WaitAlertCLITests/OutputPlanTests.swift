import Testing

@testable import wait_alert

struct OutputPlanTests {
    private typealias Channel = OutputPlan.Channel
    private static let alert: UInt64 = 0x8801
    private static let elsewhere: UInt64 = 0x8805

    private func plan(_ output: OutputPlan.Destination, _ error: OutputPlan.Destination, alert: UInt64? = alert)
        -> [Channel]
    {
        OutputPlan.make(standardOutput: output, standardError: error, alertTerminal: alert).channels
    }

    @Test func bothOnTheAlertsTerminalShareOnePseudoTerminalShownAsDisplayOutput() {
        #expect(
            plan(.terminal(device: Self.alert), .terminal(device: Self.alert)) == [
                Channel(descriptors: [1, 2], isTerminal: true, passesThroughTo: nil)
            ])
    }

    /// `> out.txt`, `| less`, `> /dev/null`: standard output passes through and is never display
    /// output, so it is neither shown nor kept.
    @Test func aRedirectedStandardOutputIsAPipePassedThrough() {
        #expect(
            plan(.other, .terminal(device: Self.alert)) == [
                Channel(descriptors: [1], isTerminal: false, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: true, passesThroughTo: nil),
            ])
    }

    /// `> /dev/pts/5`: another terminal keeps a pseudo-terminal (colours, line buffering, its own
    /// window size) but is passed through to it, not shown on the alert's terminal.
    @Test func anotherTerminalIsPassedThroughOnAPseudoTerminalOfItsOwn() {
        let channels = plan(.terminal(device: Self.elsewhere), .terminal(device: Self.alert))
        #expect(
            channels == [
                Channel(descriptors: [1], isTerminal: true, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: true, passesThroughTo: nil),
            ])
        #expect(channels.map(\.sizeSource) == [1, 2], "each follows the size of the terminal it stands for")
        #expect(
            plan(.terminal(device: Self.alert), .terminal(device: Self.elsewhere), alert: Self.elsewhere) == [
                Channel(descriptors: [1], isTerminal: true, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: true, passesThroughTo: nil),
            ])
    }

    /// `>&-`, `2>&-`: no channel, so the command gets the descriptor closed too.
    @Test func aClosedOutputGetsNoChannel() {
        #expect(plan(.closed, .terminal(device: Self.alert)) == [Channel(descriptors: [2], isTerminal: true)])
        #expect(
            plan(.terminal(device: Self.alert), .closed, alert: nil) == [
                Channel(descriptors: [1], isTerminal: true, passesThroughTo: 1)
            ])
        #expect(plan(.closed, .closed, alert: nil).isEmpty)
        #expect(plan(.other, .closed, alert: nil) == [Channel(descriptors: [1], isTerminal: false, passesThroughTo: 1)])
    }

    @Test func withoutAnAlertTerminalEverythingPassesThrough() {
        #expect(
            plan(.other, .other, alert: nil) == [
                Channel(descriptors: [1], isTerminal: false, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: false, passesThroughTo: 2),
            ])
        #expect(
            plan(.terminal(device: Self.alert), .other, alert: nil) == [
                Channel(descriptors: [1], isTerminal: true, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: false, passesThroughTo: 2),
            ])
        // TERM=dumb: plain lines on the terminal, and both outputs on it in their order.
        #expect(
            plan(.terminal(device: Self.alert), .terminal(device: Self.alert), alert: nil) == [
                Channel(descriptors: [1, 2], isTerminal: true, passesThroughTo: 1)
            ])
    }

    @Test func aPipeHasNoSizeToFollow() {
        #expect(Channel(descriptors: [1], isTerminal: false, passesThroughTo: 1).sizeSource == nil)
        #expect(Channel(descriptors: [1, 2], isTerminal: true).sizeSource == 1)
    }
}

/// In a CI service's folded log (`github`, `gitlab` modes) the command's standard error — and its
/// standard output when it is the same log — is streamed as the alert's lines; anything else
/// passes through as before.
struct FoldedOutputPlanTests {
    private typealias Channel = OutputPlan.Channel

    @Test func bothOnTheLogBecomeOneDisplayPipe() {
        let plan = OutputPlan.make(standardOutput: .other, standardError: .other, alertTerminal: nil)
        #expect(
            plan.foldedIntoTheLog(standardOutputIsTheLog: true).channels == [
                Channel(descriptors: [1, 2], isTerminal: false, passesThroughTo: nil)
            ])
    }

    @Test func standardOutputElsewhereStillPassesThrough() {
        let plan = OutputPlan.make(standardOutput: .other, standardError: .other, alertTerminal: nil)
        #expect(
            plan.foldedIntoTheLog(standardOutputIsTheLog: false).channels == [
                Channel(descriptors: [1], isTerminal: false, passesThroughTo: 1),
                Channel(descriptors: [2], isTerminal: false, passesThroughTo: nil),
            ])
        let closed = OutputPlan.make(standardOutput: .closed, standardError: .other, alertTerminal: nil)
        #expect(
            closed.foldedIntoTheLog(standardOutputIsTheLog: false).channels == [
                Channel(descriptors: [2], isTerminal: false, passesThroughTo: nil)
            ])
    }

    @Test func aTerminalIsLeftAsItIs() {
        let plan = OutputPlan.make(
            standardOutput: .terminal(device: 5), standardError: .terminal(device: 5), alertTerminal: nil)
        #expect(plan.foldedIntoTheLog(standardOutputIsTheLog: true) == plan)
    }
}

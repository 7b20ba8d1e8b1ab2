import Testing
import WaitAlert
import WaitAlertTesting

/// What reaches the screen, and when: endings made on the main actor are applied before the call
/// returns, and a flood of log lines is held to a bounded backlog without losing one.
@Suite("Report delivery")
@MainActor
struct ReportDeliveryTests {
    @Test func anEndingMadeOnTheMainActorIsOnScreenWhenTheCallReturns() async {
        let terminal = InMemoryTerminal(columns: 40, rows: 10)
        let plain = InMemoryTerminal(columns: 40, rows: 10, isInteractive: false)
        let bed = WaitAlertTestBed(renderers: [
            TerminalOverlay(terminal: terminal, colors: .never, integration: .none),
            TerminalOverlay(terminal: plain, colors: .never, integration: .none),
        ])
        let alert = showWaitAlert("Syncing…", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        alert.succeed("Synced")
        #expect(terminal.lines == ["✔ Synced (1.0s)"])
        #expect(plain.lines.last == "✔ Synced (1.0s)")
        let quick = showWaitAlert("Quick", presenter: bed.presenter)
        quick.fail("Refused")
        #expect(terminal.lines.last == "✖ Refused")
        await bed.run()
    }

    nonisolated private static let line = String(repeating: "x", count: 1_000)
    nonisolated private static let floodLines = 6_000  // about 6 MB, three times the backlog limit
    /// The longest line logged, its number included: the most one line can take the backlog past the limit.
    nonisolated private static let longestLine = "\(floodLines - 1) " + line

    /// From another thread, past the limit `log` waits for the main actor to take the backlog.
    @Test func aFloodFromAnotherThreadIsBoundedAndLosesNothing() async {
        let bed = WaitAlertTestBed(timing: .immediate)
        let alert = showWaitAlert("Flooding", presenter: bed.presenter)
        await Task.detached {
            for index in 0..<Self.floodLines { alert.log("\(index) " + Self.line) }
        }.value
        await bed.settle()
        expectDeliveredInOrder(bed.recorder.logs)
        #expect(alert.logBacklogHighWater <= WaitAlertReporter.logBacklogLimit + Self.longestLine.utf8.count + 64)
        alert.succeed()
        await bed.run()
    }

    /// On the main actor, which cannot wait for itself, `log` prints the backlog itself.
    @Test func aFloodFromTheMainActorIsBoundedAndLosesNothing() async {
        let bed = WaitAlertTestBed(timing: .immediate)
        let alert = showWaitAlert("Flooding", presenter: bed.presenter)
        for index in 0..<Self.floodLines { alert.log("\(index) " + Self.line) }
        await bed.settle()
        expectDeliveredInOrder(bed.recorder.logs)
        #expect(alert.logBacklogHighWater <= WaitAlertReporter.logBacklogLimit + Self.longestLine.utf8.count + 64)
        alert.succeed()
        await bed.run()
    }

    private func expectDeliveredInOrder(_ logs: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(logs.count == Self.floodLines, sourceLocation: sourceLocation)
        let inOrder = logs.enumerated().allSatisfy { $0.element.hasPrefix("\($0.offset) ") }
        #expect(inOrder, "every line, in order", sourceLocation: sourceLocation)
    }
}

import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Work whose cancelling was asked for and that goes on until it notices: every renderer says it
/// is cancelling as soon as the request comes — not when the work ends — and the alert then ends
/// as cancelled.
@Suite("Cancelling work")
@MainActor
struct CancellingWorkTests {
    /// Sleeps on the bed's clock whether the task is cancelled or not, as work that never checks
    /// does (a blocking call, a loop that never looks).
    private static func sleepIgnoringCancellation(_ bed: WaitAlertTestBed, for duration: Duration) async {
        await Task { try? await bed.clock.sleep(for: duration) }.value
    }

    @Test func everyRendererSaysSoAtOnce() async throws {
        let screen = InMemoryTerminal(columns: 70, rows: 8)
        let pipe = InMemoryTerminal(isInteractive: false)
        let json = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [
                TerminalOverlay(terminal: screen, colors: .never, integration: .none),
                TerminalOverlay(terminal: pipe, colors: .never, integration: .none),
                EventStreamRenderer(terminal: json),
            ])
        let work = bed.start {
            try await withWaitAlert("Building…") { alert in
                alert.update("Compiling")
                await Self.sleepIgnoringCancellation(bed, for: .seconds(3))
                try Task.checkCancellation()
            }
        }
        await bed.advance(to: .seconds(1))
        #expect(bed.recorder.latest?.isCancelling == false)
        #expect(bed.presenter.cancelAll())
        await bed.advance(by: .zero)
        #expect(bed.recorder.latest?.isCancelling == true, "at once, though the work goes on")
        #expect(bed.recorder.latest?.outcome == nil)
        #expect(screen.lines.first?.hasSuffix("Compiling · cancelling…") == true, "\(screen.lines)")
        await bed.advance(to: .seconds(2))
        #expect(screen.lines.first?.hasSuffix("Compiling · cancelling…") == true, "still so\n\(screen.lines)")
        await #expect(throws: CancellationError.self) { try await bed.run(until: work) }
        await bed.run()
        #expect(bed.recorder.latest?.isCancelling == false, "never with an outcome")
        #expect(screen.lines.last?.hasPrefix("⚠ Building: cancelled after 3.0s") == true, "\(screen.lines)")
        let lines = pipe.transcript.filter { !$0.isEmpty }
        #expect(lines.filter { $0.contains("cancelling") } == ["Building: cancelling…"], "once\n\(lines)")
        let events = try EventStreamTests.events(json).compactMap { $0["event"] as? String }
        #expect(events.filter { $0 == "cancelling" }.count == 1, "\(events)")
        #expect(events.firstIndex(of: "cancelling").map { $0 < events.firstIndex(of: "end")! } == true, "\(events)")
        #expect(WaitAlertEvent.received(#"{"v":1,"event":"cancelling","id":2,"time":1.0}"#)?.kind == .cancelling)
        #expect(
            WaitAlertEvent(.cancelling, alert: WaitAlertID(rawValue: 2), time: .seconds(1)).jsonLine
                == #"{"v":1,"event":"cancelling","id":2,"time":1.000}"#)
    }

    /// The caller's own cancellation and a failed sibling's ask for it too: each row says so
    /// while its work goes on.
    @Test func everyWayOfCancellingSaysSo() async throws {
        let screen = InMemoryTerminal(columns: 70, rows: 8)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: screen, colors: .never, integration: .none)])
        let work = bed.start {
            try await withWaitAlert("Building") { build in
                try await build.tasks(for: [1, 2], policy: .failFast) {
                    "Target \($0)"
                } operation: { target, _ in
                    if target == 1 {
                        try await bed.clock.sleep(for: .seconds(1))
                        throw CancellationError()
                    }
                    await Self.sleepIgnoringCancellation(bed, for: .seconds(3))
                }
            }
        }
        await bed.advance(to: .milliseconds(1500))
        #expect(screen.lines.contains { $0.contains("Target 2 · cancelling…") }, "\(screen.lines)")
        await #expect(throws: CancellationError.self) { try await bed.run(until: work) }
        await bed.run()
        #expect(!screen.lines.contains { $0.contains("cancelling") }, "\(screen.lines)")

        let caller = bed.start {
            try await withWaitAlert("Syncing") { _ in
                await Self.sleepIgnoringCancellation(bed, for: .seconds(2))
            }
        }
        await bed.advance(by: .seconds(1))
        caller.cancel()
        await bed.advance(by: .zero)
        #expect(screen.lines.last?.hasSuffix("Syncing · cancelling…") == true, "\(screen.lines)")
        _ = try? await bed.run(until: caller)
    }

    /// A timeout ends the alert at once: it never says it is cancelling.
    @Test func aTimeoutIsNoCancelling() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Fetching", timeout: .seconds(1)) { _ in
                await Self.sleepIgnoringCancellation(bed, for: .seconds(2))
            }
        }
        await #expect(throws: WaitAlertTimeoutError.self) { try await bed.run(until: work) }
        await bed.run()
        #expect(!bed.recorder.snapshots.contains { $0.isCancelling }, "\(bed.recorder.snapshots.map(\.text))")
    }
}

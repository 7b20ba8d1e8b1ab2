import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Work that says it is failing while it goes on (`markFailing`, a command's `OSC 9;4;2` under
/// `wait-alert`):
/// what each renderer makes of it, and that it ends with the alert.
@Suite("Failing work")
@MainActor
struct FailingWorkTests {
    @Test func everyRendererSaysSo() async throws {
        let screen = InMemoryTerminal(columns: 70, rows: 8)
        let pipe = InMemoryTerminal(isInteractive: false)
        let json = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [
                TerminalOverlay(terminal: screen, colors: .never, integration: .none, taskbar: .on),
                TerminalOverlay(terminal: pipe, colors: .never, integration: .none),
                EventStreamRenderer(terminal: json),
            ])
        let work = bed.start {
            try await withWaitAlert("Installing…") { alert in
                alert.progress(completed: 40, total: 100)
                try await bed.clock.sleep(for: .seconds(1))
                alert.markFailing()
                try await bed.clock.sleep(for: .seconds(1))
                alert.markFailing(false)
                try await bed.clock.sleep(for: .seconds(1))
                alert.markFailing()
            }
        }
        await bed.advance(to: .milliseconds(1500))
        #expect(bed.recorder.latest?.isFailing == true)
        #expect(screen.lines.first?.hasSuffix("40% · 40/100 · failing") == true, "\(screen.lines)")
        #expect(String(decoding: screen.output, as: UTF8.self).contains("\u{1B}]9;4;2;40"), "the taskbar's error")
        await bed.advance(to: .milliseconds(2500))
        #expect(bed.recorder.latest?.isFailing == false)
        #expect(screen.lines.first?.contains("failing") == false, "\(screen.lines)")
        try await bed.run(until: work)
        await bed.run()
        #expect(bed.recorder.latest?.isFailing == false, "never with an outcome")
        #expect(screen.lines.last?.hasPrefix("✔ Installing (") == true, "\(screen.lines)")
        let lines = pipe.transcript.filter { !$0.isEmpty }
        #expect(
            lines.filter { $0.contains("failing") }
                == ["Installing…: failing", "Installing…: no longer failing", "Installing…: failing"], "\(lines)")
        let failing = try EventStreamTests.events(json).filter { $0["event"] as? String == "failing" }
        #expect(failing.map { $0["failing"] as? Bool } == [true, false, true], "\(failing)")
        #expect(WaitAlertEvent.received(#"{"v":1,"event":"failing","id":2,"failing":true}"#)?.kind == .failing(true))
        #expect(WaitAlertEvent.received(#"{"v":1,"event":"failing","id":2,"failing":1}"#) == nil)
    }

    /// A fire-and-forget alert's handle marks its work failing too.
    @Test func aHandleMarksItsWorkFailing() async {
        let screen = InMemoryTerminal(columns: 70, rows: 8)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: screen, colors: .never, integration: .none)])
        let alert = showWaitAlert("Syncing…", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        alert.markFailing()
        await bed.advance(to: .seconds(2))
        #expect(bed.recorder.latest?.isFailing == true)
        #expect(screen.lines.first?.hasSuffix("· failing") == true, "\(screen.lines)")
        alert.markFailing(false)
        await bed.advance(to: .seconds(3))
        #expect(screen.lines.first?.contains("failing") == false, "\(screen.lines)")
        alert.fail("Sync failed")
        await bed.run()
        #expect(bed.recorder.latest?.isFailing == false)
        #expect(screen.lines.contains { $0.hasPrefix("✖ Sync failed") }, "\(screen.lines)")
    }
}

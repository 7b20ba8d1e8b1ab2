import Synchronization
import Testing
import WaitAlert
import WaitAlertTesting

@Suite("withWaitAlert")
@MainActor
struct WithWaitAlertTests {
    struct UploadError: Error, Equatable, CustomStringConvertible {
        var description: String { "The server said no" }
    }

    @Test func returnsTheValueWithoutWaitingForTheLinger() async throws {
        let bed = WaitAlertTestBed()
        let gate = TestGate()
        let task = Task {
            try await withWaitAlert("Uploading picture…", presenter: bed.presenter) { _ in
                try await gate.wait()
                return 42
            }
        }
        _ = await bed.recorder.snapshot()
        await bed.advance(by: .seconds(1))
        gate.open()
        // The clock is not advanced: the alert still lingers, yet the value is already here.
        #expect(try await task.value == 42)
        await bed.settle()
        #expect(bed.recorder.latest?.phase == .lingering)
        #expect(bed.recorder.latest?.text == "Uploading picture")
        #expect(bed.recorder.latest?.outcome == .success("Uploading picture"))
        await bed.run()
        #expect(bed.recorder.phases == [.pending, .appearing, .visible, .lingering, .fading, .gone])
        #expect(bed.presenter.alerts.isEmpty)
    }

    @Test func rethrowsTheErrorUnchangedAndShowsItsDescription() async throws {
        let bed = WaitAlertTestBed()
        let gate = TestGate()
        let task = Task {
            try await withWaitAlert("Uploading…", presenter: bed.presenter) { _ -> Int in
                try await gate.wait()
                throw UploadError()
            }
        }
        _ = await bed.recorder.snapshot()
        await bed.advance(by: .seconds(1))
        gate.open()
        await #expect(throws: UploadError()) { try await task.value }
        await bed.run()
        let completion = bed.recorder.snapshots.last
        #expect(completion?.outcome == .failure("Uploading: The server said no"))
        #expect(bed.recorder.texts.last == "Uploading: The server said no")
    }

    @Test func cancellingTheCallerCancelsTheWorkAndEndsAsCancelled() async throws {
        let bed = WaitAlertTestBed()
        let started = TestGate()
        let task = Task {
            try await withWaitAlert("Working…", presenter: bed.presenter) { _ -> Int in
                started.open()
                try await bed.clock.sleep(for: .seconds(3600))
                return 1
            }
        }
        await started.waitIgnoringCancellation()
        await bed.advance(by: .seconds(1))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        await bed.run()
        #expect(bed.recorder.latest?.phase == .gone)
        #expect(
            bed.recorder.snapshots.contains { $0.outcome == .cancelled && $0.text == "Working: cancelled after 1.0s" })
    }

    @Test func timeoutCancelsTheWorkAndThrows() async throws {
        let bed = WaitAlertTestBed(timing: try WaitAlertTiming.default.withTimeout(.seconds(2)))
        let observedCancellation = TestGate()
        let task = Task {
            try await withWaitAlert("Slow…", presenter: bed.presenter) { _ -> Int in
                await withTaskCancellationHandler {
                    try? await TestGate().wait()
                } onCancel: {
                    observedCancellation.open()
                }
                return 7
            }
        }
        _ = await bed.recorder.snapshot()
        await bed.advance(by: .seconds(2))
        await observedCancellation.waitIgnoringCancellation()
        await #expect(throws: WaitAlertTimeoutError.self) { try await task.value }
        await bed.run()
        #expect(
            bed.recorder.snapshots.contains { $0.outcome == .timedOut && $0.text == "Slow: timed out after 2.0s" })
    }

    @Test func workWithinGraceShowsNothing() async throws {
        let bed = WaitAlertTestBed()
        let value = try await withWaitAlert("Quick…", presenter: bed.presenter) { alert in
            alert.update("still quick")
            return "done"
        }
        #expect(value == "done")
        await bed.settle()
        #expect(bed.recorder.snapshots.allSatisfy { !$0.isOnScreen })
        #expect(bed.recorder.latest?.phase == .gone)
        #expect(bed.recorder.latest?.wasShown == false)
        #expect(bed.presenter.alerts.isEmpty)
    }

    @Test func reportsFromChildTasksKeepTheirOrder() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        try await withWaitAlert("Importing…", presenter: bed.presenter) { alert in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for line in 0..<100 { alert.log("worker \(worker) line \(line)") }
                    }
                }
                try await group.waitForAll()
            }
            for step in 0..<50 { alert.log("step \(step)") }
            alert.update("last words")
        }
        await bed.run()
        let logs = bed.recorder.logs
        #expect(logs.count == 450)
        for worker in 0..<4 {
            let lines = logs.filter { $0.hasPrefix("worker \(worker) ") }
            #expect(lines == (0..<100).map { "worker \(worker) line \($0)" })
        }
        #expect(Array(logs.suffix(50)) == (0..<50).map { "step \($0)" })
        #expect(bed.recorder.texts.contains("last words"))
        // Every log line printed before the alert's final snapshot.
        let lastLog = bed.recorder.events.lastIndex { if case .log = $0 { true } else { false } }!
        let gone = bed.recorder.events.firstIndex {
            if case .snapshot(let s, _) = $0 { s.phase == .gone } else { false }
        }!
        #expect(lastLog < gone)
    }

    @Test func aCallerCancelledBeforehandHandsTheCancellationToTheWork() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withWaitAlert("Working…", presenter: bed.presenter) { _ in Task.isCancelled }
        }
        #expect(try await task.value == true)
        await bed.run()
    }

    @Test func modelOnlyPresenterAnimates() async {
        let clock = ManualClock()
        let presenter = WaitAlertPresenter(clock: clock)
        let alert = showWaitAlert("Animated", presenter: presenter)
        await clock.sleepers(atLeast: 1)
        clock.advance(to: .init(offset: .milliseconds(500)))  // appears
        await clock.sleepers { $0.contains { $0 > .init(offset: .milliseconds(500)) } }
        // Frames turn on the presenter's 80 ms grid: the first after appearing is at 0.56 s.
        clock.advance(to: .init(offset: .milliseconds(560)))  // one frame in
        await clock.sleepers { $0.contains { $0 > .init(offset: .milliseconds(560)) } }
        #expect(alert.model.snapshot.phase == .appearing)
        #expect(alert.model.snapshot.spinnerFrame == 1)
        #expect(alert.model.snapshot.opacity > 0.23 && alert.model.snapshot.opacity < 0.25)
        alert.dismiss()
        // Plays the fade-out to its end. The last wake-up completes the model and sleeps no more,
        // and it reaches the main actor only after its timer task has run: so the loop must not
        // wait for a next sleeper, which never comes once the fade has ended.
        while alert.model.completion == nil {
            clock.run()
            await Task.yield()
        }
        #expect(alert.model.completion?.outcome == .dismissed)
    }

    @Test func callsAfterTheWorkEndedAreIgnored() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let escaped = try await withWaitAlert("Working…", presenter: bed.presenter) { alert in alert }
        escaped.update("too late")
        escaped.log("too late")
        await bed.run()
        #expect(!bed.recorder.texts.contains("too late"))
        #expect(bed.recorder.logs.isEmpty)
    }

    /// The caller computes the final text from the value or the error.
    @Test func finalTextsComputedFromTheResult() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let files = try await withWaitAlert(
            "Fetching files…", success: { (files: [String]) in "Fetched \(files.count) files" },
            presenter: bed.presenter, operation: { _ in ["a", "b"] })
        #expect(files == ["a", "b"])
        await #expect(throws: UploadError.self) {
            try await withWaitAlert(
                "Uploading…", failure: { error in "Upload refused: \(error)" }, presenter: bed.presenter,
                operation: { _ -> Int in throw UploadError() })
        }
        _ = try await withWaitAlert("Syncing…", success: "Synced", presenter: bed.presenter) { _ in 1 }
        await bed.run()
        #expect(
            bed.recorder.snapshots.compactMap(\.finalText).reduce(into: [String]()) {
                if $0.last != $1 { $0.append($1) }
            }
                == ["Fetched 2 files", "Upload refused: The server said no", "Synced"])
    }

    /// A text reported while the alert waits out its grace delay is the text it appears with,
    /// not the title held for the minimum per message.
    @Test func theAlertAppearsWithTheLatestTextReportedDuringTheGrace() async throws {
        let bed = WaitAlertTestBed()
        let started = TestGate()
        let task = Task {
            try await withWaitAlert("Building…", presenter: bed.presenter) { alert in
                alert.update("[1/5] Resolving…")
                alert.update("[2/5] Compiling…")
                started.open()
                try await bed.clock.sleep(for: .seconds(3))
            }
        }
        await started.waitIgnoringCancellation()
        await bed.advance(to: .milliseconds(500))
        #expect(bed.recorder.latest?.phase == .appearing)
        #expect(bed.recorder.latest?.text == "[2/5] Compiling…")
        #expect(!bed.recorder.texts.contains("Building…"))
        task.cancel()
        _ = try? await task.value
        await bed.run()
    }

    /// Work that ignores cancellation outlives its timed-out alert; its log lines still print,
    /// until it ends.
    @Test func logLinesAfterATimeoutArePrintedUntilTheWorkEnds() async throws {
        let bed = WaitAlertTestBed(timing: try WaitAlertTiming.default.withTimeout(.seconds(1)))
        let cancelled = TestGate()
        let finish = TestGate()
        let escaped = Mutex<WaitAlertReporter?>(nil)
        let task = Task {
            try await withWaitAlert("Stubborn…", presenter: bed.presenter) { alert in
                escaped.withLock { $0 = alert }
                await withTaskCancellationHandler {
                    await finish.waitIgnoringCancellation()
                } onCancel: {
                    cancelled.open()
                }
                alert.log("still cleaning up")
            }
        }
        _ = await bed.recorder.snapshot()  // the work has started
        await bed.advance(by: .seconds(1))
        await cancelled.waitIgnoringCancellation()  // the alert has ended; the work has not
        #expect(bed.recorder.snapshots.contains { $0.outcome == .timedOut })
        escaped.withLock { $0 }?.log("while winding down")
        await bed.run()  // the alert fades out and is removed; the work still runs
        #expect(bed.recorder.latest?.phase == .gone)
        finish.open()
        await #expect(throws: WaitAlertTimeoutError.self) { try await task.value }
        await bed.settle()
        #expect(bed.recorder.logs == ["while winding down", "still cleaning up"])
        escaped.withLock { $0 }?.log("after the work ended")
        await bed.settle()
        #expect(bed.recorder.logs.count == 2, "reports after the work ended are ignored")
    }

    /// `timeout:` where the work is wrapped; an invalid one is an error before the work starts.
    @Test func aTimeoutWhereTheWorkIsWrapped() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start {
            try await withWaitAlert("Slow…", timeout: .seconds(2), presenter: bed.presenter) { _ in
                try await bed.clock.sleep(for: .seconds(10))
            }
        }
        await #expect(throws: WaitAlertTimeoutError.self) { try await bed.run(until: work) }
        #expect(bed.recorder.latest?.finalText == "Slow: timed out after 2.0s")
        var started = false
        await #expect(throws: WaitAlertConfigurationError.nonPositiveDuration("timeout", .zero)) {
            try await withWaitAlert("Never", timeout: .zero, presenter: bed.presenter) { _ in started = true }
        }
        #expect(!started)
        await bed.run()
    }

    /// A snapshot made by hand, as a custom renderer's test or a SwiftUI preview does.
    @Test func aSnapshotCanBeMadeByHand() {
        let snapshot = WaitAlertSnapshot(text: "Uploading…", spinnerFrame: 3, spinnerGlyph: "⠸")
        #expect(snapshot.isOnScreen && snapshot.phase == .visible && snapshot.opacity == 1)
        let done = WaitAlertSnapshot(
            phase: .lingering, text: "Done", outcome: .success("Done"), finalText: "Done", workDuration: .seconds(2))
        let line = TerminalOverlayProbe.finalLine(of: done)
        #expect(line == "✔ Done (2.0s)")
    }
}

/// Draws `snapshot` with a plain `TerminalOverlay` and returns the line it leaves.
@MainActor
enum TerminalOverlayProbe {
    static func finalLine(of snapshot: WaitAlertSnapshot) -> String? {
        let terminal = InMemoryTerminal(columns: 40, rows: 4, isInteractive: false)
        let overlay = TerminalOverlay(terminal: terminal)
        overlay.render(snapshot, of: WaitAlertID(), at: .zero)
        return terminal.lines.last
    }
}

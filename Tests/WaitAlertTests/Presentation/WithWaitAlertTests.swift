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
        let gate = Gate()
        let task = Task {
            try await withWaitAlert("Uploading picture…", presenter: bed.presenter) { _ in
                await gate.wait()
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
        let gate = Gate()
        let task = Task {
            try await withWaitAlert("Uploading…", presenter: bed.presenter) { _ -> Int in
                await gate.wait()
                throw UploadError()
            }
        }
        _ = await bed.recorder.snapshot()
        await bed.advance(by: .seconds(1))
        gate.open()
        await #expect(throws: UploadError()) { try await task.value }
        await bed.run()
        let completion = bed.recorder.snapshots.last
        #expect(completion?.outcome == .failure("The server said no"))
        #expect(bed.recorder.texts.last == "The server said no")
    }

    @Test func cancellingTheCallerCancelsTheWorkAndEndsAsCancelled() async throws {
        let bed = WaitAlertTestBed()
        let started = Gate()
        let task = Task {
            try await withWaitAlert("Working…", presenter: bed.presenter) { _ -> Int in
                started.open()
                try await bed.clock.sleep(for: .seconds(3600))
                return 1
            }
        }
        await started.wait()
        await bed.advance(by: .seconds(1))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        await bed.run()
        #expect(bed.recorder.latest?.phase == .gone)
        #expect(bed.recorder.snapshots.contains { $0.outcome == .cancelled && $0.text == "Cancelled" })
    }

    @Test func timeoutCancelsTheWorkAndThrows() async throws {
        let bed = WaitAlertTestBed(timing: try WaitAlertTiming.default.with(timeout: .seconds(2)))
        let observedCancellation = Gate()
        let task = Task {
            try await withWaitAlert("Slow…", presenter: bed.presenter) { _ -> Int in
                await withTaskCancellationHandler {
                    await Gate().wait()
                } onCancel: {
                    observedCancellation.open()
                }
                return 7
            }
        }
        _ = await bed.recorder.snapshot()
        await bed.advance(by: .seconds(2))
        await observedCancellation.wait()
        await #expect(throws: WaitAlertTimeoutError.self) { try await task.value }
        await bed.run()
        #expect(bed.recorder.snapshots.contains { $0.outcome == .timedOut && $0.text == "Timed out" })
    }

    @Test func workWithinGraceShowsNothing() async throws {
        let bed = WaitAlertTestBed()
        let value = try await withWaitAlert("Quick…", presenter: bed.presenter) { alert in
            alert.update("still quick")
            return "done"
        }
        #expect(value == "done")
        await bed.settle()
        #expect(bed.recorder.snapshots.allSatisfy { !$0.isVisible })
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
        clock.advance(to: .init(offset: .milliseconds(580)))  // one frame in
        await clock.sleepers { $0.contains { $0 > .init(offset: .milliseconds(580)) } }
        #expect(alert.model.snapshot.phase == .appearing)
        #expect(alert.model.snapshot.spinnerFrame == 1)
        #expect(alert.model.snapshot.opacity > 0.3 && alert.model.snapshot.opacity < 0.33)
        alert.dismiss()
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
}

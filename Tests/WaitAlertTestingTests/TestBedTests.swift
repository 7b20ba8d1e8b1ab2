import Testing
import WaitAlert
import WaitAlertTesting

/// The tests a newcomer writes from the documentation alone: start work that shows an alert,
/// advance, assert — with no rendezvous to know about — and a test that cannot finish fails with
/// a message instead of hanging. (The documentation's own examples are tests too:
/// `TestingArticleExampleTests`.)
@Suite("Test bed")
@MainActor
struct TestBedTests {
    /// A plain `Task` started on the main actor has begun its alert when `advance` moves the clock.
    @Test func aTaskJustStartedHasBegunWhenTheClockMoves() async throws {
        let bed = WaitAlertTestBed()
        let work = Task {
            try await withWaitAlert("Loading…", presenter: bed.presenter) { _ in
                try await bed.clock.sleep(for: .seconds(5))
            }
        }
        await bed.advance(by: .seconds(1))
        #expect(bed.recorder.latest?.text == "Loading…")
        #expect(bed.recorder.latest?.phase == .visible)
        work.cancel()
        await bed.run()
    }

    /// Work that sleeps on the bed's clock in a loop: each advance lets it run until it sleeps
    /// again, so one `advance(by:)` walks through every step.
    @Test func workSleepingInALoopIsFollowedStepByStep() async throws {
        let bed = WaitAlertTestBed(timing: try .default.with(minimumPerMessage: .zero))
        let work = Task {
            try await withWaitAlert("Importing…", presenter: bed.presenter) { alert in
                for step in 1...5 {
                    try await bed.clock.sleep(for: .seconds(1))
                    alert.update("Imported \(step) of 5")
                    alert.log("step \(step)")
                }
            }
        }
        await bed.advance(by: .seconds(5))
        #expect(bed.recorder.logs == (1...5).map { "step \($0)" })
        #expect(Array(bed.recorder.texts.prefix(6)) == ["Importing…"] + (1...5).map { "Imported \($0) of 5" })
        try await work.value  // ended within the 5 s: awaiting it does not hang
        await bed.run()
    }

    /// Awaiting the work directly after advancing past its end works too.
    @Test func advancingPastTheEndLetsTheWorkReturn() async throws {
        let bed = WaitAlertTestBed()
        let work = Task {
            try await withWaitAlert("Saving…", presenter: bed.presenter) { _ in
                try await bed.clock.sleep(for: .seconds(2))
                return "saved"
            }
        }
        await bed.advance(by: .seconds(3))
        #expect(try await work.value == "saved")
        await bed.run()
        #expect(bed.recorder.latest?.phase == .gone)
    }

    /// Nonisolated work called from the alert's closure — a helper that is not on the main actor
    /// — is followed the same way.
    @Test func nonisolatedWorkIsFollowedToo() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start {
            try await withWaitAlert("Fetching…", presenter: bed.presenter) { alert in
                try await Self.fetch(clock: bed.clock, reporter: alert)
            }
        }
        await bed.advance(by: .milliseconds(1500))
        #expect(bed.recorder.logs == ["fetched 1", "fetched 2", "fetched 3"])
        #expect(try await bed.run(until: work) == 3)
    }

    nonisolated private static func fetch(clock: ManualClock, reporter: WaitAlertReporter) async throws -> Int {
        for item in 1...3 {
            try await clock.sleep(for: .milliseconds(500))
            reporter.log("fetched \(item)")
        }
        return 3
    }

    /// Work that waits for something the bed cannot move: `run(until:)` reports what it waits
    /// for, at the caller's line, instead of hanging.
    @Test func workThatCannotEndIsReportedNotHung() async throws {
        let bed = WaitAlertTestBed()
        bed.stallTimeout = .milliseconds(50)
        let gate = TestGate()
        let work = bed.start {
            try await withWaitAlert("Waiting…", presenter: bed.presenter) { _ in try await gate.wait() }
        }
        let capture = TestIssues.Capture()
        let line = #line + 2
        await TestIssues.$capture.withValue(capture) {
            await #expect(throws: WaitAlertTestBed.Stalled.self) { try await bed.run(until: work) }
        }
        #expect(capture.messages.count == 1)
        #expect(capture.messages.first?.contains("the work has not ended and nothing is asleep on bed.clock") == true)
        #expect(capture.messages.first?.contains("\"Waiting…\" (visible)") == true)
        #expect(capture.issues.first?.sourceLocation.line == line)
        gate.open()
        try await bed.run(until: work)
        await bed.run()
    }

    /// An alert that nothing will end: `run()` says so instead of passing silently.
    @Test func runReportsAnAlertThatNothingWillEnd() async {
        let bed = WaitAlertTestBed()
        bed.stallTimeout = .milliseconds(50)
        let alert = showWaitAlert("Forever…", presenter: bed.presenter)
        let capture = TestIssues.Capture()
        await TestIssues.$capture.withValue(capture) { await bed.run() }
        #expect(capture.messages.count == 1)
        #expect(capture.messages.first?.contains("1 alert: \"Forever…\" (visible) still alive") == true)
        alert.dismiss()
        await bed.run()
        #expect(bed.presenter.alerts.isEmpty)
    }

    /// Work that another thread ends: the bed waits for it (bounded), without a report.
    @Test func workEndedFromAnotherThreadIsWaitedFor() async throws {
        let bed = WaitAlertTestBed()
        let gate = TestGate()
        let work = bed.start {
            try await withWaitAlert("Waiting…", presenter: bed.presenter) { _ in try await gate.wait() }
        }
        await bed.advance(by: .seconds(1))
        Task.detached { gate.open() }
        try await bed.run(until: work)
        await bed.run()
        #expect(bed.recorder.latest?.phase == .gone)
    }

    /// Misuse is reported at the caller's line, with what to do.
    @Test func goingBackIsReportedAtTheCallersLine() async {
        let bed = WaitAlertTestBed()
        await bed.advance(to: .seconds(2))
        let capture = TestIssues.Capture()
        let line = #line + 2
        await TestIssues.$capture.withValue(capture) {
            await bed.advance(by: .seconds(-1))
            await bed.advance(to: .seconds(1))
        }
        #expect(capture.issues.map(\.sourceLocation.line) == [line, line + 1])
        #expect(capture.messages.allSatisfy { $0.contains("forward") || $0.contains("later instant") })
    }

    /// A failing expectation on a terminal shows its screen.
    @Test func aTerminalDescribesItsScreenInTestOutput() {
        let terminal = InMemoryTerminal(columns: 12, rows: 3)
        terminal.write(Array("⠋ Loading\r".utf8))
        #expect(terminal.testDescription.contains("|⠋ Loading"))
        #expect(terminal.testDescription.hasPrefix("InMemoryTerminal 12x3"))
    }

    /// The gate is cancellation-aware: a cancelled waiter throws, and `waitIgnoringCancellation`
    /// stands for work that does not react.
    @Test func theGateIsCancellationAware() async {
        let gate = TestGate()
        let waiter = Task { try await gate.wait() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        let stubborn = Task { await gate.waitIgnoringCancellation() }
        stubborn.cancel()
        gate.open()
        await stubborn.value
        #expect(gate.isOpen)
        let late = Task { try await gate.wait() }
        try? await late.value
        #expect(!late.isCancelled)
    }

    /// Code under test that shows alerts without naming a presenter shows them on the bed when
    /// started by it, or inside `withWaitAlertPresenter`.
    @Test func codeThatNamesNoPresenterShowsItsAlertsOnTheBed() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start { try await Self.synchronize(clock: bed.clock) }
        await bed.advance(by: .seconds(1))
        #expect(bed.recorder.latest?.text == "Syncing…")
        #expect(try await bed.run(until: work) == "synced")
        let other = WaitAlertTestBed(timing: .immediate)
        await withWaitAlertPresenter(other.presenter) {
            showToast("Saved")
            #expect(WaitAlertPresenter.current === other.presenter)
        }
        #expect(other.recorder.texts == ["Saved"])
    }

    /// Code that knows nothing of tests: it uses the current presenter.
    nonisolated private static func synchronize(clock: ManualClock) async throws -> String {
        try await withWaitAlert("Syncing…") { _ in
            try await clock.sleep(for: .seconds(2))
            return "synced"
        }
    }
}

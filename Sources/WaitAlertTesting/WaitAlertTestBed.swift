import Dispatch
public import Testing
public import WaitAlert

/// A presenter on a manual clock with a recording renderer: everything a test needs to drive wait
/// alerts deterministically, without sleeping.
///
/// Start the code under test, move the clock, and check what was shown:
///
/// ```swift
/// @Test @MainActor func showsProgress() async throws {
///     let bed = WaitAlertTestBed()
///     let work = bed.start {
///         try await withWaitAlert("Loading…", presenter: bed.presenter) { alert in
///             try await bed.clock.sleep(for: .seconds(2))
///             alert.update("Almost there…")
///             try await bed.clock.sleep(for: .seconds(1))
///             return 42
///         }
///     }
///     await bed.advance(by: .seconds(1))
///     #expect(bed.recorder.latest?.text == "Loading…")
///     await bed.advance(by: .seconds(1))
///     #expect(bed.recorder.texts == ["Loading…", "Almost there…"])
///     #expect(try await bed.run(until: work) == 42)
/// }
/// ```
///
/// **Every step settles.** Before ``advance(by:sourceLocation:)``, ``advance(to:sourceLocation:)``,
/// ``run(limit:sourceLocation:)`` and ``run(until:limit:sourceLocation:)`` move the clock, and after each deadline they pass, the bed lets everything that
/// can run do so: work just started (by ``start(sourceLocation:_:)``, or by a `Task` created on the main actor)
/// begins and shows its alert, work woken by the clock runs until it sleeps on ``clock`` again or
/// ends, and every alert reacts. The work of `withWaitAlert` on ``presenter`` runs on the main
/// queue, one job at a time with the main actor, so each step is the same in every run. (Work that
/// leaves it — `Task.detached`, or an unstructured `Task` created inside nonisolated work — runs
/// in parallel, and the bed cannot know when it will next sleep.)
///
/// **A test that cannot finish fails instead of hanging.** When the bed must wait for work that
/// is not asleep on ``clock`` (waiting for a gate, a continuation, another clock), it waits at
/// most ``stallTimeout`` of real time for it to make progress, then records an issue that says
/// what it was waiting for.
///
/// **A failing test keeps what the bed showed.** When the bed records an issue, and under
/// ``TestBedAttachmentsTrait`` when the test fails for any reason, it attaches the event stream
/// of its alerts, what ``recorder`` saw, and the screen of the ``InMemoryTerminal`` it draws on to
/// the test (`swift test --attachments-path`, Xcode's test report).
@MainActor
public final class WaitAlertTestBed {
    /// The clock every alert of ``presenter`` sleeps on; let the work sleep on it too.
    public nonisolated let clock: ManualClock
    /// Records every snapshot and log line.
    public nonisolated let recorder: RecordingRenderer
    /// Pass this to `withWaitAlert`, `showWaitAlert` or `showToast`.
    public nonisolated let presenter: WaitAlertPresenter
    /// How long, in real time, the bed waits for work that is not asleep on ``clock`` to make
    /// progress before reporting that it cannot finish. Two seconds by default.
    public var stallTimeout: Duration = .seconds(2)

    private let executor = MainQueueExecutor()
    /// The answers scripted for the prompts to come, in order, and the prompts asked so far.
    var scriptedAnswers: [ScriptedAnswer] = []
    /// The titles of the prompts asked so far, in order.
    public internal(set) var askedPrompts: [String] = []
    /// Work started or awaited through the bed that has ended, so its end counts as progress.
    private var endedWork = 0
    /// Where the test made the bed, where it last started work, and the call of the bed that is
    /// moving the work on now: where an issue about the work goes (a prompt it did not expect).
    let madeAt: SourceLocation
    private var startedAt: SourceLocation?
    private var drivingAt: SourceLocation?

    /// Where the test is, for an issue the work causes: the bed's call that runs it now, else
    /// the `start` that began it, else where the bed was made.
    var testLocation: SourceLocation { drivingAt ?? startedAt ?? madeAt }
    /// The in-memory terminals among its renderers, whose screens it attaches to a failing test.
    let terminals: [InMemoryTerminal]
    /// The test's beds, when it runs under ``TestBedAttachmentsTrait``: that trait attaches what
    /// this bed showed if the test fails.
    let attachmentsScope: TestBedAttachmentsTrait.Beds?
    /// Whether it attached what it showed to the test.
    var hasAttached = false

    /// Makes a test bed.
    ///
    /// - Parameters:
    ///   - timing: the default timing of its alerts.
    ///   - renderers: renderers to drive besides the recorder (an overlay on an in-memory terminal).
    ///   - wantsFrames: whether the recorder asks for every spinner frame.
    ///   - sourceLocation: where an issue about the work goes when no call of the bed runs it.
    public init(
        timing: WaitAlertTiming = .default, renderers: [any WaitAlertRenderer] = [], wantsFrames: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        madeAt = sourceLocation
        clock = ManualClock()
        recorder = RecordingRenderer(wantsFrames: wantsFrames)
        presenter = WaitAlertPresenter(renderers: [recorder] + renderers, timing: timing, clock: clock)
        terminals = Self.inMemoryTerminals(of: renderers)
        attachmentsScope = TestBedAttachmentsTrait.Beds.current
        presenter.workExecutor = executor
        presenter.promptAnswerer = { [weak self] prompt in self?.answerPrompt(prompt) }
        attachmentsScope?.add(self)
    }

    /// A test bed that goes away lets go of its alerts (one still lingering, work the test left
    /// waiting) and cancels whatever still sleeps on its clock, so nothing of the test outlives it.
    deinit {
        let presenter = presenter
        let clock = clock
        Task { @MainActor in
            presenter.shutDown()
            clock.cancelSleepers()
        }
    }

    /// The manual clock's time since its origin.
    public var now: Duration { clock.now.offset }

    /// Starts `operation` in a task the bed follows: it runs on the main queue, one job at a time
    /// with the main actor, also when the test itself is not on the main actor; and ``presenter``
    /// is its current presenter, so code under test that shows alerts without naming a presenter
    /// shows them here.
    ///
    /// - Parameters:
    ///   - sourceLocation: where an issue about the work goes (a prompt it did not expect) when no
    ///     call of the bed runs it.
    ///   - operation: the work.
    /// - Returns: the task; pass it to ``run(until:limit:sourceLocation:)`` to play it to its end.
    @discardableResult
    public func start<Value: Sendable>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: sending @escaping () async throws -> Value
    ) -> Task<Value, any Error> {
        startedAt = sourceLocation
        let presenter = presenter
        return Task(executorPreference: executor) {
            try await withWaitAlertPresenter(presenter) { try await operation() }
        }
    }

    // MARK: - Settling

    /// Lets everything that can run now do so, until nothing changes any more: alerts handle what
    /// is due, and work runs until it sleeps on ``clock``, waits for something else, or ends.
    public func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
        let outer = drivingAt
        drivingAt = sourceLocation
        defer { drivingAt = outer }
        var quietRounds = 0
        for _ in 0..<Self.settleRounds {
            let before = activity
            await presenter.settle()
            await timerAsleep()
            await behindQueuedJobs()
            quietRounds = activity == before ? quietRounds + 1 : 0
            if quietRounds == 2 { return }
        }
        recordIssue(
            """
            WaitAlertTestBed.settle() gave up after \(Self.settleRounds) rounds: something keeps running on \
            the main actor without ever waiting (a loop that yields?). Make the work wait on bed.clock \
            or on something the test controls.
            """,
            sourceLocation: sourceLocation)
    }

    private static let settleRounds = 10_000

    /// Returns once every job queued on the main queue before the call has run. The work's jobs
    /// are queued there by `DispatchQueue.main.async` (``MainQueueExecutor``), and a job queued
    /// the same way runs after them; the main actor's own queue is not ordered with them
    /// (`Task.yield()` may come back before the work's jobs run), which would let a step end
    /// while work just started has not run yet.
    private func behindQueuedJobs() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }

    /// What changes when anything happens: a job run, a sleep or wake-up on the clock, a snapshot
    /// or log line, work ended.
    private var activity: Int {
        executor.jobsRun + clock.events + recorder.events.count + endedWork
    }

    /// Waits until the presenter's timer, if it has one, is asleep on the clock.
    ///
    /// The timer may be replaced while this waits (work on the main actor asks for an earlier
    /// wake-up), so the deadline is read again each time the clock's sleepers change. It may also
    /// go away before it ever sleeps (the alerts that needed it ended, and the timer's task was
    /// cancelled on its way to the clock), which changes nothing on the clock: so the deadline is
    /// also read again after a few milliseconds of real time without a change.
    private func timerAsleep() async {
        while let deadline = presenter.timerDeadline.map({ ManualClock.Instant(offset: $0) }) {
            let sleepers = clock.sleeperDeadlines
            if sleepers.contains(deadline) { return }
            await clock.sleepers(within: .milliseconds(5)) { $0.contains(deadline) || $0 != sleepers }
        }
    }

    // MARK: - Moving time

    /// Moves time forward by `duration`, one deadline at a time, settling at each.
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard duration >= .zero else {
            recordIssue(
                "WaitAlertTestBed.advance(by: \(duration)): time only moves forward; advance by zero or more.",
                sourceLocation: sourceLocation)
            return
        }
        await advance(to: now + duration, sourceLocation: sourceLocation)
    }

    /// Moves time forward to `instant` (since the clock's origin), one deadline at a time,
    /// settling at each.
    public func advance(to instant: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard instant >= now else {
            recordIssue(
                "WaitAlertTestBed.advance(to: \(instant)) is before now (\(now)); advance to a later instant.",
                sourceLocation: sourceLocation)
            return
        }
        await settle(sourceLocation: sourceLocation)
        while let next = clock.nextDeadline, next.offset <= instant {
            clock.advance(to: next, sourceLocation: sourceLocation)
            await settle(sourceLocation: sourceLocation)
        }
        clock.advance(to: .init(offset: instant), sourceLocation: sourceLocation)
        await settle(sourceLocation: sourceLocation)
    }

    // MARK: - Running to the end

    /// Plays every alert to its end: advances from deadline to deadline until no alert is left.
    ///
    /// Records an issue when alerts are still alive and nothing that could end them is asleep on
    /// the clock (their work waits for something else, or a handle was never ended), or after
    /// `limit` deadlines.
    public func run(limit: Int = 10_000, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle(sourceLocation: sourceLocation)
        for _ in 0..<limit {
            if !presenter.hasAlerts { return }
            if let next = clock.nextDeadline {
                clock.advance(to: next, sourceLocation: sourceLocation)
            } else if await !progressed(watching: nil) {
                recordIssue(
                    """
                    WaitAlertTestBed.run() stopped at \(now): \(describeAlerts()) still alive, and nothing is \
                    asleep on bed.clock that could end \(presenter.liveModels.count == 1 ? "it" : "them"). \
                    End the work they wait for (or open what it waits on), end the handle, or use advance(by:).
                    """,
                    sourceLocation: sourceLocation)
                return
            }
            await settle(sourceLocation: sourceLocation)
        }
        recordIssue(
            "WaitAlertTestBed.run() gave up after \(limit) deadlines at \(now) with \(describeAlerts()) alive.",
            sourceLocation: sourceLocation)
    }

    /// Starts nothing, but plays `work` to its end: advances from deadline to deadline until it
    /// has returned or thrown, and returns its value.
    ///
    /// - Throws: what `work` threw, or ``Stalled`` (after recording an issue) when it cannot end:
    ///   nothing is asleep on the clock and it makes no progress within ``stallTimeout``, or it is
    ///   still running after `limit` deadlines.
    @discardableResult
    public func run<Value: Sendable>(
        until work: Task<Value, any Error>, limit: Int = 10_000, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Value {
        let watch = WorkWatch(work) { [weak self] in self?.endedWork += 1 }
        await settle(sourceLocation: sourceLocation)
        for _ in 0..<limit {
            if watch.hasEnded { return try await work.value }
            if let next = clock.nextDeadline {
                clock.advance(to: next, sourceLocation: sourceLocation)
            } else if await !progressed(watching: watch) {
                let message = """
                    WaitAlertTestBed.run(until:) stopped at \(now): the work has not ended and nothing is asleep \
                    on bed.clock (alerts: \(describeAlerts())). It waits for something else — a gate, a \
                    continuation, another clock, or work on another thread; open it, or make the work sleep on \
                    bed.clock.
                    """
                recordIssue(message, sourceLocation: sourceLocation)
                throw Stalled(description: message)
            }
            await settle(sourceLocation: sourceLocation)
        }
        let message = "WaitAlertTestBed.run(until:) gave up after \(limit) deadlines at \(now); the work still runs."
        recordIssue(message, sourceLocation: sourceLocation)
        throw Stalled(description: message)
    }

    /// Thrown by ``run(until:limit:sourceLocation:)`` when the work cannot end.
    public struct Stalled: Error, CustomStringConvertible {
        public var description: String
    }

    /// Waits, at most ``stallTimeout`` of real time, for something asleep on the clock, an alert
    /// to end, or `watch`'s work to end.
    private func progressed(watching watch: WorkWatch?) async -> Bool {
        let alerts = presenter.liveModels.count
        let progress = Progress()
        let clock = clock
        let sleeping = Task {
            await clock.sleepers { !$0.isEmpty }
            progress.signal()
        }
        watch?.onEnd { progress.signal() }
        let signalled = await progress.wait(timeout: stallTimeout)
        sleeping.cancel()
        await settle()
        return signalled || clock.nextDeadline != nil || presenter.liveModels.count != alerts
            || (watch?.hasEnded ?? false)
    }

    /// "1 alert ("Loading…", visible)", for messages.
    private func describeAlerts() -> String {
        let alerts = presenter.liveModels
        let list = alerts.map { "\"\($0.snapshot.text)\" (\($0.snapshot.phase))" }.joined(separator: ", ")
        return "\(alerts.count) alert\(alerts.count == 1 ? "" : "s")" + (alerts.isEmpty ? "" : ": \(list)")
    }
}

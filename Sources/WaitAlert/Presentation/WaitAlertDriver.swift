/// The imperative shell around one alert's timeline: drains reports, applies them at the clock's
/// current instant, publishes snapshots, and sleeps until the next deadline.
///
/// Its deadlines go to the presenter's ``AlertScheduler`` (one timer for all alerts), and a mailbox
/// that wakes the driver only when a text can be shown keeps update bursts from turning into
/// main-actor traffic.
@MainActor
final class WaitAlertDriver {
    let model: WaitAlertModel
    let mailbox: ReportMailbox
    private var timeline: WaitAlertTimeline
    nonisolated let clock: AlertClock
    /// Where the work of `withWaitAlert` runs when not isolated to an actor (the presenter's).
    nonisolated let workExecutor: (any TaskExecutor)?
    /// Strong on purpose: a presenter lives at least as long as its alerts, which it releases once gone.
    private let presenter: WaitAlertPresenter

    /// Cancels the work the alert is waiting for; called when the timeout elapses or on request.
    var cancelWork: (@Sendable () -> Void)?
    /// Whether the timing's timeout ended the alert.
    private(set) var didTimeOut = false
    /// How many times the driver ran: timer firings plus mailbox wake-ups.
    private(set) var wakeUps = 0
    /// Whether a step is running (reports made meanwhile wait for the next one).
    private var isStepping = false

    init(
        text: String, timing: WaitAlertTiming, kind: WaitAlertKind, presenter: WaitAlertPresenter,
        mailbox: ReportMailbox
    ) {
        self.mailbox = mailbox
        self.clock = presenter.clock
        self.workExecutor = presenter.workExecutor
        self.presenter = presenter
        self.timeline = WaitAlertTimeline(text: text, timing: timing, kind: kind, at: presenter.clock.now())
        self.model = WaitAlertModel(id: .next(), snapshot: timeline.snapshot(at: timeline.now))
        model.driver = self
        mailbox.connect(self)
    }

    /// Once no one holds the driver, nothing drains its mailbox: reports are ignored from then on,
    /// and threads waiting for the log backlog go on.
    deinit {
        mailbox.close()
    }

    var id: WaitAlertID { model.id }
    var isGone: Bool { timeline.phase == .gone }

    /// Publishes the first snapshot and arms the first deadline.
    func start() {
        presenter.renderers.forEach { $0.render(model.snapshot, of: id, at: timeline.now) }
        step()
    }

    /// Ends the alert with `outcome`, unless it already ended; applies it before returning.
    func finish(_ outcome: WaitAlertOutcome, at instant: Duration? = nil) {
        mailbox.finish(outcome, wakesDriver: false)
        step(reportsAt: instant)
    }

    /// The instant the timing's timeout ends the alert, if it has one.
    var timeoutDeadline: Duration? { timeline.timing.timeout.map { timeline.beganAt + $0 } }

    func wakeFromMailbox() {
        wakeUps += 1
        step(byWake: true)
    }

    /// Applies what was reported now, without waiting for a wake-up: an ending made on the main
    /// thread, a log backlog over its limit, the exit flush. Does nothing when called from within
    /// a step (a renderer reporting to the alert it draws).
    func applyReports() {
        guard !isStepping else { return }
        step()
    }

    /// Called by the presenter's scheduler when the deadline this driver asked for has come.
    func timerFired() {
        wakeUps += 1
        step()
    }

    /// Applies everything reported and everything due, then sleeps until the next deadline.
    ///
    /// Reports drained now were made since the last step, before this wake-up: they are placed
    /// just before the first deadline that passed meanwhile. So an alert that appears at this step
    /// shows the latest text reported before it appeared, and a newer text replaces one waiting
    /// for its slot instead of queueing behind it.
    ///
    /// - Parameters:
    ///   - byWake: whether a mailbox wake-up is running this step.
    ///   - reportsAt: when the work ended, measured where it happened, if known; its outcome is
    ///     placed there.
    private func step(byWake: Bool = false, reportsAt: Duration? = nil) {
        isStepping = true
        defer { isStepping = false }
        let batch = mailbox.drain(byWake: byWake)
        guard !isGone else {
            // Work that outlives its alert (after a timeout) still has its lines printed.
            for line in batch.logs { presenter.renderers.forEach { $0.log(line, from: id) } }
            return
        }
        let now = clock.now()
        let beforeFirstDue = timeline.nextDeadline.flatMap { $0 <= now ? $0 - .init(attoseconds: 1) : nil }
        let reported = min(beforeFirstDue ?? now, reportsAt ?? now, now)
        let ended = reportsAt.map { min($0, now) } ?? reported
        var actions: [WaitAlertTimeline.Action] = []
        // In call order: the log lines made before the latest text, the text, the rest, the end.
        let logsBeforeText = batch.text == nil ? batch.logs.count : batch.logsBeforeText
        for line in batch.logs[..<logsBeforeText] { actions += timeline.send(.log(line), at: reported) }
        if let text = batch.text { actions += timeline.send(.update(text), at: reported) }
        for line in batch.logs[logsBeforeText...] { actions += timeline.send(.log(line), at: reported) }
        if let outcome = batch.outcome { actions += timeline.send(.finish(outcome), at: ended) }
        actions += timeline.advance(to: now)
        perform(actions.filter { if case .completed = $0 { false } else { true } })
        publish(at: now)
        perform(actions.filter { if case .completed = $0 { true } else { false } })
        reschedule(after: now)
    }

    private func perform(_ actions: [WaitAlertTimeline.Action]) {
        for action in actions {
            switch action {
            case .log(let line):
                presenter.renderers.forEach { $0.log(line, from: id) }
            case .timedOut:
                didTimeOut = true
                mailbox.finish(.timedOut, closing: false, wakesDriver: false)  // log lines still print
                cancelWork?()
            case .completed(let completion):
                cancelWork = nil
                model.complete(completion)
                presenter.remove(self)
            }
        }
    }

    private func publish(at now: Duration) {
        let snapshot = timeline.snapshot(at: now)
        let changed =
            snapshot != model.snapshot
            && (presenter.wantsFrames || !snapshot.differsOnlyInSpinnerFrame(from: model.snapshot))
        if changed { model.snapshot = snapshot }
        for renderer in presenter.renderers {
            if changed || renderer.redrawDeadline(for: id).map({ $0 <= now }) == true {
                renderer.render(snapshot, of: id, at: now)
            }
        }
    }

    private func reschedule(after now: Duration) {
        let slot = timeline.nextTextSlot
        mailbox.arm(slot.map { $0 <= now } ?? false)
        var deadlines = [timeline.nextDeadline]
        if let slot, slot > now { deadlines.append(slot) }
        if presenter.wantsFrames { deadlines.append(timeline.nextFrame(after: now)) }
        deadlines += presenter.renderers.map { $0.redrawDeadline(for: id) }
        presenter.scheduler.schedule(id, at: deadlines.compactMap { $0 }.min())
    }

    /// Dismisses the alert at once: it fades out, skipping every minimum. Work still running keeps
    /// its log lines printed.
    func dismiss() {
        mailbox.finish(.dismissed, closing: false, wakesDriver: false)
        step()
    }

    /// Whether a wake-up from a report is pending.
    var hasWakePending: Bool { mailbox.pendingWake != nil }

    /// Waits for the pending wake-up from a report to run.
    func settle() async {
        await mailbox.pendingWake?.value
    }
}

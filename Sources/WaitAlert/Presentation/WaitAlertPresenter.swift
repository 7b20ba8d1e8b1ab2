public import Observation

/// Where wait alerts appear: a set of renderers, a default timing and a clock.
///
/// `withWaitAlert`, `showWaitAlert` and `showToast` use ``current`` unless told otherwise: the
/// presenter set for the current task with ``withWaitAlertPresenter(_:isolation:operation:)``, else
/// ``shared``. An app that draws alerts itself observes ``alerts``; a test injects a manual clock:
///
/// ```swift
/// let clock = ManualClock()
/// let presenter = WaitAlertPresenter(renderers: [recorder], clock: clock)
/// ```
///
/// A presenter keeps every alert alive until it has faded out, so an alert shown and forgotten
/// still finishes its animation and fires its completion. It owns every effect of its alerts:
/// each alert's session says what happened at a step, and the presenter updates the model, calls
/// the renderers, and schedules the one timer all its alerts share.
@MainActor
@Observable
public final class WaitAlertPresenter {
    /// The top-level alerts alive now, in the order they began; each model lists its child tasks
    /// in ``WaitAlertModel/children``.
    public private(set) var alerts: [WaitAlertModel] = []

    /// The question shown now (`askText`, `askChoice`, `confirm`), for a UI to bind to; `nil`
    /// when none is. Prompts show one at a time.
    public internal(set) var prompt: WaitAlertPrompt?
    /// Prompts waiting for the one shown to end.
    @ObservationIgnored var promptWaiters: [CheckedContinuation<Void, Never>] = []
    /// Answers prompts instead of the renderers (a test bed's scripted answers).
    @ObservationIgnored package var promptAnswerer: (@MainActor (WaitAlertPrompt) -> Void)?

    /// The timing used when a call does not pass one.
    public var timing: WaitAlertTiming { sharedTiming.timing }
    /// ``timing``, out of line: the alerts that follow it share it.
    @ObservationIgnored private let sharedTiming: SharedTiming
    @ObservationIgnored let renderers: [any WaitAlertRenderer]
    @ObservationIgnored let clock: AlertClock
    /// Whether some renderer draws spinner frames (a presenter with none is observed by a UI,
    /// which animates from its snapshots).
    @ObservationIgnored let wantsFrames: Bool
    // Unchecked exclusivity on the presenter's own state: see `InteractiveOverlay.region`.
    /// Whether some renderer that draws frames needs the main actor woken for each spinner frame
    /// (it does not turn them itself).
    @ObservationIgnored @exclusivity(unchecked) private var wakesForSpinner = true
    /// Where the work of `withWaitAlert` runs when it is not isolated to an actor; `nil` for the
    /// global concurrent executor. A test bed sets its own, which serves jobs on the main queue,
    /// so work and alerts advance one step at a time under a manual clock.
    /// The presenter's timer waits there too, so a deadline that wakes work and alerts together
    /// wakes them in the same order in every run.
    @ObservationIgnored package var workExecutor: (any TaskExecutor)? {
        didSet { scheduler.executor = workExecutor }
    }
    @ObservationIgnored @exclusivity(unchecked) private var sessions: [WaitAlertID: AlertSession] = [:]
    /// The sessions whose step is being carried out (a renderer reporting to the alert it draws
    /// waits for the next step).
    @ObservationIgnored @exclusivity(unchecked) private var advancing: Set<WaitAlertID> = []
    @ObservationIgnored private(set) lazy var scheduler = AlertScheduler(clock: clock) { [unowned self] due in
        batch {
            for id in due {
                guard let session = sessions[id] else { continue }
                session.wakeUps += 1
                advance(session)
            }
        }
    }
    /// The scheduler's key for the changes renderers held back: its wake-up is a batch that
    /// flushes them.
    @ObservationIgnored private let heldBack = WaitAlertID()
    /// How deep the presenter is in batches of renderer calls; renderers flush when it leaves the
    /// outermost.
    @ObservationIgnored @exclusivity(unchecked) private var batchDepth = 0
    /// The groups whose child tasks changed during the batch: each takes one step before the
    /// renderers flush, so its progress shows the batch's changes together.
    @ObservationIgnored @exclusivity(unchecked) private var changedGroups: Set<WaitAlertID> = []
    /// For each alert, the renderers (by index) that said they do not draw its frames.
    /// (One bit per renderer, by index: a set of its own per row would cost each of ten thousand
    /// rows an allocation. A renderer past the 64th never declines, so its rows go on waking for
    /// frames.)
    @ObservationIgnored @exclusivity(unchecked) private var framesDeclined: [WaitAlertID: UInt64] = [:]
    /// How many renderers draw frames.
    @ObservationIgnored private let frameRenderers: Int

    /// Makes a presenter.
    ///
    /// - Parameters:
    ///   - renderers: what draws the alerts; none for a model-only presenter observed by a UI.
    ///   - timing: the default timing of its alerts.
    ///   - clock: the clock alerts sleep on; a `ManualClock` in tests.
    public init(
        renderers: [any WaitAlertRenderer] = [],
        timing: WaitAlertTiming = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.renderers = renderers
        self.sharedTiming = SharedTiming(timing)
        self.clock = AlertClock(clock)
        self.wantsFrames = renderers.isEmpty || renderers.contains { $0.frames?.wantsFrames == true }
        self.frameRenderers = renderers.filter { $0.frames?.wantsFrames == true }.count
        for (index, renderer) in renderers.enumerated() {
            renderer.frames?.didAttach(
                to: WaitAlertRendererContext(
                    cancelAllWork: { [weak self] in self?.cancelAll() ?? false },
                    setDrawsFrames: { [weak self] alert, draws in
                        self?.setDrawsFrames(draws, of: alert, renderer: index)
                    },
                    systemClockNow: self.clock.isSystemClock ? self.clock.now : nil, now: self.clock.now,
                    deadlineChanged: { [weak self] in self?.scheduleHeldBack() }
                ))
        }
        self.wakesForSpinner =
            renderers.isEmpty
            || renderers.contains { $0.frames.map { $0.wantsFrames && !$0.drawsSpinnerFramesItself } ?? false }
        PendingWakes.installExitFlush()
    }

    // MARK: - Alerts

    /// Begins an alert showing `text`, whose reports arrive in `mailbox`; a child task of `parent`
    /// if given (with the parent's timing unless `timing` says otherwise). `beganAt` places its
    /// beginning at an instant already past (a recording played says when its alerts began).
    ///
    /// A child task takes the place of a step its parent planned under the same title, unless
    /// `claimsPlannedStep` says whether it does (a task of a group over a sequence claims none,
    /// whatever its title). One that `leavesWaiting` was counted among its parent's waiting
    /// tasks: it is counted as begun instead, in the same batch.
    func begin(
        _ text: String, timing: WaitAlertTiming? = nil, kind: WaitAlertKind = .waitAlert,
        mailbox: ReportMailbox = ReportMailbox(), parent: AlertSession? = nil,
        retention: WaitAlertRowRetention = .record, claimsPlannedStep: Bool? = nil, leavesWaiting: Bool = false,
        beganAt: Duration? = nil
    ) -> AlertSession {
        let claims = parent.map { (claimsPlannedStep ?? true) && $0.hasPlannedStep(text) } ?? false
        let session = AlertSession(
            text: text, timing: timing.map(SharedTiming.init) ?? parent?.timeline.sharedTiming ?? sharedTiming,
            kind: kind, clock: clock,
            wantsFrames: wantsFrames, wakesForSpinner: wakesForSpinner, workExecutor: workExecutor, mailbox: mailbox,
            owner: self, parent: parent,
            retention: retention, claimedStep: claims ? text : nil, beganAt: beganAt.map { min($0, clock.now()) })
        // One small object reaches the presenter and the session for every closure below (a
        // closure capturing one reference needs no context of its own): a row costs less.
        let waker = SessionWaker(presenter: self, session: session)
        mailbox.connect(
            ReportMailbox.Wake(scheduled: { waker.wake(byTimer: true) }, now: { waker.wake() }, clock: clock.now))
        session.model.onDismiss = { waker.dismiss() }
        sessions[session.id] = session
        if let parent { parent.model.children.append(session.model) } else { alerts.append(session.model) }
        batch {
            if leavesWaiting, let parent {
                parent.countWaiting(-1)
                changedGroups.insert(parent.id)
            }
            renderers.forEach { $0.render(session.model.snapshot, of: session.id, at: session.timeline.now) }
            advance(session)
        }
        return session
    }

    /// Runs `body`, a series of renderer calls; once the outermost batch ends, each renderer
    /// flushes (draws what the batch changed, in one write).
    private func batch(_ body: () -> Void) {
        batchDepth += 1
        body()
        if batchDepth == 1 { advanceChangedGroups() }
        batchDepth -= 1
        guard batchDepth == 0 else { return }
        let now = clock.now()
        batchDepth += 1  // a renderer that changes what it animates while flushing starts no batch
        renderers.forEach { $0.frames?.flush(at: now) }
        batchDepth -= 1
        scheduleHeldBack()
    }

    /// Schedules the flush of what renderers hold back, and of their own deadlines, for the
    /// earliest of them.
    private func scheduleHeldBack() {
        scheduler.schedule(heldBack, at: renderers.reduce(nil) { earliest($0, $1.frames?.heldBackUntil) })
    }

    /// Steps every group whose child tasks changed in the batch, the most recent first (a child
    /// task began after its group, so a group steps after the groups under it).
    private func advanceChangedGroups() {
        while let id = changedGroups.max() {
            changedGroups.remove(id)
            if let session = sessions[id] { advance(session) }
        }
    }

    /// A renderer says whether it draws the frames of `alert`; the alert wakes for frames while
    /// some renderer that draws frames still does.
    private func setDrawsFrames(_ draws: Bool, of alert: WaitAlertID, renderer: Int) {
        guard let session = sessions[alert] else { return }
        guard renderer < UInt64.bitWidth else { return }
        var declined = framesDeclined[alert] ?? 0
        if draws { declined &= ~(1 << renderer) } else { declined |= 1 << renderer }
        framesDeclined[alert] = declined == 0 ? nil : declined
        let wants = wantsFrames && (renderers.isEmpty || declined.nonzeroBitCount < frameRenderers)
        guard wants != session.wantsFrames else { return }
        session.wantsFrames = wants
        session.isHidden = wantsFrames && !wants
        guard !advancing.contains(alert), !session.isGone else { return }
        // Shown again: a step at once picks up the latest text and the frame.
        let now = clock.now()
        scheduler.schedule(alert, at: wants ? now : session.nextDeadline(after: now))
    }

    /// Ends the alert with `outcome`, placed at `instant` when the work ended there, unless it
    /// already ended; the work is over, so later reports are ignored. Applied before returning.
    ///
    /// - Returns: whether the timeout ended the alert before the work did.
    func end(_ session: AlertSession, with outcome: WaitAlertOutcome, at instant: Duration? = nil) -> Bool {
        session.cancelWork = nil
        guard !session.didTimeOut else {
            session.mailbox.close()
            return session.timedOut(workEndedAt: instant)
        }
        session.mailbox.finish(outcome, wakes: false)
        batch { advance(session, reportsAt: instant) }
        return false
    }

    /// Runs one step of `session` and carries it out: log lines and the snapshot to the renderers
    /// (and the model), the completion to the model, the next wake-up to the scheduler.
    fileprivate func advance(_ session: AlertSession, byWake: Bool = false, reportsAt: Duration? = nil) {
        guard batchDepth > 0 else { return batch { advance(session, byWake: byWake, reportsAt: reportsAt) } }
        let id = session.id
        guard advancing.insert(id).inserted else { return }
        defer { advancing.remove(id) }
        let now = clock.now()
        let step = session.step(at: now, byWake: byWake, reportsAt: reportsAt)
        for line in step.logs {
            renderers.forEach { $0.log(line, from: id) }
        }
        if let snapshot = step.snapshot { session.model.snapshot = snapshot }
        for renderer in renderers
        where step.snapshot != nil || renderer.redrawDeadline(for: id).map({ $0 <= now }) == true {
            renderer.render(step.current, of: id, at: now)
        }
        if let claim = session.claimedStep, step.current.phase > .pending || step.current.outcome != nil {
            // The planned step has shown (or ended): its pending row gives way to the task's.
            session.claimedStep = nil
            if let parent = session.parent, parent.removePlannedStep(claim) {
                changedGroups.insert(parent.id)
            }
        }
        if let parent = session.parent, sessions[id] != nil, sessions[parent.id] != nil,
            parent.childChanged(session, step.current)
        {
            changedGroups.insert(parent.id)
        }
        if let completion = step.completion {
            session.model.complete(completion)
            remove(session)
        } else if sessions[id] != nil {
            scheduler.schedule(id, at: renderers.reduce(step.nextDeadline) { earliest($0, $1.redrawDeadline(for: id)) })
        }
    }

    /// Adds `steps` to the steps planned under `session`, shown as pending until each runs.
    func plan(_ steps: [String], under session: AlertSession) {
        guard sessions[session.id] != nil, !session.isGone else { return }
        session.plan(steps)
        advance(session)
    }

    /// Counts `change` more child tasks of `session` waiting for a slot (fewer, when negative),
    /// and `uncounted` more groups under it that may have more tasks than they counted.
    func countWaiting(_ change: Int, uncounted: Int, under session: AlertSession) {
        guard sessions[session.id] != nil, !session.isGone else { return }
        session.countWaiting(change, uncounted: uncounted)
        advance(session)
    }

    /// Tasks waiting for a slot under `session` will never start: `titles` (the first of them)
    /// are planned steps from now on, to be listed as not run when the group ends, and the count
    /// of those waiting changes by `waitingChange` (`uncounted`: see ``countWaiting``).
    func leaveNotRun(_ titles: [String], waitingChange: Int, uncounted: Int, under session: AlertSession) {
        guard sessions[session.id] != nil, !session.isGone else { return }
        session.plan(titles)
        session.countWaiting(waitingChange, uncounted: uncounted)
        advance(session)
    }

    /// Ends the planned step `title` of `session` as skipped without running it (a step that was
    /// not planned is shown as skipped all the same).
    func skipStep(_ title: String, reason: String?, under session: AlertSession) {
        guard sessions[session.id] != nil, !session.isGone else { return }
        let child = begin(title, parent: session)
        _ = end(child, with: .skipped(reason))
    }

    private func remove(_ session: AlertSession) {
        sessions[session.id] = nil
        framesDeclined[session.id] = nil
        scheduler.schedule(session.id, at: nil)
        if let parent = session.parent {
            parent.childGone(session)
            Self.remove(session.id, from: &parent.model.children)
        } else {
            Self.remove(session.id, from: &alerts)
        }
    }

    /// Removes the model of `id` from `models`, which are in the order they began (so in the
    /// order of their ids): found by bisection, so ending many child tasks costs no scan of
    /// their siblings each.
    private static func remove(_ id: WaitAlertID, from models: inout [WaitAlertModel]) {
        var (low, high) = (0, models.count)
        while low < high {
            let middle = (low + high) / 2
            if models[middle].id < id { low = middle + 1 } else { high = middle }
        }
        if low < models.count, models[low].id == id {
            models.remove(at: low)
        } else if let index = models.firstIndex(where: { $0.id == id }) {
            models.remove(at: index)
        }
    }

    /// Whether any alert, top-level or child task, is alive.
    package var hasAlerts: Bool { !sessions.isEmpty }

    /// Whether a renderer of this presenter takes the reports of the processes the program starts
    /// (an overlay on standard error): the first alert makes the socket they report through.
    package var servesChildProcesses: Bool { renderers.contains { $0.frames?.servesChildProcesses == true } }

    /// The alert a child process's reports go under: the wait alert, top-level or child task,
    /// that began last and whose work still runs, leaving out `excluded` (the rows other
    /// processes report); `nil` when none does.
    func sessionForChildProcesses(excluding excluded: Set<WaitAlertID> = []) -> AlertSession? {
        sessions.values.filter {
            $0.timeline.outcome == nil && !$0.isGone && $0.timeline.kind == .waitAlert && !excluded.contains($0.id)
        }
        .max { $0.id < $1.id }
    }

    /// The alert, top-level or child task, numbered `id`, while it is alive.
    func session(_ id: WaitAlertID) -> AlertSession? { sessions[id] }

    // MARK: - Waiting and cancelling

    /// Waits until every alert alive now has faded out and been removed.
    ///
    /// A command-line program can await this before exiting so a transient alert finishes its
    /// fade; `withWaitAlert` itself never waits for it.
    public func idle() async {
        for alert in liveModels {
            _ = await alert.completed()
        }
    }

    /// Every alert alive now, top-level and child tasks, in the order they began.
    package var liveModels: [WaitAlertModel] { sessions.values.map(\.model).sorted { $0.id < $1.id } }

    /// Cancels the work of every alert that is waiting for work. Each says it is cancelling
    /// (``WaitAlertSnapshot/isCancelling``) from its next step until its work ends.
    ///
    /// - Returns: whether there was any work to cancel.
    @discardableResult
    public func cancelAll() -> Bool {
        let cancels = sessions.values.compactMap(\.cancelWork)
        cancels.forEach { $0() }
        return !cancels.isEmpty
    }

    /// Lets go of every alert at once: their work is cancelled, their timer stopped, and nothing
    /// is drawn any more. For an owner that goes away mid-flight (a test bed at the end of a test),
    /// so nothing of it outlives it.
    package func shutDown() {
        sessions.values.forEach { $0.cancelWork?() }
        sessions = [:]
        alerts = []
        scheduler.removeAll()
    }

    /// Waits until no alert has anything due at the clock's current time.
    package func settle() async {
        while true {
            if let session = sessions.values.first(where: \.hasWakePending) {
                await session.settle()
            } else if let timer = scheduler.dueTimer {
                await timer.value
            } else {
                return
            }
        }
    }

    /// The deadline the presenter's timer sleeps until, if any.
    package var timerDeadline: Duration? { scheduler.timerDeadline }

    /// Main-actor wake-ups of one live alert so far.
    package func wakeUps(of id: WaitAlertID) -> Int? { sessions[id]?.wakeUps }
}

/// What an alert's mailbox and model reach when they wake it: its presenter and its session,
/// held weakly (the session holds the mailbox and the model).
@MainActor
private final class SessionWaker {
    private weak var presenter: WaitAlertPresenter?
    private weak var session: AlertSession?

    init(presenter: WaitAlertPresenter, session: AlertSession) {
        self.presenter = presenter
        self.session = session
    }

    /// Drains the mailbox now; `byTimer` when the mailbox's scheduled wake-up runs it.
    func wake(byTimer: Bool = false) {
        guard let presenter, let session else { return }
        if byTimer { session.wakeUps += 1 }
        presenter.advance(session, byWake: byTimer)
    }

    /// The model's `dismiss()`: fades the alert out now.
    func dismiss() {
        guard let presenter, let session else { return }
        session.mailbox.finish(.dismissed, closing: false, wakes: false)  // the work may still log
        presenter.advance(session)
    }
}

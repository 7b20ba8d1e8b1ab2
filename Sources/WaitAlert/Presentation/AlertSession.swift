/// One alert's imperative shell: its timeline, the mailbox its work reports to, and the work's
/// cancellation.
///
/// A session never draws and never schedules. Each ``step(at:byWake:reportsAt:)`` drains the
/// mailbox, applies the reports and every deadline due, and returns what happened as an
/// ``AlertStep``; the presenter fans that out to the model and the renderers, removes the alert
/// once it is gone, and schedules the next wake-up.
@MainActor
final class AlertSession {
    let model: WaitAlertModel
    let mailbox: ReportMailbox
    // Unchecked exclusivity: see `InteractiveOverlay.region`.
    @exclusivity(unchecked) private(set) var timeline: WaitAlertTimeline
    /// Whether spinner frames and animation steps count as changes (some renderer draws them).
    @exclusivity(unchecked) var wantsFrames: Bool
    /// Whether every renderer that draws frames left the alert out (a row a terminal region has
    /// no line for): it then wakes only for changes of phase, and picks up its latest text then.
    @exclusivity(unchecked) var isHidden = false
    /// Whether a spinner frame alone is a change (some renderer that draws frames does not turn
    /// them itself): otherwise a visible alert wakes only for changes of text, phase and progress.
    let wakesForSpinner: Bool
    /// The presenter, held only so that it lives as long as its alerts (it releases them once gone).
    private let owner: AnyObject
    nonisolated let clock: AlertClock
    /// The session this one is a child task of.
    let parent: AlertSession?
    /// 0 for a top-level alert, 1 for its child tasks, and so on.
    let depth: Int
    /// Where the work of `withWaitAlert` runs when not isolated to an actor (the presenter's).
    nonisolated let workExecutor: (any TaskExecutor)?

    /// The planned step of its parent this alert runs, until the alert shows or ends.
    @exclusivity(unchecked) var claimedStep: String?
    /// What a terminal region does with the row once the task has ended.
    let retention: WaitAlertRowRetention
    /// What the alert has as a group — its progress together with its child tasks', the steps
    /// planned and the tasks waiting under it — made once it has a child task, a planned step or
    /// a waiting task, and kept out of line (most alerts have none).
    @exclusivity(unchecked) private var group: GroupStorage?

    private final class GroupStorage {
        var tally = GroupProgressTally()
        /// The steps planned under the alert that have not shown yet.
        var plannedSteps = PlannedSteps()
        /// The child tasks that wait for a slot under a concurrency limit, counted.
        var waitingTasks = 0
        /// How many groups of child tasks under the alert may have more tasks than they counted.
        var uncountedGroups = 0
        /// What waits under the alert as its snapshots carry it, made again only when it changed.
        var pendingWork: OutOfLine<PendingWork>?

        /// Makes ``pendingWork`` again: the first planned steps by title, and counts.
        func pendingWorkChanged() {
            let work = PendingWork(
                listedSteps: plannedSteps.prefix(WaitAlertSnapshot.listedPlannedSteps),
                plannedSteps: plannedSteps.count, waitingTasks: waitingTasks, hasUncountedTasks: uncountedGroups > 0)
            pendingWork = work.isEmpty ? nil : .value(work)
        }
    }

    /// The group's storage, made on first use.
    private var groupStorage: GroupStorage {
        if let group { return group }
        let made = GroupStorage()
        group = made
        return made
    }

    /// Cancels the work the alert is waiting for; called when the timeout elapses or on request.
    @exclusivity(unchecked) var cancelWork: (@Sendable () -> Void)?
    /// How many times a wake-up (timer or report) ran a step.
    @exclusivity(unchecked) var wakeUps = 0
    /// Until when progress just shown holds (the next frame), so a report wakes the alert at most
    /// once a frame.
    @exclusivity(unchecked) private var progressShownUntil: Duration?

    init(
        text: String, timing: SharedTiming, kind: WaitAlertKind, clock: AlertClock, wantsFrames: Bool,
        wakesForSpinner: Bool = true, workExecutor: (any TaskExecutor)?, mailbox: ReportMailbox, owner: AnyObject,
        parent: AlertSession? = nil,
        retention: WaitAlertRowRetention = .record, claimedStep: String? = nil, beganAt: Duration? = nil
    ) {
        self.mailbox = mailbox
        self.claimedStep = claimedStep
        self.retention = retention
        self.parent = parent
        self.depth = parent.map { $0.depth + 1 } ?? 0
        self.clock = clock
        self.wantsFrames = wantsFrames
        self.wakesForSpinner = wakesForSpinner
        self.workExecutor = workExecutor
        self.owner = owner
        self.timeline = WaitAlertTimeline(text: text, sharing: timing, kind: kind, at: beganAt ?? clock.now())
        self.model = WaitAlertModel(id: .next(), parentID: parent?.id, snapshot: timeline.snapshot(at: timeline.now))
        model.snapshot = placed(model.snapshot, at: timeline.now)
    }

    /// `snapshot` with the alert's place in its tree, and its group's progress at `now`.
    private func placed(_ snapshot: WaitAlertSnapshot, at now: Duration) -> WaitAlertSnapshot {
        var snapshot = snapshot
        snapshot.parent = parent?.id
        snapshot.depth = depth
        snapshot.storedPendingWork = group?.pendingWork
        snapshot.retention = retention
        snapshot.claimsPlannedStep = claimedStep != nil
        snapshot.groupProgress = group?.tally.progress(at: now, ended: timeline.outcome != nil)
        return snapshot
    }

    /// Whether a step titled `title` is planned under the alert and has not shown yet.
    func hasPlannedStep(_ title: String) -> Bool {
        group?.plannedSteps.contains(title) ?? false
    }

    /// Plans `steps` after those planned already.
    func plan(_ steps: [String]) {
        guard !steps.isEmpty else { return }
        let group = groupStorage
        group.plannedSteps.append(contentsOf: steps)
        group.pendingWorkChanged()
    }

    /// Takes the first planned step titled `title` out (its task has shown); returns whether
    /// there was one.
    func removePlannedStep(_ title: String) -> Bool {
        guard let group, group.plannedSteps.removeFirst(title) else { return false }
        group.pendingWorkChanged()
        return true
    }

    /// Counts `change` more child tasks waiting for a slot (fewer, when negative), and `uncounted`
    /// more groups that may have more tasks than they counted.
    func countWaiting(_ change: Int, uncounted: Int = 0) {
        guard change != 0 || uncounted != 0 else { return }
        let group = groupStorage
        group.waitingTasks = max(group.waitingTasks + change, 0)
        group.uncountedGroups = max(group.uncountedGroups + uncounted, 0)
        group.pendingWorkChanged()
    }

    /// Takes the look of its child task `child` into the group's progress; returns whether the
    /// group's progress may have changed (the alert's next step shows it).
    func childChanged(_ child: AlertSession, _ snapshot: WaitAlertSnapshot) -> Bool {
        groupStorage.tally.set(
            child.id, GroupProgressTally.Part(of: snapshot, claimsPlannedStep: child.claimedStep != nil))
    }

    /// Its child task `child` is gone: the group's progress keeps what it counted, not its part.
    func childGone(_ child: AlertSession) {
        group?.tally.retire(child.id)
    }

    /// Once no one holds the session, nothing drains its mailbox: reports are ignored from then on,
    /// and threads waiting for the log backlog go on.
    deinit {
        mailbox.close()
    }

    var id: WaitAlertID { model.id }
    var isGone: Bool { timeline.phase == .gone }
    /// Whether the timing's timeout ended the alert.
    var didTimeOut: Bool { timeline.outcome == .timedOut }

    /// Applies everything reported and everything due at `now`.
    ///
    /// Reports drained now were made since the last step, before this wake-up: they are placed
    /// just before the first deadline that passed meanwhile. So an alert that appears at this step
    /// shows the latest text reported before it appeared, and a newer text replaces one waiting
    /// for its slot instead of queueing behind it.
    ///
    /// - Parameters:
    ///   - byWake: whether the mailbox's wake-up runs this step.
    ///   - reportsAt: when the work ended, measured where it happened, if known; its outcome is
    ///     placed there.
    func step(at now: Duration, byWake: Bool = false, reportsAt: Duration? = nil) -> AlertStep {
        let batch = mailbox.drain(byWake: byWake)
        if batch.progressChanged {
            progressShownUntil = timeline.nextFrameOnGrid(after: now)
        } else if let until = progressShownUntil, until <= now {
            progressShownUntil = nil
        }
        // Work that outlives its alert (after a timeout) still has its lines printed.
        guard !isGone else { return AlertStep(logs: batch.logs, current: model.snapshot) }
        let beforeFirstDue = timeline.nextDeadline.flatMap { $0 <= now ? $0 - .init(attoseconds: 1) : nil }
        let reported = min(beforeFirstDue ?? now, reportsAt ?? now, now)
        let ended = reportsAt.map { min($0, now) } ?? reported
        var actions: [WaitAlertTimeline.Action] = []
        // In call order: the log lines made before the latest text, the text, the rest, the end.
        let logsBeforeText = batch.text == nil ? batch.logs.count : batch.logsBeforeText
        for line in batch.logs[..<logsBeforeText] { actions += timeline.send(.log(line), at: reported) }
        // Progress: the first report since the last step is placed where it was made (work that
        // reports now and then), the latest at this step.
        var latestProgressAt = reported
        if let first = batch.firstProgress, let latest = batch.progress {
            let firstAt = min(first.at, reported)
            if first.progress.completed == latest.completed, first.progress.total == latest.total {
                latestProgressAt = firstAt
            } else {
                actions += timeline.send(.progress(first.progress), at: firstAt)
            }
        }
        if batch.progressChanged {
            let event: WaitAlertTimeline.Event =
                batch.progress.map { .progress($0) }
                ?? .indeterminate
            actions += timeline.send(event, at: latestProgressAt)
        }
        if let failing = batch.failing { actions += timeline.send(.failing(failing), at: latestProgressAt) }
        if batch.cancelling { actions += timeline.send(.cancelling, at: reported) }
        if let text = batch.text { actions += timeline.send(.update(text), at: reported) }
        for line in batch.logs[logsBeforeText...] { actions += timeline.send(.log(line), at: reported) }
        if let outcome = batch.outcome { actions += timeline.send(.finish(outcome), at: ended) }
        actions += timeline.advance(to: now)
        if !isGone, let group {
            group.tally.own = timeline.progress
            group.tally.planned = group.plannedSteps.count
            group.tally.waiting = group.waitingTasks
            group.tally.hasUncountedTasks = group.uncountedGroups > 0
            group.tally.update(at: now, ownWork: .init(timeline.outcome))
        }

        var step = AlertStep(current: placed(timeline.snapshot(at: now), at: now))
        for action in actions {
            switch action {
            case .log(let line): step.logs.append(line)
            case .timedOut: timeOut()
            case .completed(let completion): step.completion = completion
            }
        }
        let previous = model.snapshot
        if step.current != previous, wantsSpinnerFrames || !step.current.differsOnlyInSpinnerFrame(from: previous) {
            step.snapshot = step.current
        }
        if step.completion != nil {
            cancelWork = nil
        } else {
            step.nextDeadline = nextDeadline(after: now)
        }
        return step
    }

    /// The timeout elapsed: texts are ignored from now on (log lines still print while the work
    /// winds down), and the work is cancelled.
    private func timeOut() {
        mailbox.finish(.timedOut, closing: false, wakes: false)
        cancelWork?()
    }

    /// Whether each spinner frame wakes the alert.
    private var wantsSpinnerFrames: Bool { wantsFrames && wakesForSpinner }

    /// When the session next needs to run: its timeline's deadline, the instant a text waiting in
    /// the mailbox may show, the next animation frame.
    func nextDeadline(after now: Duration) -> Duration? {
        let slot = isHidden ? nil : timeline.nextTextSlot
        mailbox.arm(slot.map { $0 <= now } ?? false)
        var deadline = timeline.nextDeadline
        if let slot, slot > now { deadline = earliest(deadline, slot) }
        // Progress shows on the frame grid: a report wakes the alert at once when a frame has
        // passed since progress last showed; otherwise the alert wakes at the next frame, once,
        // for what came meanwhile.
        if !isHidden, timeline.phase.isOnScreen, timeline.outcome == nil {
            if let until = progressShownUntil, until > now {
                mailbox.armProgress(false)
                deadline = earliest(deadline, until)
            } else {
                mailbox.armProgress(true)
            }
        } else {
            mailbox.armProgress(false)
        }
        if wantsFrames, wakesForSpinner || timeline.phase != .visible {
            deadline = earliest(deadline, timeline.nextFrame(after: now))  // with spinners turned elsewhere, fades only
        }
        if !wantsSpinnerFrames, !isHidden, timeline.progress != nil || group?.tally.isDeterminate == true,
            timeline.phase.isOnScreen,
            timeline.outcome == nil
        {
            // Nothing animates this alert: its progress is taken on each whole second of the clock
            // (every such alert at once), and when it stalls.
            let second = Duration.seconds(1).attoseconds
            deadline = earliest(deadline, Duration(attoseconds: (now.attoseconds / second + 1) * second))
            if let stall = timeline.progressStallsAt, stall > now { deadline = earliest(deadline, stall) }
            if let stall = group?.tally.stallsAt, stall > now { deadline = earliest(deadline, stall) }
        }
        return deadline
    }
}

/// What one step of a session did, for the presenter to carry out.
struct AlertStep {
    /// Lines to print above the alerts, in order.
    var logs: [String] = []
    /// The new snapshot, when the alert looks different (for the model and every renderer).
    var snapshot: WaitAlertSnapshot?
    /// How the alert looks now, changed or not (for a renderer that wants to draw it again).
    var current: WaitAlertSnapshot
    /// Set once the alert is gone: its completion fires and the presenter lets it go.
    var completion: WaitAlertCompletion?
    /// When the session must run again, if anything is due.
    var nextDeadline: Duration?
}

extension AlertSession {
    /// Lets the session cancel the work on timeout or on request.
    func attach(cancel: @escaping @Sendable () -> Void) {
        if didTimeOut { cancel() } else if mailbox.isOpen { cancelWork = cancel }
    }

    /// The instant the timing's timeout ends the alert, if it has one.
    var timeoutDeadline: Duration? { timeline.timing.timeout.map { timeline.beganAt + $0 } }

    /// Whether the timeout ended the alert before the work did, the work having ended at
    /// `instant` (if known): work that ended before the deadline was not timed out, even when its
    /// result reaches the main actor after it.
    func timedOut(workEndedAt instant: Duration?) -> Bool {
        didTimeOut && !(instant.map { $0 < timeoutDeadline ?? .zero } ?? false)
    }

    /// Whether a wake-up from a report is pending.
    var hasWakePending: Bool { mailbox.pendingWake != nil }

    /// Waits for the pending wake-up from a report to run.
    func settle() async {
        await mailbox.pendingWake?.value
    }
}

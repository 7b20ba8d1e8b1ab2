/// The pure state machine behind every wait alert: events with explicit instants in, a snapshot and
/// the next deadline out.
///
/// A timeline does no IO, owns no task, lock or clock. Instants are `Duration`s since an origin the
/// caller chooses (a driver uses the moment it started). Every deadline is computed once from the
/// instant of the event that caused it, so replaying the same events gives the same trace whatever
/// clock produced them.
///
/// ```swift
/// var timeline = WaitAlertTimeline(text: "Doing Something", timing: .default, at: .zero)
/// _ = timeline.send(.update("Getting there…"), at: .seconds(1))
/// _ = timeline.advance(to: .seconds(2))
/// timeline.snapshot(at: .seconds(2)).text   // "Getting there…"
/// ```
///
/// Instants earlier than one already seen are treated as that instant: time never goes back.
public struct WaitAlertTimeline: Sendable {
    /// Something that happened to the alert.
    public enum Event: Sendable, Hashable {
        /// A new progress text. Latest wins; each shown text stays at least `minimumPerMessage`.
        case update(String)
        /// A line to print above the alert. Never coalesced, dropped or reordered, and printed
        /// whatever the phase: work that outlives its alert (after a timeout) still has its lines
        /// printed.
        case log(String)
        /// The work ended; the alert shows the outcome's final text, lingers, then fades.
        /// `.finish(.dismissed)` removes the alert now: it fades out at once, skipping every minimum.
        case finish(WaitAlertOutcome)
        /// How far the work has gone: `completed` of `total` (if known) units. Feeds the rate and
        /// time-left estimate; a count that goes back starts the estimate over. A count below zero
        /// counts as zero, a total of zero or less as unknown, and a total below the count grows
        /// to it.
        case progress(completed: Int, total: Int?, unit: WaitAlertProgressUnit)
        /// The work no longer knows how far it has gone: the alert spins without a bar.
        case indeterminate
        /// The work says it is failing while it goes on, or no longer (a command's `OSC 9;4;2`).
        case failing(Bool)
        /// Cancelling the work was asked for (Ctrl-C, ``WaitAlertPresenter/cancelAll()``, the
        /// caller's task cancelled, a failed sibling): the alert says it is cancelling until the
        /// work ends, however long the work takes to notice.
        case cancelling
    }

    /// Something the owner of the timeline must carry out.
    public enum Action: Sendable, Hashable {
        /// Print this line above the alert.
        case log(String)
        /// The timeout elapsed: cancel the work.
        case timedOut
        /// The alert has been removed; fire the completion. Happens exactly once.
        case completed(WaitAlertCompletion)
    }

    /// The knobs this timeline follows.
    public var timing: WaitAlertTiming { sharedTiming.timing }
    /// ``timing``, out of line: the rows of a group share their alert's.
    let sharedTiming: SharedTiming
    /// The text the alert began with.
    public let title: String
    /// A wait alert or a toast.
    public let kind: WaitAlertKind
    /// The current phase.
    public private(set) var phase: WaitAlertPhase = .pending
    /// The text on display (or to be displayed when the alert appears).
    public private(set) var text: String
    /// How the alert ended, once it has.
    public private(set) var outcome: WaitAlertOutcome? {
        get { ending?.value.outcome }
        set { changeEnding { $0.outcome = newValue } }
    }
    /// The final message, from the moment the work ended; `nil` before, and for a dismissal.
    public private(set) var finalText: String? {
        get { ending?.value.finalText }
        set { changeEnding { $0.finalText = newValue } }
    }

    let beganAt: Duration
    private(set) var now: Duration
    private(set) var appearedAt: Duration?
    private(set) var textSince: Duration
    private var pendingText: String?
    /// The latest progress reported, if the work says how far it has gone. (Kept out of line: most
    /// rows of a large group report none.)
    @OutOfLineOptional private(set) var progress: ReportedProgress?
    /// Whether the work says it is failing while it goes on.
    private(set) var isFailing = false
    /// Whether cancelling the work was asked for, before it ended.
    private(set) var isCancelling = false
    /// The rate and time left of ``progress``, out of line and made with the first progress
    /// report: most rows never report any.
    private var estimatorStorage: CopyOnWrite<WaitAlertRateEstimator>?
    /// The rate and time left of ``progress``.
    var estimator: WaitAlertRateEstimator { estimatorStorage?.value ?? WaitAlertRateEstimator() }

    private(set) var finishedAt: Duration? {
        get { ending?.value.finishedAt }
        set { changeEnding { $0.finishedAt = newValue } }
    }
    private var fadeAt: Duration? {
        get { ending?.value.fadeAt }
        set { changeEnding { $0.fadeAt = newValue } }
    }
    private(set) var fadeStartedAt: Duration? {
        get { ending?.value.fadeStartedAt }
        set { changeEnding { $0.fadeStartedAt = newValue } }
    }
    private(set) var fadeFromOpacity: Double {
        get { ending?.value.fadeFromOpacity ?? 1 }
        set { changeEnding { $0.fadeFromOpacity = newValue } }
    }

    /// How the alert ends: made when the work finishes or the alert is dismissed, kept out of line
    /// until then, so ten thousand running rows stay small.
    private var ending: CopyOnWrite<Ending>?

    private struct Ending: Sendable {
        var outcome: WaitAlertOutcome?
        var finalText: String?
        var finishedAt: Duration?
        var fadeAt: Duration?
        var fadeStartedAt: Duration?
        var fadeFromOpacity = 1.0
    }

    private mutating func changeEnding(_ change: (inout Ending) -> Void) {
        if ending == nil { ending = CopyOnWrite(Ending()) }
        change(&ending!.value)
    }

    /// Begins an alert showing `text` at instant `start`.
    public init(text: String, timing: WaitAlertTiming, kind: WaitAlertKind = .waitAlert, at start: Duration = .zero) {
        self.init(text: text, sharing: SharedTiming(timing), kind: kind, at: start)
    }

    /// Begins an alert showing `text` at instant `start`, following `sharedTiming`.
    init(text: String, sharing sharedTiming: SharedTiming, kind: WaitAlertKind = .waitAlert, at start: Duration) {
        self.sharedTiming = sharedTiming
        self.kind = kind
        self.title = text
        self.text = text
        self.beganAt = start
        self.now = start
        self.textSince = start
        _ = advance(to: start)
    }
}

// MARK: - Events

extension WaitAlertTimeline {
    /// Applies `event` at instant `now`, after every deadline up to `now` has passed.
    ///
    /// - Returns: what the owner must carry out, in order.
    public mutating func send(_ event: Event, at now: Duration) -> [Action] {
        var actions = advance(to: now)
        apply(event, actions: &actions)
        actions += advance(to: now)
        return actions
    }

    /// Applies `event` at the current instant, without letting any deadline pass.
    mutating func apply(_ event: Event, actions: inout [Action]) {
        switch event {
        case .update(let newText): update(newText, at: now)
        case .log(let line): actions.append(.log(line))
        case .finish(.dismissed): dismiss(at: now, actions: &actions)
        case .finish(let outcome): finish(outcome, at: now, actions: &actions)
        case .progress(let completed, let total, let unit):
            guard finishedAt == nil else { return }
            let progress = ReportedProgress(completed: completed, total: total, unit: unit).normalized
            self.progress = progress
            if estimatorStorage == nil { estimatorStorage = CopyOnWrite(WaitAlertRateEstimator()) }
            estimatorStorage?.value.record(completed: Double(progress.completed), at: now)
        case .indeterminate:
            guard finishedAt == nil else { return }
            progress = nil
            estimatorStorage = nil
        case .failing(let failing):
            guard finishedAt == nil else { return }
            isFailing = failing
        case .cancelling:
            guard finishedAt == nil else { return }
            isCancelling = true
        }
    }

    /// Lets every deadline up to `now` pass, in order, each at its own instant.
    ///
    /// - Returns: what the owner must carry out, in order.
    public mutating func advance(to now: Duration) -> [Action] {
        var actions: [Action] = []
        while fireNextDeadline(notAfter: now, actions: &actions) {}
        self.now = max(self.now, now)
        return actions
    }

    /// Lets the next deadline pass if it is not after `limit`; one step of ``advance(to:)``.
    ///
    /// - Returns: whether a deadline passed.
    mutating func fireNextDeadline(notAfter limit: Duration, actions: inout [Action]) -> Bool {
        guard let deadline = nextDeadline, deadline <= limit else { return false }
        now = max(now, deadline)
        fire(at: now, actions: &actions)
        return true
    }

    private mutating func update(_ newText: String, at now: Duration) {
        guard finishedAt == nil else { return }
        switch phase {
        case .pending:
            text = newText
        case .appearing, .visible:
            if newText == text {
                pendingText = nil
            } else if pendingText == nil, now >= textSince + timing.minimumPerMessage {
                show(newText, at: now)
            } else {
                pendingText = newText
            }
        case .lingering, .fading, .gone:
            break
        }
    }

    private mutating func finish(_ result: WaitAlertOutcome, at now: Duration, actions: inout [Action]) {
        guard finishedAt == nil, phase < .lingering else { return }
        finishedAt = now
        let outcome = result.resolved(title: title)
        self.outcome = outcome
        finalText = outcome.finalText(title: title, workDuration: now - beganAt)
        if phase == .pending { remove(at: now, actions: &actions) }
    }

    private mutating func dismiss(at now: Duration, actions: inout [Action]) {
        if finishedAt == nil { finishedAt = now }
        if outcome == nil { outcome = .dismissed }
        pendingText = nil
        switch phase {
        case .pending: remove(at: now, actions: &actions)
        case .appearing, .visible, .lingering: startFading(at: now)
        case .fading, .gone: break
        }
    }
}

// MARK: - Deadlines

extension WaitAlertTimeline {
    /// The next instant at which the phase or text changes by itself, or `nil` when nothing is due.
    public var nextDeadline: Duration? {
        switch phase {
        case .pending:
            return earliest(appearDeadline, timeoutDeadline)
        case .appearing, .visible:
            let deadline = earliest(holdDeadline, timeoutDeadline)
            return phase == .appearing ? earliest(deadline, visibleAt) : deadline
        case .lingering:
            return fadeAt
        case .fading:
            return fadeStartedAt.map { $0 + timing.fadeOut }
        case .gone:
            return nil
        }
    }

    /// When a newly reported text would be shown at once, if texts still matter and none is queued.
    ///
    /// A driver uses this to decide whether a report should wake it (the instant has passed) or can
    /// wait for a later wake-up (it has not): that is what makes coalescing real.
    var nextTextSlot: Duration? {
        guard phase == .appearing || phase == .visible, finishedAt == nil, pendingText == nil else { return nil }
        return textSince + timing.minimumPerMessage
    }

    private var appearDeadline: Duration { beganAt + timing.grace }
    private var visibleAt: Duration { (appearedAt ?? appearDeadline) + timing.appear }

    private var timeoutDeadline: Duration? {
        guard finishedAt == nil, let timeout = timing.timeout else { return nil }
        return beganAt + timeout
    }

    private var holdDeadline: Duration? {
        let holdEnd = textSince + timing.minimumPerMessage
        if pendingText != nil { return holdEnd }
        if finishedAt != nil { return max(holdEnd, visibleAt) }
        return nil
    }

    private mutating func fire(at now: Duration, actions: inout [Action]) {
        if let timeout = timeoutDeadline, timeout <= now {
            actions.append(.timedOut)
            finish(.timedOut, at: timeout, actions: &actions)
            return
        }
        switch phase {
        case .pending:
            phase = .appearing
            appearedAt = now
            textSince = now
        case .appearing where visibleAt <= now:
            phase = .visible
        case .appearing, .visible:
            if let next = pendingText {
                pendingText = nil
                show(next, at: now)
            } else if let outcome {
                showFinal(outcome, at: now)
            }
        case .lingering:
            startFading(at: now)
        case .fading:
            remove(at: now, actions: &actions)
        case .gone:
            break
        }
    }

    private mutating func show(_ newText: String, at now: Duration) {
        text = newText
        textSince = now
    }

    private mutating func showFinal(_ outcome: WaitAlertOutcome, at now: Duration) {
        phase = .lingering
        let finalText = self.finalText ?? text
        show(finalText, at: now)
        let reading = timing.finalMessage.duration(for: finalText)
        fadeAt = max(now + reading, visibleAt + timing.minimumDisplay)
    }

    private mutating func startFading(at now: Duration) {
        fadeFromOpacity = opacity(at: now)
        phase = .fading
        fadeStartedAt = now
    }

    private mutating func remove(at now: Duration, actions: inout [Action]) {
        phase = .gone
        pendingText = nil
        let completion = WaitAlertCompletion(
            outcome: outcome ?? .dismissed,
            wasShown: appearedAt != nil,
            workDuration: (finishedAt ?? now) - beganAt
        )
        actions.append(.completed(completion))
    }
}

extension WaitAlertTimeline.Event {
    /// The event that reports `progress`.
    static func progress(_ progress: ReportedProgress) -> Self {
        .progress(completed: progress.completed, total: progress.total, unit: progress.unit)
    }
}

extension WaitAlertTimeline: CustomReflectable {
    /// The timeline's public properties, as `print`, `dump` and a failed test's expectation show
    /// it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "title": title, "kind": kind, "phase": phase, "text": text, "outcome": outcome as Any,
                "finalText": finalText as Any, "timing": timing,
            ],
            displayStyle: .struct)
    }
}

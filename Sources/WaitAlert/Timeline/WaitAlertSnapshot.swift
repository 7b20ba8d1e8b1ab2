/// What a wait alert looks like at one instant: everything a renderer needs, as plain values.
public struct WaitAlertSnapshot: Sendable, Hashable {
    /// The alert's lifecycle phase.
    public var phase: WaitAlertPhase
    /// The text on display (or about to be displayed while the alert is pending).
    public var text: String
    /// When the current text began to show, on the timeline's clock.
    public var textSince: Duration
    /// The spinner frame index, or `nil` when no spinner is showing (toast, final message, hidden).
    public var spinnerFrame: Int?
    /// The spinner glyph for `spinnerFrame`, or `nil`.
    public var spinnerGlyph: String?
    /// The spinner `spinnerFrame` belongs to, while one shows: a renderer that turns the frames
    /// itself (they are a function of time) takes its frames and interval from here.
    public var spinner: Spinner?
    /// 0 (transparent) … 1 (opaque).
    public var opacity: Double
    /// The pop-in scale: 0.6 → 1.1 → 0.9 → 1.0 while appearing, 1 otherwise.
    public var scale: Double
    /// A wait alert (with a spinner while working) or a toast (a text, then gone).
    public var kind: WaitAlertKind
    /// How the work ended, as soon as it has; the final message shows from the `lingering` phase.
    ///
    /// A renderer that cannot linger (a terminal the program may leave right away) prints the
    /// final line as soon as this is set.
    public var outcome: WaitAlertOutcome? {
        get { ending.outcome }
        set { ending.outcome = newValue }
    }
    /// The final message, as soon as the work has ended: the success text, the failure text, or
    /// "<title>: cancelled after 3.1s"; `nil` before, and for an alert dismissed at once.
    ///
    /// ``text`` shows it from the `lingering` phase; a renderer that prints the ending at once uses
    /// this.
    public var finalText: String? {
        get { ending.finalText }
        set { ending.finalText = newValue }
    }
    /// Whether the alert has ever been visible.
    public var wasShown: Bool
    /// How long the work ran, once it finished.
    public var workDuration: Duration? {
        get { ending.workDuration }
        set { ending.workDuration = newValue }
    }
    /// The alert this one is a child task of, or `nil` for a top-level alert.
    public var parent: WaitAlertID?
    /// How deep in its tree the alert is: 0 for a top-level alert, 1 for its child tasks, and so on.
    public var depth: Int
    /// The titles of the steps planned under this alert (``WaitAlertReporter/plan(_:)``) that have
    /// not shown yet, in order: a renderer shows them as pending. The first
    /// ``listedPlannedSteps`` at most: ``plannedStepCount`` counts them all.
    public var plannedSteps: [String] {
        get { pendingWork.listedSteps }
        set {
            pendingWork.listedSteps = newValue
            pendingWork.plannedSteps = newValue.count
        }
    }
    /// How many steps planned under this alert have not shown yet: ``plannedSteps`` lists the
    /// first of them.
    public var plannedStepCount: Int {
        get { pendingWork.plannedSteps }
        set { pendingWork.plannedSteps = newValue }
    }
    /// How many child tasks wait for a slot under a concurrency limit
    /// (``WaitAlertReporter/tasks(for:policy:maxConcurrency:retention:isolation:title:operation:)``):
    /// counted, not listed, for their titles are made as they start.
    public var waitingTasks: Int {
        get { pendingWork.waitingTasks }
        set { pendingWork.waitingTasks = newValue }
    }
    /// Whether more child tasks may come than are counted: a group over a sequence whose end is
    /// not reached yet, and whose size was not known.
    public var hasUncountedTasks: Bool {
        get { pendingWork.hasUncountedTasks }
        set { pendingWork.hasUncountedTasks = newValue }
    }
    /// The most planned steps a snapshot lists by title (``plannedSteps``); the rest are counted
    /// (``plannedStepCount``), so a plan of ten thousand steps costs a snapshot what a hundred do.
    public static let listedPlannedSteps = 100
    /// What a renderer does with this child task's row once it has ended.
    public var retention: WaitAlertRowRetention
    /// Whether this child task holds the place of a step its parent planned (it began under the
    /// step's title and has not shown yet): the step, still among the parent's
    /// ``plannedSteps``, counts it until it shows or ends.
    package var claimsPlannedStep = false
    /// How far the work has gone, when it says so (``WaitAlertReporter/progress(completed:total:unit:)``);
    /// `nil` while it spins without knowing.
    public var progress: WaitAlertProgress? {
        get { storedProgress?.unboxed }
        set { storedProgress = newValue.map(OutOfLine.value) }
    }
    /// ``progress``, kept out of line: most alerts, and most rows of a group, report none.
    private var storedProgress: OutOfLine<WaitAlertProgress>?
    /// Whether the work says it is failing while it goes on — a command run by `wait-alert` on a
    /// terminal that sets its terminal progress to the error state (`OSC 9;4;2`), or a child
    /// process's `failing` event: the row says `failing` and the terminal's taskbar shows an error.
    /// Never set once the alert has an outcome.
    public var isFailing: Bool
    /// Whether cancelling the work was asked for — Ctrl-C, ``WaitAlertPresenter/cancelAll()``,
    /// the caller's task cancelled, a failed sibling under `.failFast` — and the work has not
    /// ended yet: work that checks for cancellation rarely still runs meanwhile, and a renderer
    /// says it is cancelling (`· cancelling…` on a terminal's row). Never set once the alert has
    /// an outcome.
    public var isCancelling: Bool
    /// How far the alert and its child tasks have gone together, when it has child tasks (or
    /// planned steps) and something in it reports progress; `nil` otherwise. A renderer shows this
    /// in the group's header instead of ``progress``, which it includes.
    public var groupProgress: WaitAlertGroupProgress? {
        get { storedGroupProgress?.unboxed }
        set { storedGroupProgress = newValue.map(OutOfLine.value) }
    }
    /// How the work ended, kept out of line until it has: ten thousand running rows stay small.
    private var storedEnding: OutOfLine<Ending>?

    /// ``outcome``, ``finalText`` and ``workDuration``, together.
    private struct Ending: Hashable, Sendable {
        var outcome: WaitAlertOutcome?
        var finalText: String?
        var workDuration: Duration?
    }

    private var ending: Ending {
        get { storedEnding?.unboxed ?? Ending() }
        set { storedEnding = newValue == Ending() ? nil : .value(newValue) }
    }

    /// ``groupProgress``, kept out of line: most snapshots have none, and stay small.
    private var storedGroupProgress: OutOfLine<WaitAlertGroupProgress>?

    /// What waits its turn under the alert, kept out of line (only groups have any); a session
    /// hands the same box to each snapshot until it changes.
    var storedPendingWork: OutOfLine<PendingWork>?

    /// What waits its turn under the alert: planned steps and waiting tasks.
    var pendingWork: PendingWork {
        get { storedPendingWork?.unboxed ?? PendingWork() }
        set { storedPendingWork = newValue.isEmpty ? nil : .value(newValue) }
    }

    /// Whether anything of the alert is on screen (appearing, visible, lingering or fading).
    public var isOnScreen: Bool { phase.isOnScreen }

    /// Makes a snapshot; by default a fully visible wait alert, for custom renderers' tests and
    /// SwiftUI previews.
    ///
    /// ```swift
    /// AlertView(snapshot: WaitAlertSnapshot(text: "Uploading…", spinnerFrame: 3, spinnerGlyph: "⠸"))
    /// ```
    public init(
        phase: WaitAlertPhase = .visible,
        text: String,
        textSince: Duration = .zero,
        spinnerFrame: Int? = nil,
        spinnerGlyph: String? = nil,
        spinner: Spinner? = nil,
        opacity: Double = 1,
        scale: Double = 1,
        kind: WaitAlertKind = .waitAlert,
        outcome: WaitAlertOutcome? = nil,
        finalText: String? = nil,
        wasShown: Bool = true,
        workDuration: Duration? = nil,
        parent: WaitAlertID? = nil,
        depth: Int = 0,
        plannedSteps: [String] = [],
        retention: WaitAlertRowRetention = .record,
        progress: WaitAlertProgress? = nil,
        groupProgress: WaitAlertGroupProgress? = nil,
        isFailing: Bool = false,
        isCancelling: Bool = false,
        plannedStepCount: Int? = nil,
        waitingTasks: Int = 0,
        hasUncountedTasks: Bool = false
    ) {
        self.isFailing = isFailing
        self.isCancelling = isCancelling
        self.phase = phase
        self.text = text
        self.textSince = textSince
        self.spinnerFrame = spinnerFrame
        self.spinnerGlyph = spinnerGlyph
        self.spinner = spinner
        self.opacity = opacity
        self.scale = scale
        self.kind = kind
        self.wasShown = wasShown
        let ending = Ending(outcome: outcome, finalText: finalText, workDuration: workDuration)
        self.storedEnding = ending == Ending() ? nil : .value(ending)
        self.parent = parent
        self.depth = depth
        let pending = PendingWork(
            listedSteps: plannedSteps, plannedSteps: plannedStepCount ?? plannedSteps.count,
            waitingTasks: waitingTasks, hasUncountedTasks: hasUncountedTasks)
        self.storedPendingWork = pending.isEmpty ? nil : .value(pending)
        self.retention = retention
        self.progress = progress
        self.storedGroupProgress = groupProgress.map(OutOfLine.value)
    }

    /// Whether `other` looks the same but for the spinner's frame.
    func differsOnlyInSpinnerFrame(from other: WaitAlertSnapshot) -> Bool {
        var same = self
        same.spinnerFrame = other.spinnerFrame
        same.spinnerGlyph = other.spinnerGlyph
        return same == other
    }
}

/// The lifecycle of a wait alert. Phases only ever move forward, possibly skipping some.
public enum WaitAlertPhase: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// Waiting out the grace delay; nothing is visible.
    case pending
    /// Fading and popping in.
    case appearing
    /// Fully visible, showing progress texts.
    case visible
    /// Showing the final message for its reading time.
    case lingering
    /// Fading out.
    case fading
    /// Removed; the completion has fired.
    case gone

    /// Whether the alert is (at least partly) on screen in this phase.
    public var isOnScreen: Bool { self != .pending && self != .gone }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The two shapes of alert.
public enum WaitAlertKind: Sendable, Hashable {
    /// A spinner and a text while work goes on, then a final message.
    case waitAlert
    /// A text shown for its reading time, then faded out; no spinner, no outcome icon.
    case toast
}

/// What the region of a terminal does with a child task's row once the task has ended.
public enum WaitAlertRowRetention: Sendable, Hashable {
    /// The row shows the final message until it has been read, then becomes a permanent record
    /// line above the region (`✔ Compiling Core (3.2s)`) and frees its place. The default.
    case record
    /// The row stays in the region, with its final message, until the group (the parent alert)
    /// ends; then it becomes a record line.
    case keepUntilGroupEnds
    /// The row shows the final message until it has been read, then goes without a trace; a
    /// failed or cancelled task still leaves its record line.
    case transient
}

extension WaitAlertSnapshot: CustomReflectable {
    /// The snapshot's public properties, as `print`, `dump` and a failed test's expectation show
    /// it (the parts kept in boxes of their own appear as what they hold).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "phase": phase, "text": text, "textSince": textSince, "spinnerFrame": spinnerFrame as Any,
                "spinnerGlyph": spinnerGlyph as Any, "spinner": spinner as Any, "opacity": opacity, "scale": scale,
                "kind": kind, "outcome": outcome as Any, "finalText": finalText as Any, "wasShown": wasShown,
                "workDuration": workDuration as Any, "parent": parent as Any, "depth": depth,
                "plannedSteps": plannedSteps, "plannedStepCount": plannedStepCount, "waitingTasks": waitingTasks,
                "hasUncountedTasks": hasUncountedTasks, "retention": retention, "progress": progress as Any,
                "isFailing": isFailing, "isCancelling": isCancelling, "groupProgress": groupProgress as Any,
            ],
            displayStyle: .struct)
    }
}

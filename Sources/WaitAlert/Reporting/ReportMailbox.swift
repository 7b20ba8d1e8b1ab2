import Dispatch
// Public because `update` is inlined into callers, lock and all (measured, an update that is not
// inlinable costs about a third more), and a wrapped loop reads `progressWanted` at each element.
public import Synchronization

/// The single lock between the tasks reporting to an alert and the alert's session.
///
/// Reports from any thread land here in call order; the session drains them on the main actor.
/// Texts are coalesced (one slot, latest wins), log lines are queued in order, and at most one
/// main-actor wake-up is pending at any time. An update wakes the drainer only while the drainer
/// has said it can show a text at once (`arm`); otherwise the text waits for the drainer's next
/// deadline, so a burst of updates costs one slot and no wake-ups. Texts are accepted until the
/// alert has an outcome; log lines until the work has ended (``close()``), so work that outlives
/// its alert after a timeout still has its lines printed.
///
/// Log lines waiting to be printed are bounded by `logBacklogLimit`: past it, `log` waits for
/// the drainer to take them, as a write to a full pipe waits for its reader, so a flood into a slow
/// terminal keeps its memory bounded and loses nothing. On the main thread, which the drainer runs
/// on, `log` prints the backlog itself instead of waiting.
@usableFromInline
final class ReportMailbox: Sendable {
    #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
        @usableFromInline let lock = ReportLock()
        /// Read and written only while `lock` is held.
        @usableFromInline nonisolated(unsafe) var lockedState = State()

        /// Runs `body` on the mailbox's state, holding its lock.
        @inlinable @inline(__always)
        func withState<R>(_ body: (inout State) throws -> R) rethrows -> R {
            lock.lock()
            defer { lock.unlock() }
            return try body(&lockedState)
        }
    #else
        // Elsewhere `Mutex` (`os_unfair_lock`, an SRW lock) neither convoys nor leaves priority
        // inverted, which a lock that spins could.
        @usableFromInline let state = Mutex<State>(State())

        /// Runs `body` on the mailbox's state, holding its lock.
        @inlinable @inline(__always)
        func withState<R>(_ body: (inout State) throws -> R) rethrows -> R {
            try state.withLock { try body(&$0) }
        }
    #endif

    /// What the drainer takes out in one go.
    @usableFromInline
    struct Batch {
        @usableFromInline var text: String?
        /// How many of `logs` were made before `text`, to replay them in call order.
        @usableFromInline var logsBeforeText = 0
        @usableFromInline var logs: [String] = []
        var outcome: WaitAlertOutcome?
        /// Whether the work said it is failing (or no longer), the latest word.
        var failing: Bool?
        /// Whether cancelling the work was asked for since the last drain.
        var cancelling = false
        /// Whether the progress changed since the last drain.
        @usableFromInline var progressChanged = false
        // Both out of line: most mailboxes of a large group never carry progress, and stay small.
        /// The progress at the drain, when it changed: `nil` for indeterminate.
        @OutOfLineOptional var progress: Progress?
        /// The first progress reported since the last drain, and when (on the drainer's clock):
        /// work that reports now and then has each report placed where it was made.
        @OutOfLineOptional @usableFromInline var firstProgress: FirstProgress?
    }

    /// A progress report and when it was made.
    @usableFromInline
    struct FirstProgress: Hashable, Sendable {
        var progress: Progress
        var at: Duration
    }

    /// How far the work has gone, as last reported.
    @usableFromInline typealias Progress = ReportedProgress

    @usableFromInline
    struct State {
        @usableFromInline var batch = Batch()
        /// Set once the alert has an outcome: later texts are ignored.
        @usableFromInline var textsClosed = false
        /// Set once the work has ended: later log lines are ignored too.
        var isClosed = false
        @usableFromInline var isArmed = false
        /// Whether a progress report should wake the drainer (a frame has passed since progress
        /// last showed).
        @usableFromInline var isProgressArmed = false
        /// Bytes of log lines not taken by the drainer yet (each line counted with its overhead).
        var backlog = 0
        /// The most `backlog` ever reached, for tests and the benchmark.
        var backlogHighWater = 0
        /// Reporting threads waiting for the backlog to go down.
        var backlogWaiters: [DispatchSemaphore] = []
        /// The scheduled wake-up, until it runs.
        var wake: Task<Void, Never>?
        /// How to reach whoever drains the mailbox, once connected.
        var wakes: Wake?
        /// How the work said its alert ends when it returns instead of as a success.
        var ending: WaitAlertOutcome?
        /// Lines printed above the alert only if it fails.
        var failureReport: [String] = []
        /// The wrapped loops counting into the alert, made with the first (a dictionary stored
        /// inline here was measured to cost every alert a kilobyte).
        var tallies: TallyList?
        /// The progress as last reported; `nil` while indeterminate.
        @usableFromInline var progress: Progress?

        /// A progress report was stored: the first since the last drain is placed in time (one
        /// clock reading per drain, not per report), and wakes the drainer when it is armed.
        @inlinable
        mutating func noteProgress(_ mailbox: ReportMailbox) {
            guard !batch.progressChanged else { return }
            batch.progressChanged = true
            recordFirstProgress()
            if isProgressArmed { scheduleWake(mailbox) }
        }

        /// Adds what the wrapped loops counted, as a progress report. Out of line, and a no-op
        /// without loops: it is part of every ending, and an inlined copy would grow the frame of
        /// every task that ends an alert.
        @inline(never)
        mutating func addTallies(_ mailbox: ReportMailbox) {
            if collectTallies() { noteProgress(mailbox) }
        }

        /// Adds what each wrapped loop counted since it was last added; whether anything was.
        @inline(never)
        mutating func collectTallies() -> Bool {
            guard let tallies, !tallies.entries.isEmpty, !textsClosed else { return false }
            var added = 0
            for tally in tallies.entries.values {
                let tally = tally.takeUnretainedValue()
                let done = tally.done.load(ordering: .relaxed)
                added = ReportMailbox.saturating(added, done &- tally.published)
                tally.published = done
            }
            guard added != 0 else { return false }
            var progress = progress ?? Progress(completed: 0, total: nil, unit: .count)
            progress.completed = ReportMailbox.saturating(progress.completed, added)
            self.progress = progress
            return true
        }

        @inline(never) @usableFromInline
        mutating func recordFirstProgress() {
            guard let progress, let now = wakes?.clock else { return }
            batch.firstProgress = FirstProgress(progress: progress, at: now())
        }

        /// Kept out of line so the hot `update` path stays a few instructions inside the lock.
        @inline(never) @usableFromInline
        mutating func scheduleWake(_ mailbox: ReportMailbox) {
            guard wake == nil, let scheduled = wakes?.scheduled else { return }
            wake = Task { @MainActor in scheduled() }
            PendingWakes.insert(ObjectIdentifier(mailbox), order: mailbox.sequence) { mailbox.applyNowIfOnMainActor() }
        }
    }

    /// The wrapped loops counting into an alert: read and written under the mailbox's lock.
    final class TallyList: @unchecked Sendable {
        var entries: [ObjectIdentifier: Unmanaged<ProgressTally>] = [:]
    }

    /// How the mailbox reaches whoever drains it, on the main actor: a wake-up it schedules, or a
    /// drain right now (an ending or a log backlog on the main actor, the exit flush). Given by the
    /// drainer, so the mailbox depends on nothing above it.
    struct Wake: Sendable {
        /// Run by the scheduled wake-up task.
        var scheduled: @MainActor @Sendable () -> Void
        /// Drains the mailbox now.
        var now: @MainActor @Sendable () -> Void
        /// The drainer's clock, to place progress reports in time.
        var clock: (@Sendable () -> Duration)? = nil
    }

    /// The most bytes of log lines that wait for the drainer before `log` waits too: 2 MiB.
    static let logBacklogLimit = 2 << 20

    /// Orders mailboxes by when they were made, so pending reports are applied in that order.
    let sequence = ReportMailbox.counter.add(1, ordering: .relaxed).newValue
    /// Lines printed above the alert only if it fails (the last lines of a followed source).
    var failureReport: [String] {
        get { withState { $0.failureReport } }
        set { withState { $0.failureReport = newValue } }
    }
    private static let counter = Atomic<UInt64>(0)

    /// Connects whoever drains this mailbox.
    func connect(_ wakes: Wake) {
        withState { $0.wakes = wakes }
    }

    /// Drains the mailbox now, on the main actor, if it runs on the calling thread; does nothing
    /// elsewhere.
    func applyNowIfOnMainActor() {
        guard MainThread.isCurrent, let now = withState({ $0.wakes?.now }) else { return }
        MainActor.assumeIsolated { now() }
    }

    /// Whether the drainer wants progress now (it is armed for it): a wrapped loop then hands
    /// its count over. Kept apart from the lock, read by the loop at each element.
    @usableFromInline let progressWanted = Atomic<Bool>(false)

    /// A wrapped loop starts counting into this alert.
    func register(_ tally: ProgressTally) {
        withState { state in
            let tallies = state.tallies ?? TallyList()
            tallies.entries[ObjectIdentifier(tally)] = Unmanaged.passUnretained(tally)
            state.tallies = tallies
        }
    }

    /// A wrapped loop goes away: what it counted since is added first.
    func unregister(_ tally: ProgressTally) {
        withState { state in
            if state.collectTallies() { state.noteProgress(self) }
            state.tallies?.entries[ObjectIdentifier(tally)] = nil
        }
    }

    /// Adds what the wrapped loops counted, waking the drainer when it is armed for progress.
    @inline(never) @usableFromInline
    func publishTallies() {
        progressWanted.store(false, ordering: .relaxed)
        withState { state in
            if state.collectTallies() { state.noteProgress(self) }
        }
    }

    /// Stores the latest text, waking the drainer only if it can show it now.
    @inlinable
    func update(_ text: String) {
        withState { state in
            guard !state.textsClosed else { return }
            state.batch.text = text
            state.batch.logsBeforeText = state.batch.logs.count
            if state.isArmed { state.scheduleWake(self) }
        }
    }

    /// Stores how far the work has gone: `completed` of `total`, in `unit` (the last unit given
    /// when `nil`). Taken at the drainer's next step; wakes it only when armed for progress (once a
    /// frame at most).
    @inlinable
    func progress(completed: Int, total: Int?, unit: WaitAlertProgressUnit?) {
        withState { state in
            guard !state.textsClosed else { return }
            let unit = unit ?? state.progress?.unit ?? .count
            state.progress = Progress(completed: completed, total: total, unit: unit)
            state.noteProgress(self)
        }
    }

    /// Adds `units` to the count done, and `total` to the total if given (a total that grows).
    /// Both saturate at `Int.max` and `Int.min` instead of wrapping around.
    @inlinable
    func advance(by units: Int, growingTotalBy total: Int) {
        withState { state in
            guard !state.textsClosed else { return }
            var progress = state.progress ?? Progress(completed: 0, total: nil, unit: .count)
            progress.completed = Self.saturating(progress.completed, units)
            if total != 0 { progress.total = Self.saturating(progress.total ?? 0, total) }
            state.progress = progress
            state.noteProgress(self)
        }
    }

    /// `a + b`, held at `Int.max` or `Int.min` when it would overflow.
    @inlinable
    static func saturating(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return sum }
        return b > 0 ? .max : .min
    }

    /// The work says it is failing while it goes on, or no longer.
    func failing(_ failing: Bool) {
        withState { state in
            guard !state.textsClosed else { return }
            state.batch.failing = failing
            if state.isArmed { state.scheduleWake(self) }
        }
    }

    /// Cancelling the work was asked for: the drainer is woken at once (whatever it is armed
    /// for), so the alert says it is cancelling at the next frame.
    func cancelling() {
        withState { state in
            guard !state.textsClosed else { return }
            state.batch.cancelling = true
            state.scheduleWake(self)
        }
    }

    /// The work no longer says how far it has gone.
    func indeterminate() {
        withState { state in
            guard !state.textsClosed else { return }
            state.progress = nil
            state.noteProgress(self)
        }
    }

    /// Queues a log line and wakes the drainer; waits while the backlog is over its limit.
    @usableFromInline
    func log(_ line: String) {
        let overLimit = withState { state -> Bool in
            guard !state.isClosed else { return false }
            state.batch.logs.append(line)
            state.backlog += line.utf8.count + Self.lineOverhead
            state.backlogHighWater = max(state.backlogHighWater, state.backlog)
            state.scheduleWake(self)
            return state.backlog > Self.logBacklogLimit
        }
        if overLimit { waitForBacklog() }
    }

    /// The memory a queued line takes besides its bytes, counted against the limit.
    static let lineOverhead = 64

    /// Waits until the drainer has taken the log lines; on the main thread, where the drainer runs,
    /// has it print them now instead (the main actor cannot wait for itself).
    private func waitForBacklog() {
        if MainThread.isCurrent {
            applyNowIfOnMainActor()
            return
        }
        let semaphore = DispatchSemaphore(value: 0)
        let waits = withState { state -> Bool in
            guard state.backlog > Self.logBacklogLimit, !state.isClosed, state.wakes != nil else { return false }
            state.backlogWaiters.append(semaphore)
            return true
        }
        if waits { semaphore.wait() }
    }

    /// Records the alert's outcome (texts are ignored from now on) and, unless the drainer drains
    /// the mailbox right away itself (`wakes: false`), wakes the drainer.
    ///
    /// - Parameter closing: whether the work has ended too, so log lines are ignored as well.
    /// - Returns: `false` when the alert already had an outcome (the first one wins).
    @discardableResult
    func finish(_ outcome: WaitAlertOutcome, closing: Bool = true, wakes: Bool = true) -> Bool {
        let (recorded, waiters) = withState { state -> (Bool, [DispatchSemaphore]) in
            var waiters: [DispatchSemaphore] = []
            if closing { waiters = Self.close(&state) }
            guard !state.textsClosed else { return (false, waiters) }
            // What wrapped loops counted is part of the alert's last progress.
            if state.tallies != nil { state.addTallies(self) }
            state.textsClosed = true
            state.batch.outcome = outcome
            if wakes { state.scheduleWake(self) }
            return (true, waiters)
        }
        waiters.forEach { $0.signal() }
        return recorded
    }

    /// Records that the work has ended: every later report is ignored.
    func close() {
        withState { Self.close(&$0) }.forEach { $0.signal() }
    }

    private static func close(_ state: inout State) -> [DispatchSemaphore] {
        state.isClosed = true
        defer { state.backlogWaiters = [] }
        return state.backlogWaiters
    }

    /// Records how the work said its alert ends when it returns instead of as a success: skipped,
    /// with a warning, or with information. The latest word wins.
    func endInstead(_ outcome: WaitAlertOutcome) {
        withState { state in
            guard !state.textsClosed else { return }
            state.ending = outcome
        }
    }

    /// How the work said its alert ends when it returns, if it said so.
    var ending: WaitAlertOutcome? { withState { $0.ending } }

    /// Whether the alert still waits for an outcome.
    var isOpen: Bool { withState { !$0.textsClosed } }

    /// Takes everything reported since the last drain and disarms until the drainer's next `arm`;
    /// lets reporting threads waiting for the backlog go on.
    ///
    /// - Parameter byWake: whether the pending wake-up is the one draining; it is then cleared in
    ///   the same critical section, so no report can slip a second wake-up in between.
    func drain(byWake: Bool) -> Batch {
        let (batch, waiters) = withState { state -> (Batch, [DispatchSemaphore]) in
            defer {
                state.batch = Batch()
                state.backlog = 0
                state.backlogWaiters = []
            }
            state.isArmed = false
            state.isProgressArmed = false
            if byWake { state.wake = nil }
            // The drainer shows the count the loops have reached, whatever woke it.
            if state.collectTallies(), !state.batch.progressChanged {
                state.batch.progressChanged = true
                state.recordFirstProgress()
            }
            var batch = state.batch
            if batch.progressChanged { batch.progress = state.progress }
            return (batch, state.backlogWaiters)
        }
        progressWanted.store(false, ordering: .relaxed)
        if byWake { PendingWakes.remove(ObjectIdentifier(self)) }
        waiters.forEach { $0.signal() }
        return batch
    }

    /// Sets whether an update should wake the drainer; a text already waiting wakes it at once.
    func arm(_ armed: Bool) {
        withState { state in
            state.isArmed = armed
            if armed, state.batch.text != nil { state.scheduleWake(self) }
        }
    }

    /// Sets whether a progress report should wake the drainer; progress already waiting wakes it
    /// at once.
    func armProgress(_ armed: Bool) {
        withState { state in
            state.isProgressArmed = armed
            if armed, state.batch.progressChanged { state.scheduleWake(self) }
        }
        progressWanted.store(armed, ordering: .relaxed)
    }

    /// The wake-up scheduled but not yet run, if any.
    var pendingWake: Task<Void, Never>? { withState { $0.wake } }

    /// The most bytes of log lines that ever waited at once.
    package var logBacklogHighWater: Int { withState { $0.backlogHighWater } }
}

/// What a loop wrapped by `reportingProgress(to:)` has counted, read by its alert's mailbox
/// when the display can use it.
///
/// The loop costs a store and a load per element, no lock: the iterating thread alone writes
/// `done` (a relaxed load and store, plain moves on every processor), and adds nothing to the
/// mailbox itself unless the drainer has said it wants progress (``ReportMailbox/progressWanted``,
/// at most once a frame). Whatever the loop counted since is added by the mailbox under its lock —
/// when the drainer takes the batch, when the alert ends, when the iterator goes away — from
/// `published`, which only the lock's holder touches, so no count is lost or counted twice, and
/// the count is exact at the end whichever thread iterated.
@usableFromInline
final class ProgressTally: Sendable {
    /// Units counted by the iterating thread; written by it alone.
    @usableFromInline let done = Atomic<Int>(0)
    /// How much of `done` the mailbox has added; read and written under the mailbox's lock.
    nonisolated(unsafe) var published = 0
    @usableFromInline let mailbox: ReportMailbox

    @usableFromInline
    init(mailbox: ReportMailbox) {
        self.mailbox = mailbox
        mailbox.register(self)
    }

    deinit {
        mailbox.unregister(self)
    }

    /// Counts `units` more; hands the count to the mailbox if its drainer wants progress now.
    @inlinable @inline(__always)
    func count(_ units: Int) {
        done.store(done.load(ordering: .relaxed) &+ units, ordering: .relaxed)
        if mailbox.progressWanted.load(ordering: .relaxed) { mailbox.publishTallies() }
    }

    /// Hands what is counted to the mailbox now: the loop has ended.
    @usableFromInline
    func publish() {
        mailbox.publishTallies()
    }
}

import Dispatch
// Public because `update` is inlined into callers, lock and all (measured, an update that is not
// inlinable costs about a third more), and `advance` and a wrapped loop read `progressNoted`.
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
/// Counts need not take the lock each time: a wrapped loop, and a thread calling `advance`, count on
/// their own, and the mailbox adds what they counted when the drainer drains, when the alert ends,
/// and when a loop goes away (`ReportMailbox+Counts.swift`).
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
        @usableFromInline var tallies: TallyList?
        /// The progress as last reported; `nil` while indeterminate.
        @usableFromInline var progress: Progress?

        /// A progress report was stored: the first since the last drain is placed in time (one
        /// clock reading per drain, not per report), and wakes the drainer when it is armed.
        @inlinable
        mutating func noteProgress(_ mailbox: ReportMailbox) {
            guard !batch.progressChanged else { return }
            batch.progressChanged = true
            mailbox.progressNoted.store(true, ordering: .relaxed)
            recordFirstProgress()
            if isProgressArmed { scheduleWake(mailbox) }
        }

        /// Adds what loops and threads counted on their own, as a progress report. Out of line: it
        /// is part of every ending, and an inlined copy would grow the frame of every task that
        /// ends an alert.
        @inline(never)
        mutating func addCounts(_ mailbox: ReportMailbox) {
            if collectCounts(mailbox) { noteProgress(mailbox) }
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

    /// Whether progress reported since the drainer last drained is already noted — placed in
    /// time, and the drainer woken if it was armed for progress (`batch.progressChanged`) — so the
    /// drainer adds what is counted meanwhile when it next drains, whatever woke it. Until then a
    /// wrapped loop and a thread calling `advance` count on their own, without the lock, and take
    /// it once a drain to note the first progress since. Written under the lock; read without it.
    @usableFromInline let progressNoted = Atomic<Bool>(false)
    /// The counts of the threads that call `advance` (``ThreadCount``), each slot retained: made
    /// when a thread first counts on its own, under the lock, and never changed afterwards. (A
    /// pointer is not `Sendable`; the table is read-only once shared.)
    @usableFromInline nonisolated(unsafe) let threadCounts = Atomic<UnsafeMutablePointer<Unmanaged<ThreadCount>>?>(nil)

    deinit {
        guard let counts = threadCounts.load(ordering: .acquiring) else { return }
        for slot in 0..<Self.threadSlots { counts[slot].release() }
        counts.deinitialize(count: Self.threadSlots)
        counts.deallocate()
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
            state.discardCounts(self)
            let unit = unit ?? state.progress?.unit ?? .count
            state.progress = Progress(completed: completed, total: total, unit: unit)
            state.noteProgress(self)
        }
    }

    /// Adds `units` to the count done, and `total` to the total if given (a total that grows).
    /// Both saturate at `Int.max` and `Int.min` instead of wrapping around.
    ///
    /// Once progress is noted for the drainer's next look (``progressNoted``), a count alone is
    /// added to the calling thread's own count (``countOnThread(_:)``), no lock: the drainer adds
    /// it when it drains, the alert when it ends. The first count since a drain takes the lock, to
    /// be placed in time and wake the drainer; a thread that counts again before the drain is given
    /// a count of its own.
    @inlinable @inline(__always)
    func advance(by units: Int, growingTotalBy total: Int) {
        if total == 0, progressNoted.load(ordering: .relaxed), countOnThread(units) { return }
        advanceLocked(by: units, growingTotalBy: total)
    }

    /// Adds `units` and `total` under the lock.
    @inline(never) @usableFromInline
    func advanceLocked(by units: Int, growingTotalBy total: Int) {
        withState { state in
            guard !state.textsClosed else { return }
            // A second count since the drainer's last look: the thread counts often, and is
            // given a count of its own.
            let often = state.batch.progressChanged
            var progress = state.progress ?? Progress(completed: 0, total: nil, unit: .count)
            progress.completed = Self.saturating(progress.completed, units)
            if total != 0 { progress.total = Self.saturating(progress.total ?? 0, total) }
            state.progress = progress
            state.noteProgress(self)
            if total == 0, often { state.prepareThreadCount(self) }
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
            state.discardCounts(self)
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
            // What loops and threads counted on their own is part of the alert's last progress.
            if state.tallies != nil || threadCounts.load(ordering: .relaxed) != nil { state.addCounts(self) }
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
                progressNoted.store(false, ordering: .relaxed)
                state.backlog = 0
                state.backlogWaiters = []
            }
            state.isArmed = false
            state.isProgressArmed = false
            if byWake { state.wake = nil }
            // The drainer shows the count reached, whatever woke it.
            if state.collectCounts(self), !state.batch.progressChanged {
                state.batch.progressChanged = true
                state.recordFirstProgress()
            }
            var batch = state.batch
            if batch.progressChanged { batch.progress = state.progress }
            return (batch, state.backlogWaiters)
        }
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
    }

    /// The wake-up scheduled but not yet run, if any.
    var pendingWake: Task<Void, Never>? { withState { $0.wake } }

    /// The most bytes of log lines that ever waited at once.
    package var logBacklogHighWater: Int { withState { $0.backlogHighWater } }
}

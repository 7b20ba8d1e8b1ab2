public import Synchronization

/// The single lock between the tasks reporting to an alert and the alert's driver.
///
/// Reports from any thread land here in call order; the driver drains them on the main actor.
/// Texts are coalesced (one slot, latest wins), log lines are queued in order, and at most one
/// main-actor wake-up is pending at any time. Texts are accepted until the alert has an outcome;
/// log lines until the work has ended (``close()``), so work that outlives its alert after a
/// timeout still has its lines printed. An update wakes the driver only while the driver
/// has said it can show a text at once (`arm`); otherwise the text waits for the driver's next
/// deadline, so a burst of updates costs one slot and no wake-ups.
@usableFromInline
final class ReportMailbox: Sendable {
    /// What the driver takes out in one go.
    @usableFromInline
    struct Batch {
        @usableFromInline var text: String?
        /// How many of `logs` were made before `text`, to replay them in call order.
        @usableFromInline var logsBeforeText = 0
        @usableFromInline var logs: [String] = []
        var outcome: WaitAlertOutcome?
    }

    @usableFromInline
    struct State {
        @usableFromInline var batch = Batch()
        /// Set once the alert has an outcome: later texts are ignored.
        @usableFromInline var textsClosed = false
        /// Set once the work has ended: later log lines are ignored too.
        var isClosed = false
        @usableFromInline var isArmed = false
        var wake: Task<Void, Never>?
        weak var driver: WaitAlertDriver?

        /// Kept out of line so the hot `update` path stays a few instructions inside the lock.
        @inline(never) @usableFromInline
        mutating func scheduleWake() {
            guard wake == nil, let driver else { return }
            wake = Task { @MainActor in driver.wakeFromMailbox() }
        }
    }

    @usableFromInline let state = Mutex<State>(State())

    /// Connects the driver that drains this mailbox.
    func connect(_ driver: WaitAlertDriver) {
        state.withLock { $0.driver = driver }
    }

    /// Stores the latest text, waking the driver only if it can show it now.
    @inlinable
    func update(_ text: String) {
        state.withLock { state in
            guard !state.textsClosed else { return }
            state.batch.text = text
            state.batch.logsBeforeText = state.batch.logs.count
            if state.isArmed { state.scheduleWake() }
        }
    }

    /// Queues a log line and wakes the driver.
    @usableFromInline
    func log(_ line: String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.batch.logs.append(line)
            state.scheduleWake()
        }
    }

    /// Records the alert's outcome (texts are ignored from now on) and, unless the driver drains
    /// the mailbox right away itself (`wakesDriver: false`), wakes the driver.
    ///
    /// - Parameter closing: whether the work has ended too, so log lines are ignored as well.
    /// - Returns: `false` when the alert already had an outcome (the first one wins).
    @discardableResult
    func finish(_ outcome: WaitAlertOutcome, closing: Bool = true, wakesDriver: Bool = true) -> Bool {
        state.withLock { state in
            if closing { state.isClosed = true }
            guard !state.textsClosed else { return false }
            state.textsClosed = true
            state.batch.outcome = outcome
            if wakesDriver { state.scheduleWake() }
            return true
        }
    }

    /// Records that the work has ended: every later report is ignored.
    func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Whether the alert still waits for an outcome.
    var isOpen: Bool { state.withLock { !$0.textsClosed } }

    /// Takes everything reported since the last drain and disarms until the driver's next `arm`.
    ///
    /// - Parameter byWake: whether the pending wake-up is the one draining; it is then cleared in
    ///   the same critical section, so no report can slip a second wake-up in between.
    func drain(byWake: Bool) -> Batch {
        state.withLock { state in
            defer { state.batch = Batch() }
            state.isArmed = false
            if byWake { state.wake = nil }
            return state.batch
        }
    }

    /// Sets whether an update should wake the driver; a text already waiting wakes it at once.
    func arm(_ armed: Bool) {
        state.withLock { state in
            state.isArmed = armed
            if armed, state.batch.text != nil { state.scheduleWake() }
        }
    }

    /// The wake-up scheduled but not yet run, if any.
    var pendingWake: Task<Void, Never>? { state.withLock { $0.wake } }
}

import Dispatch

/// The one timer of a presenter: it sleeps on the presenter's clock until the earliest deadline any
/// of its alerts asked for, then wakes the alerts that are due.
///
/// A generation number makes a timer that fires after being replaced harmless. A timer whose
/// deadline is no longer needed is left to fire (it then finds nothing due) rather than cancelled,
/// and a later deadline never replaces an earlier timer: so a stream of short-lived alerts costs one
/// timer, not one per alert. Only when no alert needs a wake-up at all is a timer sleeping in a
/// task cancelled.
@MainActor
final class AlertScheduler {
    private let clock: AlertClock
    private let wake: ([WaitAlertID]) -> Void
    // Unchecked exclusivity: see `InteractiveOverlay.region`.
    @exclusivity(unchecked) private var deadlines = DeadlineQueue()
    @exclusivity(unchecked) private var timer: Timer?

    /// The pending wake-up: a task sleeping on the clock, or a dispatch timer for the system clock.
    private struct Timer {
        enum Work {
            case task(Task<Void, Never>)
            case dispatch(DispatchWorkItem)
        }

        let deadline: Duration
        let work: Work

        func cancel() {
            switch work {
            case .task(let task): task.cancel()
            case .dispatch(let item): item.cancel()
            }
        }
    }
    @exclusivity(unchecked) private var generation: UInt64 = 0
    /// Where a timer sleeping in a task runs; `nil` for the global concurrent executor. A test bed
    /// passes the executor its work runs on, so the clock wakes the timer and the work in order.
    var executor: (any TaskExecutor)?

    /// Makes a scheduler that calls `wake` with the alerts whose deadline has come, together.
    init(clock: AlertClock, wake: @escaping ([WaitAlertID]) -> Void) {
        self.clock = clock
        self.wake = wake
    }

    /// Sets (or with `nil`, clears) the deadline of alert `id`.
    func schedule(_ id: WaitAlertID, at deadline: Duration?) {
        guard deadlines.set(id, at: deadline) else { return }
        if deadlines.isEmpty { stopSleepingTask() }
        arm()
    }

    /// Once no alert needs a wake-up, a timer sleeping in a task is cancelled rather than left to
    /// fire: on a clock that may never reach its deadline (a test's manual clock), it would
    /// otherwise sleep, and hold the clock, forever. A dispatch timer ends by itself.
    private func stopSleepingTask() {
        guard let timer, case .task = timer.work else { return }
        timer.cancel()
        self.timer = nil
        generation &+= 1
    }

    /// The deadline the timer sleeps until, if any.
    var timerDeadline: Duration? { timer?.deadline }

    /// Forgets every deadline and stops the timer.
    func removeAll() {
        deadlines.removeAll()
        timer?.cancel()
        timer = nil
        generation &+= 1
    }

    /// The timer's task, when its deadline has passed and it has not run yet (the clock is not
    /// the system's: tests drive a manual clock).
    var dueTimer: Task<Void, Never>? {
        guard let timer, timer.deadline <= clock.now(), case .task(let task) = timer.work else { return nil }
        return task
    }

    /// The longest single sleep: a farther deadline is reached by waking at this distance and
    /// sleeping again, so no clock ever converts a delay beyond its range (nanoseconds in an
    /// `Int64` end after 292 years).
    static let longestSleep = Duration.seconds(100 * 31_557_600)

    private func arm() {
        guard let earliest = deadlines.earliest() else { return }
        if let timer, timer.deadline <= earliest { return }
        timer?.cancel()
        generation &+= 1
        let generation = self.generation
        let clock = self.clock
        let now = clock.now()
        let wakeAt = earliest - now > Self.longestSleep ? now + Self.longestSleep : earliest
        if clock.isSystemClock {
            // The main queue runs the main actor's jobs: a dispatch timer there wakes the main
            // actor directly, with a third of the thread hand-offs of a sleeping task.
            let item = DispatchWorkItem { [weak self] in
                MainActor.assumeIsolated { self?.fired(generation: generation) }
            }
            let nanoseconds = Int(max(wakeAt - now, .zero).attoseconds / 1_000_000_000)
            DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: item)
            timer = Timer(deadline: wakeAt, work: .dispatch(item))
            return
        }
        // Not on the main actor, so it starts sleeping without first queueing there.
        let task = Task.detached(executorPreference: executor) { [weak self] in
            do {
                try await clock.sleep(wakeAt)
            } catch {
                // A replaced timer is cancelled and ends here, and so does a sleep the clock
                // cancelled itself (a test's clock going away); a clock that throws for any other
                // reason wakes the scheduler early, which then simply arms again.
                if Task.isCancelled || error is CancellationError { return }
            }
            await self?.fired(generation: generation)
        }
        timer = Timer(deadline: wakeAt, work: .task(task))
    }

    private func fired(generation: UInt64) {
        guard generation == self.generation else { return }
        timer = nil
        let now = clock.now()
        let due = deadlines.popDue(at: now)  // all of them first, so no wake arms a timer already due
        if !due.isEmpty { wake(due) }
        arm()
    }
}

import Dispatch
import Synchronization
public import Testing

/// A clock that moves only when a test says so.
///
/// Sleepers whose deadline has passed are resumed, in deadline order, before ``advance(by:sourceLocation:)``,
/// ``advance(to:sourceLocation:)`` or ``run(sourceLocation:)`` returns (each then runs as soon as its executor lets it); a sleep until a past deadline returns
/// immediately; a cancelled sleeper is resumed exactly once with `CancellationError`. To wait until
/// code under test has gone to sleep, await ``sleepers(atLeast:)``: it returns as soon as that many
/// sleepers are registered, without polling or yielding.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(1)) }
/// await clock.sleepers(atLeast: 1)
/// clock.advance(by: .seconds(1))      // resumes the sleeper
/// try await task.value
/// ```
public final class ManualClock: Clock, Sendable {
    /// An instant of a manual clock: a duration since the clock's origin.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// The time since the clock's origin.
        public var offset: Duration

        /// Makes the instant `offset` after the clock's origin.
        public init(offset: Duration = .zero) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let id: UInt64
        let condition: @Sendable ([Instant]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []
        var cancelledEarly: Set<UInt64> = []
        /// Sleeps begun, resumed or cancelled so far.
        var events = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        /// Removes and returns the waiters satisfied by the current number of sleepers.
        mutating func satisfiedWaiters() -> [Waiter] {
            let deadlines = sleepers.map(\.deadline)
            let ready = waiters.filter { $0.condition(deadlines) }
            waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
            return ready
        }
    }

    private let state: Mutex<State>

    /// Makes a clock whose time starts at `now`.
    public init(now: Instant = Instant()) {
        state = Mutex(State(now: now))
    }

    /// The current time.
    public var now: Instant { state.withLock { $0.now } }

    /// A manual clock is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of every task asleep on this clock.
    public var sleeperDeadlines: [Instant] { state.withLock { $0.sleepers.map(\.deadline) } }

    /// How many sleeps were begun, resumed or cancelled so far: a test bed watches it to tell
    /// when work has gone to sleep.
    package var events: Int { state.withLock { $0.events } }

    /// The earliest deadline a sleeper is waiting for, or `nil` when nobody sleeps.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until `deadline`, which only ``advance(by:sourceLocation:)``, ``advance(to:sourceLocation:)`` or ``run(sourceLocation:)`` can bring.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before or while it sleeps.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        try await whileRegistered { id in
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Registration {
                    case slept([Waiter])
                    case due, cancelled
                }
                let registration = state.withLock { state -> Registration in
                    if state.cancelledEarly.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    state.events += 1
                    return .slept(state.satisfiedWaiters())
                }
                switch registration {
                case .slept(let waiters): waiters.forEach { $0.continuation.resume() }
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } takingOut: { state, id in
            guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
            state.events += 1
            let sleeper = state.sleepers.remove(at: index)
            return { sleeper.continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Runs `operation`, which stores a continuation in the state under a new identifier, so that
    /// cancelling the task takes the continuation out (`takeOut` returns how to resume it) and
    /// resumes it at once. A cancellation that comes before the continuation is stored is marked
    /// in `cancelledEarly`, where `operation` finds it; the mark never outlives the call.
    private func whileRegistered<Value>(
        _ operation: (UInt64) async throws -> Value,
        takingOut takeOut: @escaping @Sendable (inout State, UInt64) -> (@Sendable () -> Void)?
    ) async rethrows -> Value {
        let id = state.withLock { $0.makeID() }
        defer { state.withLock { _ = $0.cancelledEarly.remove(id) } }
        return try await withTaskCancellationHandler {
            try await operation(id)
        } onCancel: {
            let resume = state.withLock { state -> (@Sendable () -> Void)? in
                if let resume = takeOut(&state, id) { return resume }
                state.cancelledEarly.insert(id)
                return nil
            }
            resume?()
        }
    }

    /// Resumes every task asleep on this clock with `CancellationError`: what an owner of the
    /// clock does when it goes away, so nothing sleeps on it forever.
    package func cancelSleepers() {
        let sleepers = state.withLock { state in
            defer { state.sleepers = [] }
            state.events += state.sleepers.count
            return state.sleepers
        }
        sleepers.forEach { $0.continuation.resume(throwing: CancellationError()) }
    }

    /// Returns once at least `count` tasks are asleep on this clock.
    ///
    /// This is the rendezvous a test uses before advancing: it guarantees the code under test has
    /// reached its sleep, so the advance cannot slip in before it. It returns at once if the task
    /// is cancelled.
    public func sleepers(atLeast count: Int) async {
        await sleepers { $0.count >= count }
    }

    /// Returns once the deadlines of the tasks asleep on this clock satisfy `condition`.
    ///
    /// The condition is checked now and each time a task goes to sleep. It returns at once if the
    /// task is cancelled.
    public func sleepers(where condition: @escaping @Sendable (_ deadlines: [Instant]) -> Bool) async {
        await whileRegistered { id in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if condition(state.sleepers.map(\.deadline)) || state.cancelledEarly.remove(id) != nil {
                        return true
                    }
                    state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } takingOut: { state, id in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = state.waiters.remove(at: index)
            return { waiter.continuation.resume() }
        }
    }

    /// Returns once the deadlines of the tasks asleep on this clock satisfy `condition`, or after
    /// `timeout` of real time, whichever comes first.
    ///
    /// For a waiter whose condition may stop mattering without any change on the clock.
    package func sleepers(
        within timeout: Duration, where condition: @escaping @Sendable (_ deadlines: [Instant]) -> Bool
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = state.withLock { state -> UInt64? in
                if condition(state.sleepers.map(\.deadline)) { return nil }
                let id = state.makeID()
                state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                return id
            }
            guard let id else { return continuation.resume() }
            let nanoseconds = Int(timeout.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                let waiter = state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                waiter?.continuation.resume()
            }
        }
    }

    /// Moves time forward by `duration`, resuming every sleeper whose deadline is reached, earliest first.
    ///
    /// - Returns: how many sleepers were resumed.
    @discardableResult
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        guard duration >= .zero else {
            TestIssues.record(
                "ManualClock.advance(by: \(duration)): time only moves forward. Advance by a duration of zero or more, or make a new ManualClock to start over.",
                sourceLocation: sourceLocation
            )
            return 0
        }
        return advance(to: now.advanced(by: duration), sourceLocation: sourceLocation)
    }

    /// Moves time forward to `deadline`, resuming every sleeper whose deadline is reached, earliest first.
    ///
    /// - Returns: how many sleepers were resumed.
    @discardableResult
    public func advance(to deadline: Instant, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let due = state.withLock { state -> [Sleeper]? in
            guard deadline >= state.now else { return nil }
            state.now = deadline
            let due = state.sleepers.enumerated()
                .filter { $0.element.deadline <= deadline }
                .sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }
                .map(\.element)
            state.sleepers.removeAll { $0.deadline <= deadline }
            state.events += due.count
            return due
        }
        guard let due else {
            TestIssues.record(
                "ManualClock.advance(to: \(deadline)) is before now (\(now)): time only moves forward. Advance to a later instant, or use advance(by:).",
                sourceLocation: sourceLocation
            )
            return 0
        }
        due.forEach { $0.continuation.resume() }
        return due.count
    }

    /// Moves time to the latest deadline any current sleeper waits for, resuming them all in order.
    ///
    /// Sleepers that go back to sleep afterwards are not resumed; to play a wait alert to its end,
    /// use ``WaitAlertTestBed/run(limit:sourceLocation:)``, which lets the alert react between deadlines.
    ///
    /// - Returns: how many sleepers were resumed.
    @discardableResult
    public func run(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        guard let last = state.withLock({ $0.sleepers.map(\.deadline).max() }) else { return 0 }
        return advance(to: max(last, now), sourceLocation: sourceLocation)
    }
}

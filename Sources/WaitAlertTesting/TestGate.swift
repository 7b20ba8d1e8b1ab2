import Synchronization

/// A one-shot gate between a test and the work it drives: the work waits, the test opens.
///
/// ``wait()`` is cancellation-aware: it throws `CancellationError` when the waiting task is
/// cancelled before the gate opens, as well-behaved work does. ``waitIgnoringCancellation()``
/// stands for work that does not react to cancellation (to test timeouts and Ctrl-C with
/// stubborn work).
///
/// ```swift
/// let gate = TestGate()
/// let work = bed.start {
///     try await withWaitAlert("Loading…", presenter: bed.presenter) { _ in try await gate.wait() }
/// }
/// await bed.advance(by: .seconds(1))
/// gate.open()
/// try await bed.run(until: work)
/// ```
public final class TestGate: Sendable {
    private struct State {
        var isOpen = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        /// Waiters cancelled before they stored their continuation.
        var cancelledEarly: Set<Int> = []
        var quietWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Makes a closed gate.
    public init() {}

    /// Whether ``open()`` was called.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Lets every waiter through, now and later.
    public func open() {
        let (waiters, quiet) = state.withLock { state in
            state.isOpen = true
            defer {
                state.waiters = [:]
                state.quietWaiters = []
            }
            return (Array(state.waiters.values), state.quietWaiters)
        }
        waiters.forEach { $0.resume() }
        quiet.forEach { $0.resume() }
    }

    /// Waits until the gate is open.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the gate opens.
    public func wait() async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Registration { case open, cancelled, waiting }
                let registration = state.withLock { state -> Registration in
                    if state.isOpen { return .open }
                    if state.cancelledEarly.remove(id) != nil { return .cancelled }
                    state.waiters[id] = continuation
                    return .waiting
                }
                switch registration {
                case .open: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    if !state.isOpen { state.cancelledEarly.insert(id) }
                    return nil as CheckedContinuation<Void, any Error>?
                }
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
        state.withLock { _ = $0.cancelledEarly.remove(id) }
    }

    /// Waits until the gate is open, whatever happens to the waiting task meanwhile.
    public func waitIgnoringCancellation() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.quietWaiters.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }
}

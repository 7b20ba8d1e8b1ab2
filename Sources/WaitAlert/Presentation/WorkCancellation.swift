import Synchronization

/// Cancels one alert's work from anywhere — the caller's cancellation, a sibling's failure, a
/// timeout, Ctrl-C — whether the work has not started yet, runs without ever suspending, or has
/// ended.
///
/// The work's task enters as the first thing it does, before the operation runs. A request made
/// before that cancels the task as it enters; a request made while it runs cancels it on the
/// spot, even while it still runs inline in the code that started it (a `Task.immediate` that has
/// not returned yet, so no `Task` handle exists). A request made after it left does nothing.
final class WorkCancellation: Sendable {
    private enum State {
        case notStarted
        case requested
        case running(RunningTask)
        case ended
    }

    /// The work's task while it runs. The reference does not keep the task alive: it is taken
    /// when the task enters, and the task leaves only once no request is cancelling it, so a
    /// request never reaches a task that has ended.
    private struct RunningTask: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    private struct Requests {
        /// Whether a request reached the work before it ended.
        var made = false
        /// Told of the first such request (``whenRequested(_:)``).
        var tell: (@Sendable () -> Void)?
    }

    private let state = Mutex((state: State.notStarted, cancelling: 0, requests: Requests()))

    init() {}

    /// Has `tell` called once, at the first request that reaches the work before it ends (at
    /// once if one already has): the alert then says it is cancelling until the work notices.
    func whenRequested(_ tell: @escaping @Sendable () -> Void) {
        let made = state.withLock { state -> Bool in
            if !state.requests.made { state.requests.tell = tell }
            return state.requests.made
        }
        if made { tell() }
    }

    /// Asks for the work to be cancelled. The task is cancelled outside the lock (its
    /// cancellation handlers run then, and may ask again), while ``leave()`` waits for it.
    func cancel() {
        let (running, tell) = state.withLock { state -> (RunningTask?, (@Sendable () -> Void)?) in
            let tell = state.requests.tell
            switch state.state {
            case .notStarted:
                state.state = .requested
            case .running(let running):
                state.cancelling += 1
                guard !state.requests.made else { return (running, nil) }
                state.requests = Requests(made: true)
                return (running, tell)
            case .requested, .ended:
                return (nil, nil)
            }
            state.requests = Requests(made: true)
            return (nil, tell)
        }
        tell?()
        guard let running else { return }
        running.task.cancel()
        state.withLock { $0.cancelling -= 1 }
    }

    /// Registers the current task as the work: cancellation requested before now cancels it at
    /// once, and cancellation requested until ``leave()`` reaches it. Call it first thing in the
    /// work's task.
    func enter() {
        withUnsafeCurrentTask { task in
            guard let task else { return }
            let requested = state.withLock { state -> Bool in
                let requested = if case .requested = state.state { true } else { false }
                state.state = .running(RunningTask(task: task))
                return requested
            }
            if requested { task.cancel() }
        }
    }

    /// The work has ended: later requests do nothing. Call it last thing in the work's task; it
    /// waits for a request that is cancelling the task right now.
    func leave() {
        while true {
            let left = state.withLock { state -> Bool in
                guard state.cancelling == 0 else { return false }
                state.state = .ended
                return true
            }
            if left { return }
            Platform.yieldProcessor()
        }
    }
}

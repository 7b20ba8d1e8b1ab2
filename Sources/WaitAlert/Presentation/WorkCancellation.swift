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
    /// when the task enters and dropped, under the same lock, before the task leaves, so a
    /// request never reaches a task that has ended.
    private struct RunningTask: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    private let state = Mutex(State.notStarted)

    init() {}

    /// Asks for the work to be cancelled.
    func cancel() {
        state.withLock { state in
            switch state {
            case .notStarted: state = .requested
            case .running(let running): running.task.cancel()
            case .requested, .ended: break
            }
        }
    }

    /// Registers the current task as the work: cancellation requested before now cancels it at
    /// once, and cancellation requested until ``leave()`` reaches it. Call it first thing in the
    /// work's task.
    func enter() {
        withUnsafeCurrentTask { task in
            guard let task else { return }
            state.withLock { state in
                if case .requested = state { task.cancel() }
                state = .running(RunningTask(task: task))
            }
        }
    }

    /// The work has ended: later requests do nothing. Call it last thing in the work's task.
    func leave() {
        state.withLock { $0 = .ended }
    }
}

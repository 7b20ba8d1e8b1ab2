import Synchronization

/// Follows a task the test bed was asked to play to its end.
@MainActor
final class WorkWatch {
    private(set) var hasEnded = false
    private var endHandlers: [() -> Void] = []

    /// Watches `work`; `ended` runs on the main actor once it has returned or thrown.
    init<Value: Sendable>(_ work: Task<Value, any Error>, ended: @escaping @MainActor () -> Void) {
        Task { @MainActor [weak self] in
            _ = await work.result
            ended()
            guard let self else { return }
            hasEnded = true
            endHandlers.forEach { $0() }
            endHandlers = []
        }
    }

    /// Runs `handler` once the work has ended (at once if it has).
    func onEnd(_ handler: @escaping () -> Void) {
        if hasEnded { handler() } else { endHandlers.append(handler) }
    }
}

/// A one-shot signal with a bounded wait: the first of ``signal()`` and the timeout wins.
final class Progress: Sendable {
    private let state = Mutex<(signalled: Bool, waiter: CheckedContinuation<Bool, Never>?)>((false, nil))

    /// Ends the wait, now or when it starts, with `true`.
    func signal() { resume(true) }

    /// Waits for ``signal()``, at most `timeout` of real time (only a test that is stuck waits
    /// that long).
    func wait(timeout: Duration) async -> Bool {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            resume(false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let signalled = state.withLock { state -> Bool in
                if state.signalled { return true }
                state.waiter = continuation
                return false
            }
            if signalled { continuation.resume(returning: true) }
        }
    }

    private func resume(_ value: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if value { state.signalled = true }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }
}

import Synchronization

/// The mailboxes whose driver has a wake-up scheduled on the main actor that has not run yet.
///
/// A program that ends right after reporting (`alert.succeed("Synced")` as its last statement,
/// from another thread) exits before those wake-ups run; the exit flush applies them first, so
/// the final line is printed.
enum PendingWakes {
    /// A wake-up that has not run: how to apply its reports now, and its place among the others.
    private struct Pending {
        var order: UInt64
        var apply: @Sendable () -> Void
    }

    private static let pending = Mutex<[ObjectIdentifier: Pending]>([:])
    private static let flushInstalled = Atomic<Bool>(false)

    /// Records that `owner` (a mailbox) has a wake-up scheduled; `apply` applies its reports now,
    /// in `order` among the others (the order alerts began).
    static func insert(_ owner: ObjectIdentifier, order: UInt64, apply: @escaping @Sendable () -> Void) {
        pending.withLock { $0[owner] = Pending(order: order, apply: apply) }
    }

    static func remove(_ owner: ObjectIdentifier) {
        pending.withLock { $0[owner] = nil }
    }

    /// Registers the exit flush once per process.
    static func installExitFlush() {
        guard !flushInstalled.exchange(true, ordering: .relaxed) else { return }
        ProcessExit.add(.flush) {
            // Only where the main actor runs can reports be applied; elsewhere nothing can be done.
            guard MainThread.isCurrent else { return }
            let waiting = pending.withLock { $0.values.sorted { $0.order < $1.order } }
            for entry in waiting { entry.apply() }  // in the order alerts began
        }
    }
}

import Synchronization

/// The mailboxes whose driver has a wake-up scheduled on the main actor that has not run yet.
///
/// A program that ends right after reporting (`alert.succeed("Synced")` as its last statement,
/// from another thread) exits before those wake-ups run; the exit flush applies them first, so
/// the final line is printed.
enum PendingWakes {
    private static let mailboxes = Mutex<[ObjectIdentifier: ReportMailbox]>([:])
    private static let flushInstalled = Atomic<Bool>(false)

    static func insert(_ mailbox: ReportMailbox) {
        mailboxes.withLock { $0[ObjectIdentifier(mailbox)] = mailbox }
    }

    static func remove(_ mailbox: ReportMailbox) {
        mailboxes.withLock { $0[ObjectIdentifier(mailbox)] = nil }
    }

    /// Registers the exit flush once per process.
    static func installExitFlush() {
        guard !flushInstalled.exchange(true, ordering: .relaxed) else { return }
        ProcessExit.add(.flush) {
            // Only where the main actor runs can reports be applied; elsewhere nothing can be done.
            guard MainThread.isCurrent else { return }
            let pending = mailboxes.withLock { $0.values.sorted { $0.sequence < $1.sequence } }
            for mailbox in pending { mailbox.applyNowIfOnMainActor() }  // in the order alerts began
        }
    }
}

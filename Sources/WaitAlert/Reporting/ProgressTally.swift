// Public because a wrapped loop's `next()` is inlined into callers, tally and all.
public import Synchronization

/// What a loop wrapped by `reportingProgress(to:)` has counted, read by its alert's mailbox
/// when the display can use it.
///
/// The loop costs a store and a load per element, no lock: the iterating thread alone writes
/// `done` (a relaxed load and store, plain moves on every processor), and adds nothing to the
/// mailbox itself unless the drainer has said it wants progress (``ReportMailbox/progressWanted``,
/// at most once a frame). Whatever the loop counted since is added by the mailbox under its lock —
/// when the drainer takes the batch, when the alert ends, when the iterator goes away — from
/// `published`, which only the lock's holder touches, so no count is lost or counted twice, and
/// the count is exact at the end whichever thread iterated.
@usableFromInline
final class ProgressTally: Sendable {
    /// Units counted by the iterating thread; written by it alone.
    @usableFromInline let done = Atomic<Int>(0)
    /// How much of `done` the mailbox has added; read and written under the mailbox's lock.
    nonisolated(unsafe) var published = 0
    @usableFromInline let mailbox: ReportMailbox

    @usableFromInline
    init(mailbox: ReportMailbox) {
        self.mailbox = mailbox
        mailbox.register(self)
    }

    deinit {
        mailbox.unregister(self)
    }

    /// Counts `units` more; hands the count to the mailbox if its drainer wants progress now.
    @inlinable @inline(__always)
    func count(_ units: Int) {
        done.store(done.load(ordering: .relaxed) &+ units, ordering: .relaxed)
        if mailbox.progressWanted.load(ordering: .relaxed) { mailbox.publishTallies() }
    }

    /// Hands what is counted to the mailbox now: the loop has ended.
    @usableFromInline
    func publish() {
        mailbox.publishTallies()
    }
}

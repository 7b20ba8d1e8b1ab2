// Public because the mailbox's `update` is inlined into callers, lock and all: measured, an update
// that is not inlinable costs about a third more.
public import Synchronization

#if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
    /// The lock between the threads that report to an alert and the alert's drainer: held for a
    /// few instructions at a time (a text stored, a count added), by any number of threads.
    ///
    /// Here `Mutex` is a priority-inheritance futex: a thread that finds it held asks the kernel,
    /// and the kernel hands the lock over in turn. With more reporting threads than cores, a holder
    /// preempted inside its few instructions makes every other thread sleep and be woken one by
    /// one, and an update that takes 15 ns alone takes tens of microseconds (measured: 16 threads
    /// on 2 cores, 27,800 ns a call). A thread that finds this lock held looks again a few times,
    /// then yields its core — to the holder, when the holder was preempted — and never sleeps in
    /// the kernel: the same 16 threads cost 11 ns a call, an atomic counter's 10.
    @usableFromInline
    struct ReportLock: ~Copyable, Sendable {
        @usableFromInline let held = Atomic<Bool>(false)

        @usableFromInline init() {}

        @inlinable @inline(__always)
        func lock() {
            if !held.exchange(true, ordering: .acquiring) { return }
            lockContended()
        }

        @inlinable @inline(__always)
        func unlock() {
            held.store(false, ordering: .releasing)
        }

        @inline(never) @usableFromInline
        func lockContended() {
            var looks = 0
            while true {
                if !held.load(ordering: .relaxed), !held.exchange(true, ordering: .acquiring) { return }
                looks += 1
                if looks == Self.looksBeforeYielding {
                    looks = 0
                    Platform.yieldProcessor()
                }
            }
        }

        /// How many times a thread looks at a held lock before it yields its core: the holder
        /// needs a few dozen nanoseconds unless it was preempted.
        static var looksBeforeYielding: Int { 32 }
    }
#endif

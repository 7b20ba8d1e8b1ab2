// Public because a wrapped loop's `next()` and `advance` are inlined into callers, counts and all.
public import Synchronization

#if canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#elseif canImport(Android)
    public import Android
#elseif canImport(Darwin)
    public import Darwin
#endif

// Counts made without the mailbox's lock: a wrapped loop's, and each thread's calls of `advance`.
//
// Each count has one writer at a time — the iterating thread, the thread that owns the slot — so
// counting is a relaxed load and store of a number (plain moves on every processor), no lock and
// no read-modify-write. The writer takes the lock only to note the first progress since the
// drainer last drained (``ReportMailbox/progressNoted``): at most once a frame while the alert
// shows. Whatever was counted since is added under the lock — when the drainer drains, when the
// alert ends, when a loop's iterator goes away — from `published`, which only the lock's holder
// touches, so no count is lost or added twice, and the count is exact at the end whichever thread
// counted.
extension ReportMailbox {
    /// What a loop wrapped by `reportingProgress(to:)` has counted, read by its alert's mailbox
    /// when the display can use it.
    @usableFromInline
    final class LoopCount: Sendable {
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

        /// Counts `units` more; hands the count to the mailbox unless progress is already noted
        /// for the drainer's next look.
        @inlinable @inline(__always)
        func count(_ units: Int) {
            done.store(done.load(ordering: .relaxed) &+ units, ordering: .relaxed)
            if !mailbox.progressNoted.load(ordering: .relaxed) { mailbox.publishCounts() }
        }

        /// Hands what is counted to the mailbox now: the loop has ended.
        @usableFromInline
        func publish() {
            mailbox.publishCounts()
        }
    }

    /// The wrapped loops counting into an alert: read and written under the mailbox's lock.
    @usableFromInline
    final class TallyList: @unchecked Sendable {
        var entries: [ObjectIdentifier: Unmanaged<LoopCount>] = [:]
    }

    /// A wrapped loop starts counting into this alert.
    func register(_ tally: LoopCount) {
        withState { state in
            let tallies = state.tallies ?? TallyList()
            tallies.entries[ObjectIdentifier(tally)] = Unmanaged.passUnretained(tally)
            state.tallies = tallies
        }
    }

    /// A wrapped loop goes away: what it counted since is added first.
    func unregister(_ tally: LoopCount) {
        withState { state in
            if state.collectCounts(self) { state.noteProgress(self) }
            state.tallies?.entries[ObjectIdentifier(tally)] = nil
        }
    }

    /// Adds what wrapped loops and threads counted on their own, noting the progress for the
    /// drainer: it is woken when armed for progress.
    @inline(never) @usableFromInline
    func publishCounts() {
        withState { state in
            if state.collectCounts(self) { state.noteProgress(self) }
        }
    }

    /// What one thread has added with `advance` without the lock: a slot of ``threadCounts``,
    /// owned by the thread that claimed it. Padded so that the counts of two slots never share a
    /// cache line: threads counting at once do not slow each other down.
    @usableFromInline
    final class ThreadCount: Sendable {
        /// The thread that claimed the slot (``currentThread()``); 0 while the slot is free.
        @usableFromInline let owner = Atomic<UInt>(0)
        /// Units counted by the owner; written by it alone.
        @usableFromInline let done = Atomic<Int>(0)
        /// How much of `done` the mailbox has added; read and written under the lock.
        nonisolated(unsafe) var published = 0
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        init() {}
    }

    /// How many threads count on their own; more call `advance` under the lock. Twice as many
    /// as a program usually has threads reporting to one alert, so that a thread's slot is almost
    /// always the first it looks at, or the next.
    @usableFromInline static var threadSlots: Int { 32 }
    /// The most units one `advance` counts on its thread, and the most a thread's count reaches
    /// before the lock adds it and starts it again: far below `Int.max`, so it never wraps around.
    @usableFromInline static var largestCountAlone: Int { 1 << 32 }
    @usableFromInline static var mostCountedAlone: Int { 1 << 62 }

    /// The calling thread, as a number other than 0.
    @inlinable @inline(__always)
    static func currentThread() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Where the search for `thread`'s slot starts (Fibonacci hashing: the high bits of a product).
    @inlinable @inline(__always)
    static func firstSlot(of thread: UInt) -> Int {
        Int(
            truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth &- threadSlots.trailingZeroBitCount)
        ) & (threadSlots &- 1)
    }

    /// Adds `units` to the calling thread's own count, if it has one: whether it did. Inlined: a
    /// thread's count is in its first slot or the next unless several threads' slots collide.
    @inlinable @inline(__always)
    func countOnThread(_ units: Int) -> Bool {
        guard units >= 0, units <= Self.largestCountAlone, let counts = threadCounts.load(ordering: .acquiring) else {
            return false
        }
        let thread = Self.currentThread()
        let first = Self.firstSlot(of: thread)
        let second = (first &+ 1) & (Self.threadSlots &- 1)
        if counts[first]._withUnsafeGuaranteedRef({ $0.owner.load(ordering: .relaxed) == thread }) {
            return counts[first]._withUnsafeGuaranteedRef { Self.count(units, in: $0) }
        }
        if counts[second]._withUnsafeGuaranteedRef({ $0.owner.load(ordering: .relaxed) == thread }) {
            return counts[second]._withUnsafeGuaranteedRef { Self.count(units, in: $0) }
        }
        return countInLaterSlot(units, of: thread, after: second)
    }

    /// Adds `units` to `count`, the calling thread's: whether it did (not when the count would
    /// grow too large, which the lock then adds and starts again).
    @inlinable @inline(__always)
    static func count(_ units: Int, in count: ThreadCount) -> Bool {
        let done = count.done.load(ordering: .relaxed) &+ units
        guard done < mostCountedAlone else { return false }
        count.done.store(done, ordering: .relaxed)
        return true
    }

    /// Looks for `thread`'s count in the slots after `slot`, and adds `units` to it.
    @inline(never) @usableFromInline
    func countInLaterSlot(_ units: Int, of thread: UInt, after slot: Int) -> Bool {
        guard let counts = threadCounts.load(ordering: .acquiring) else { return false }
        var slot = slot
        for _ in 2..<Self.threadSlots {
            slot = (slot &+ 1) & (Self.threadSlots &- 1)
            let count = counts[slot].takeUnretainedValue()
            let owner = count.owner.load(ordering: .relaxed)
            if owner == thread { return Self.count(units, in: count) }
            if owner == 0 { return false }
        }
        return false
    }
}

extension ReportMailbox.State {
    /// Gives the calling thread a count of its own, if a slot is free, so that its next calls of
    /// `advance` count without the lock; a count grown large is added and starts again at zero.
    @usableFromInline
    mutating func prepareThreadCount(_ mailbox: ReportMailbox) {
        let counts: UnsafeMutablePointer<Unmanaged<ReportMailbox.ThreadCount>>
        if let made = mailbox.threadCounts.load(ordering: .relaxed) {
            counts = made
        } else {
            // Every slot is made now, before the table is shared: it never changes afterwards.
            counts = .allocate(capacity: ReportMailbox.threadSlots)
            for slot in 0..<ReportMailbox.threadSlots {
                (counts + slot).initialize(to: .passRetained(ReportMailbox.ThreadCount()))
            }
            mailbox.threadCounts.store(counts, ordering: .releasing)
        }
        let thread = ReportMailbox.currentThread()
        var slot = ReportMailbox.firstSlot(of: thread)
        for _ in 0..<ReportMailbox.threadSlots {
            let count = counts[slot].takeUnretainedValue()
            let owner = count.owner.load(ordering: .relaxed)
            if owner == 0 { count.owner.store(thread, ordering: .relaxed) }
            if owner == 0 || owner == thread {
                let done = count.done.load(ordering: .relaxed)
                if done >= ReportMailbox.mostCountedAlone / 2 {
                    add(done &- count.published)
                    count.done.store(0, ordering: .relaxed)
                    count.published = 0
                }
                return
            }
            slot = (slot &+ 1) & (ReportMailbox.threadSlots &- 1)
        }
    }

    /// Adds what each wrapped loop and each thread counted on its own since it was last added;
    /// whether anything was.
    mutating func collectCounts(_ mailbox: ReportMailbox) -> Bool {
        guard !textsClosed else { return false }
        let added = takeOwnCounts(mailbox)
        guard added != 0 else { return false }
        add(added)
        return true
    }

    /// Drops what loops and threads counted on their own and was not added yet: a progress set or
    /// cleared now replaces it.
    @inlinable
    mutating func discardCounts(_ mailbox: ReportMailbox) {
        guard tallies != nil || mailbox.threadCounts.load(ordering: .relaxed) != nil else { return }
        _ = takeOwnCounts(mailbox)
    }

    /// What wrapped loops and threads counted on their own since it was last taken, taken now
    /// (saturating).
    @usableFromInline
    mutating func takeOwnCounts(_ mailbox: ReportMailbox) -> Int {
        var taken = 0
        func take(_ done: Int, _ published: inout Int) {
            taken = ReportMailbox.saturating(taken, done &- published)
            published = done
        }
        if let tallies {
            for tally in tallies.entries.values {
                let tally = tally.takeUnretainedValue()
                take(tally.done.load(ordering: .relaxed), &tally.published)
            }
        }
        if let counts = mailbox.threadCounts.load(ordering: .relaxed) {
            for slot in 0..<ReportMailbox.threadSlots {
                let count = counts[slot].takeUnretainedValue()
                take(count.done.load(ordering: .relaxed), &count.published)
            }
        }
        return taken
    }

    /// Adds `units` to the count done, saturating.
    private mutating func add(_ units: Int) {
        var progress = progress ?? ReportMailbox.Progress(completed: 0, total: nil, unit: .count)
        progress.completed = ReportMailbox.saturating(progress.completed, units)
        self.progress = progress
    }
}

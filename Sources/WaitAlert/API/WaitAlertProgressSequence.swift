/// A sequence whose iteration reports how far it has gone to an alert or a row: what tqdm's
/// `for x in tqdm(items)` is to Python.
///
/// Make one with `reportingProgress(to:)` on any sequence:
///
/// ```swift
/// try await withWaitAlert("Resizing pictures…") { alert in
///     for picture in pictures.reportingProgress(to: alert) {
///         try await resize(picture)
///     }
/// }
/// ```
///
/// Progress counts the elements whose work is done: an element counts once the loop asks for the
/// next one (or ends), so the bar shows `3/10` while the fourth is being worked on. The total is
/// the collection's `count`; for a sequence that is not a collection, the `total` given, or
/// unknown. The unit is the one given, else a plain count. Iterating starts the progress again at
/// zero. An element costs about a nanosecond, from any thread or isolation: the loop counts on its
/// own and hands its count to the alert when the display can use it (at most once a frame), when
/// it ends, and when the alert ends, so the count shown at the end is exact.
public struct WaitAlertProgressSequence<Base: Sequence>: Sequence {
    @usableFromInline let base: Base
    @usableFromInline let mailbox: ReportMailbox
    @usableFromInline let total: Int?
    @usableFromInline let unit: WaitAlertProgressUnit?
    /// A handle's owner, kept while the sequence is: the alert lasts as long as its iteration.
    @usableFromInline let keeps: WaitAlertHandle.Owner?

    @usableFromInline
    init(
        base: Base, mailbox: ReportMailbox, total: Int?, unit: WaitAlertProgressUnit?,
        keeps: WaitAlertHandle.Owner? = nil
    ) {
        self.base = base
        self.mailbox = mailbox
        self.total = total
        self.unit = unit
        self.keeps = keeps
    }

    @inlinable
    public func makeIterator() -> Iterator {
        mailbox.progress(completed: 0, total: total, unit: unit)
        return Iterator(base: base.makeIterator(), mailbox: mailbox, keeps: keeps)
    }

    @inlinable
    public var underestimatedCount: Int { base.underestimatedCount }

    /// Iterates the base sequence, counting each element as done when the next is asked for.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: Base.Iterator
        /// What the loop counted, handed to the alert when its display can use it.
        @usableFromInline let tally: ReportMailbox.LoopCount
        @usableFromInline let keeps: WaitAlertHandle.Owner?
        /// Whether an element was handed out and not counted yet.
        @usableFromInline var handedOut = false

        @inlinable
        init(base: Base.Iterator, mailbox: ReportMailbox, keeps: WaitAlertHandle.Owner?) {
            self.base = base
            self.tally = ReportMailbox.LoopCount(mailbox: mailbox)
            self.keeps = keeps
        }

        @inlinable
        public mutating func next() -> Base.Element? {
            if handedOut { tally.count(1) }
            let element = base.next()
            handedOut = element != nil
            if !handedOut { tally.publish() }
            return element
        }
    }
}

extension WaitAlertProgressSequence: Sendable where Base: Sendable {}

extension Sequence {
    /// This sequence, reporting as it is iterated how many of its elements are done to `alert`
    /// (an alert or a child task's row): `total` when given, else unknown.
    @inlinable
    public func reportingProgress(
        to alert: WaitAlertReporter, total: Int? = nil, unit: WaitAlertProgressUnit? = nil
    ) -> WaitAlertProgressSequence<Self> {
        WaitAlertProgressSequence(base: self, mailbox: alert.mailbox, total: total, unit: unit ?? .count)
    }

    /// This sequence, reporting as it is iterated how many of its elements are done to the alert
    /// of `handle` (``showWaitAlert(_:timing:presenter:)``): `total` when given, else unknown.
    @inlinable
    public func reportingProgress(
        to handle: WaitAlertHandle, total: Int? = nil, unit: WaitAlertProgressUnit? = nil
    ) -> WaitAlertProgressSequence<Self> {
        WaitAlertProgressSequence(
            base: self, mailbox: handle.owner.mailbox, total: total, unit: unit ?? .count, keeps: handle.owner)
    }
}

extension Collection {
    /// This collection, reporting as it is iterated how many of its `count` elements are done to
    /// `alert` (an alert or a child task's row).
    @inlinable
    public func reportingProgress(
        to alert: WaitAlertReporter, unit: WaitAlertProgressUnit? = nil
    ) -> WaitAlertProgressSequence<Self> {
        WaitAlertProgressSequence(base: self, mailbox: alert.mailbox, total: count, unit: unit ?? .count)
    }

    /// This collection, reporting as it is iterated how many of its `count` elements are done to
    /// the alert of `handle`.
    @inlinable
    public func reportingProgress(
        to handle: WaitAlertHandle, unit: WaitAlertProgressUnit? = nil
    ) -> WaitAlertProgressSequence<Self> {
        WaitAlertProgressSequence(
            base: self, mailbox: handle.owner.mailbox, total: count, unit: unit ?? .count, keeps: handle.owner)
    }
}

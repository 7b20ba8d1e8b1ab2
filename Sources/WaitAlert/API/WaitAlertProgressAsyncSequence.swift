/// An asynchronous sequence whose iteration reports how far it has gone to an alert or a row:
/// elements done, or bytes read.
///
/// Make one with `reportingProgress(to:total:)` on any `AsyncSequence`:
///
/// - a sequence of bytes (`UInt8`, such as a file's or a download's bytes) counts the bytes read,
///   in ``WaitAlertProgressUnit/bytes``;
/// - a sequence of byte chunks (`[UInt8]`, or any collection of bytes) counts the bytes of each
///   chunk read, in bytes too;
/// - any other sequence counts its elements done, as ``WaitAlertProgressSequence`` does: an
///   element counts once the loop asks for the next one.
///
/// ```swift
/// try await withWaitAlert("Downloading…") { alert in
///     for try await chunk in download.chunks.reportingProgress(to: alert, total: size) {
///         try file.write(contentsOf: chunk)
///     }
/// }
/// ```
///
/// The total is the one given, or unknown; the unit the one given, else bytes or a plain count.
/// Iterating starts the progress again at zero. It
/// iterates on the caller's isolation (`next(isolation:)`), throws what the base sequence
/// throws, and costs about a nanosecond per element, byte or chunk: the loop counts on its own and
/// hands its count to the alert when the display can use it, when it ends, and when the alert
/// ends.
public struct WaitAlertProgressAsyncSequence<Base: AsyncSequence>: AsyncSequence {
    public typealias Element = Base.Element
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let mailbox: ReportMailbox
    @usableFromInline let total: Int?
    @usableFromInline let unit: WaitAlertProgressUnit?
    @usableFromInline let keeps: WaitAlertHandle.Owner?
    @usableFromInline let counting: Counting

    /// What an element counts for.
    @usableFromInline
    enum Counting {
        /// One, once the next element is asked for.
        case elements
        /// One byte, as it is read; reported 64 at a time.
        case bytes
        /// Its size, as it is read.
        case chunks((Base.Element) -> Int)
    }

    @usableFromInline
    init(
        base: Base, mailbox: ReportMailbox, total: Int?, unit: WaitAlertProgressUnit?, keeps: WaitAlertHandle.Owner?,
        counting: Counting
    ) {
        self.base = base
        self.mailbox = mailbox
        self.total = total
        self.unit = unit
        self.keeps = keeps
        self.counting = counting
    }

    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        mailbox.progress(completed: 0, total: total, unit: unit)
        return AsyncIterator(base: base.makeAsyncIterator(), mailbox: mailbox, keeps: keeps, counting: counting)
    }

    /// Iterates the base sequence, counting what each element stands for.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var base: Base.AsyncIterator
        /// What the loop counted, handed to the alert when its display can use it.
        @usableFromInline let tally: ReportMailbox.LoopCount
        @usableFromInline let keeps: WaitAlertHandle.Owner?
        @usableFromInline let counting: Counting
        /// Whether an element was handed out and not counted yet.
        @usableFromInline var handedOut = false

        @inlinable
        init(base: Base.AsyncIterator, mailbox: ReportMailbox, keeps: WaitAlertHandle.Owner?, counting: Counting) {
            self.base = base
            self.tally = ReportMailbox.LoopCount(mailbox: mailbox)
            self.keeps = keeps
            self.counting = counting
        }

        @inlinable
        public mutating func next() async throws -> Element? {
            countHandedOut()
            let element = try await base.next()
            count(element)
            return element
        }

        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            countHandedOut()
            let element = try await base.next(isolation: actor)
            count(element)
            return element
        }

        @inlinable
        mutating func countHandedOut() {
            guard handedOut else { return }
            handedOut = false
            tally.count(1)
        }

        @inlinable
        mutating func count(_ element: Element?) {
            guard let element else {
                tally.publish()
                return
            }
            switch counting {
            case .elements: handedOut = true
            case .bytes: tally.count(1)
            case .chunks(let size): tally.count(size(element))
            }
        }
    }
}

extension WaitAlertProgressAsyncSequence: @unchecked Sendable where Base: Sendable {}

extension AsyncSequence {
    /// This sequence, reporting as it is iterated how many of its elements are done to `alert`
    /// (an alert or a child task's row).
    @inlinable
    public func reportingProgress(
        to alert: WaitAlertReporter, total: Int? = nil, unit: WaitAlertProgressUnit? = nil
    ) -> WaitAlertProgressAsyncSequence<Self> {
        WaitAlertProgressAsyncSequence(
            base: self, mailbox: alert.mailbox, total: total, unit: unit ?? .count, keeps: nil, counting: .elements)
    }

    /// This sequence, reporting as it is iterated how many of its elements are done to the alert
    /// of `handle`.
    @inlinable
    public func reportingProgress(
        to handle: WaitAlertHandle, total: Int? = nil, unit: WaitAlertProgressUnit? = nil
    ) -> WaitAlertProgressAsyncSequence<Self> {
        WaitAlertProgressAsyncSequence(
            base: self, mailbox: handle.owner.mailbox, total: total, unit: unit ?? .count, keeps: handle.owner,
            counting: .elements)
    }
}

extension AsyncSequence where Element == UInt8 {
    /// These bytes, reporting as they are read how many were to `alert`, of `total` when given.
    @inlinable
    public func reportingProgress(
        to alert: WaitAlertReporter, total: Int? = nil, unit: WaitAlertProgressUnit? = .bytes
    ) -> WaitAlertProgressAsyncSequence<Self> {
        WaitAlertProgressAsyncSequence(
            base: self, mailbox: alert.mailbox, total: total, unit: unit, keeps: nil, counting: .bytes)
    }

    /// These bytes, reporting as they are read how many were to the alert of `handle`, of
    /// `total` when given.
    @inlinable
    public func reportingProgress(
        to handle: WaitAlertHandle, total: Int? = nil, unit: WaitAlertProgressUnit? = .bytes
    ) -> WaitAlertProgressAsyncSequence<Self> {
        WaitAlertProgressAsyncSequence(
            base: self, mailbox: handle.owner.mailbox, total: total, unit: unit, keeps: handle.owner,
            counting: .bytes)
    }
}

extension AsyncSequence where Element: Collection, Element.Element == UInt8 {
    /// These chunks of bytes, reporting as they are read how many bytes were to `alert`, of
    /// `total` when given.
    @inlinable
    public func reportingProgress(
        to alert: WaitAlertReporter, total: Int? = nil, unit: WaitAlertProgressUnit? = .bytes
    ) -> WaitAlertProgressAsyncSequence<Self> {
        WaitAlertProgressAsyncSequence(
            base: self, mailbox: alert.mailbox, total: total, unit: unit, keeps: nil, counting: .chunks { $0.count })
    }

    /// These chunks of bytes, reporting as they are read how many bytes were to the alert of
    /// `handle`, of `total` when given.
    @inlinable
    public func reportingProgress(
        to handle: WaitAlertHandle, total: Int? = nil, unit: WaitAlertProgressUnit? = .bytes
    ) -> WaitAlertProgressAsyncSequence<Self> {
        WaitAlertProgressAsyncSequence(
            base: self, mailbox: handle.owner.mailbox, total: total, unit: unit, keeps: handle.owner,
            counting: .chunks { $0.count })
    }
}

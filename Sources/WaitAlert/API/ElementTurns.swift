/// The elements of a group of child tasks (`tasks(for:)`), taken one at a time as slots free up,
/// and how many of those not taken yet the group counts as waiting.
///
/// A random-access collection's size is known at once: every element is counted. Another
/// sequence promises its `underestimatedCount`: so many are counted, and more may come until the
/// sequence ends.
struct ElementTurns<Elements: Sequence> {
    private var iterator: Elements.Iterator
    /// The elements counted as waiting and not taken yet.
    private(set) var counted: Int
    /// Whether more elements may come than are counted.
    private(set) var isUncounted: Bool
    /// Whether the sequence has ended.
    private var ended = false
    /// Whether its end has been taken into account (``takeEnd()``).
    private var endTaken = false

    init(_ elements: Elements) {
        if let exact = Self.count(of: elements) {
            (counted, isUncounted) = (exact, false)
        } else {
            (counted, isUncounted) = (max(elements.underestimatedCount, 0), true)
        }
        iterator = elements.makeIterator()
    }

    /// The size of `elements` when it is known without going through them.
    private static func count(of elements: Elements) -> Int? {
        (elements as? any RandomAccessCollection)?.count
    }

    /// The next element, and whether it was counted as waiting; `nil` once the sequence has ended.
    mutating func next() -> (Elements.Element, counted: Bool)? {
        guard !ended, let element = iterator.next() else {
            ended = true
            return nil
        }
        guard counted > 0 else { return (element, false) }
        counted -= 1
        return (element, true)
    }

    /// Once the sequence has ended, the first time: whether it was uncounted, and how many it was
    /// counted for and did not hold (no longer waiting); `nil` otherwise.
    mutating func takeEnd() -> (uncounted: Bool, unfilled: Int)? {
        guard ended, !endTaken else { return nil }
        endTaken = true
        defer { (counted, isUncounted) = (0, false) }
        return (isUncounted, counted)
    }

    /// What a group that stopped early did not take, for its recap: the titles of up to `limit`
    /// more elements (taken from the sequence now: those named are planned steps from now on),
    /// the change in the count of tasks waiting, and `-1` when the group no longer may have more
    /// tasks than it counts (the sequence ended meanwhile). `nil` when nothing was left. Nothing
    /// is taken after it.
    mutating func takeNotRun(
        naming limit: Int, title: (Elements.Element) -> String
    ) -> (titles: [String], waitingChange: Int, uncountedChange: Int)? {
        guard !endTaken else { return nil }
        let (countedBefore, wasUncounted) = (counted, isUncounted)
        var titles: [String] = []
        while titles.count < limit, let (element, _) = next() { titles.append(title(element)) }
        let waitingLeft = ended ? 0 : counted
        let endsUncounted = wasUncounted && ended
        (endTaken, counted, isUncounted) = (true, 0, false)
        guard !titles.isEmpty || countedBefore > 0 || wasUncounted else { return nil }
        return (titles, waitingLeft - countedBefore, endsUncounted ? -1 : 0)
    }
}

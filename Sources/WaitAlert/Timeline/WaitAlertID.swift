import Synchronization

/// Identifies one alert, unique within the process.
public struct WaitAlertID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Increases with every alert made, so ids sort in the order alerts began.
    package let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// Makes a new identifier, different from every other: for a custom renderer's tests.
    public init() {
        rawValue = Self.counter.add(1, ordering: .relaxed).newValue
    }

    static func next() -> WaitAlertID { WaitAlertID() }

    /// The identifier numbered `rawValue`, for an id another process chose (the event stream's
    /// `id`): it names an alert of that process, not of this one.
    package init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The top-level alert above this one (itself when it is one), following `parent` — at most
    /// 64 steps, so a cycle cannot hang a renderer.
    func root(parent: (WaitAlertID) -> WaitAlertID?) -> WaitAlertID {
        var current = self
        var steps = 0
        while let above = parent(current), steps < 64 {
            current = above
            steps += 1
        }
        return current
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The hash sets and dictionaries place an id by: the seed they give mixed into the number
    /// with SplitMix64's finalizer, a handful of instructions instead of a whole SipHash. The
    /// presenter and the task region look ids up a dozen times over an alert's life, and this
    /// makes an alert that returns at once measurably cheaper. The seed is the set's own, drawn
    /// from the process's random seed, so ids a child process chooses cannot be aimed at one
    /// bucket.
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = rawValue ^ UInt64(UInt(bitPattern: seed))
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }
    public var description: String { "alert #\(rawValue)" }
}

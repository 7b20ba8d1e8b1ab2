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
    public var description: String { "alert #\(rawValue)" }
}

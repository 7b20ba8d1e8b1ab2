import Synchronization

/// Identifies one alert, unique within the process.
public struct WaitAlertID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Increases with every alert made, so ids sort in the order alerts began.
    public let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    static func next() -> WaitAlertID {
        WaitAlertID(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "alert #\(rawValue)" }
}

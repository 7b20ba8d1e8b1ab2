/// How far an alert's work has gone, when it knows: the count done, the total if known, the unit,
/// and the estimated rate and time left.
public struct WaitAlertProgress: Sendable, Hashable {
    /// Units done: never below zero in a snapshot.
    public var completed: Int
    /// Units in all, when known: in a snapshot, never below ``completed`` and never zero or less
    /// (a total of zero or less is reported as unknown).
    public var total: Int?
    /// What the units are.
    public var unit: WaitAlertProgressUnit
    /// Units per second, once known.
    public var rate: Double?
    /// The time left.
    public var remaining: WaitAlertRateEstimator.Remaining

    /// Makes a progress value (for renderers' tests and previews).
    public init(
        completed: Int, total: Int? = nil, unit: WaitAlertProgressUnit = .count, rate: Double? = nil,
        remaining: WaitAlertRateEstimator.Remaining = .unknown
    ) {
        self.completed = completed
        self.total = total
        self.unit = unit
        self.rate = rate
        self.remaining = remaining
    }

    /// The part done, 0 … 1, when the total is known (a total of zero or less is not).
    public var fraction: Double? {
        guard let total = knownTotal else { return nil }
        return min(max(Double(completed) / Double(total), 0), 1)
    }

    /// The total, when known: a total of zero or less counts as unknown.
    var knownTotal: Int? {
        guard let total, total > 0 else { return nil }
        return total
    }
}

/// What an alert's progress counts.
public enum WaitAlertProgressUnit: Sendable, Hashable {
    /// Plain items: `12/40`.
    case count
    /// Bytes, in powers of 1000: `1.2 MB`.
    case bytes
    /// Bytes, in powers of 1024: `1.2 MiB`.
    case binaryBytes
    /// The caller's own unit, named after the count: `12/40 files`.
    case named(String)
}

/// A duration written on the command line: a positive decimal number with an optional unit,
/// `ms`, `s` (the default), `m` or `h` — `500ms`, `30s`, `1.5m`, `2h`, `10`. Pure.
enum DurationArgument {
    /// The longest accepted: 365 days.
    static let longest = Duration.seconds(365 * 24 * 3600)
    /// ``longest``, as written in a message.
    static let longestText = "8760h (365 days)"

    /// Why a text is not an accepted duration.
    enum Problem: Error, Equatable {
        /// Empty, zero, negative, no digits, an unknown unit.
        case notADuration
        /// A duration, longer than ``longest``.
        case tooLong
    }

    /// The duration `text` names, or `nil` when it is not one.
    static func parse(_ text: String) -> Duration? {
        try? read(text).get()
    }

    /// The duration `text` names, or why it is not one.
    static func read(_ text: String) -> Result<Duration, Problem> {
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        let unit = units.first { text.hasSuffix($0.suffix) }
        let number = text.dropLast(unit?.suffix.count ?? 0)
        let scale = unit?.milliseconds ?? 1000
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0].drop { $0 == "0" }
        let fraction = parts.count == 2 ? parts[1] : ""
        let isDigits = { (part: Substring) in part.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard isDigits(parts[0]), isDigits(fraction), !(parts[0].isEmpty && fraction.isEmpty),
            parts.count == 1 || !fraction.isEmpty
        else { return .failure(.notADuration) }
        let longestMilliseconds: Int64 = 365 * 24 * 3600 * 1000
        guard whole.count <= 12, let units = whole.isEmpty ? 0 : Int64(whole), units <= longestMilliseconds / scale
        else { return .failure(.tooLong) }
        var duration = Duration.milliseconds(units * scale)
        if !fraction.isEmpty {
            // To the nanosecond; further digits are dropped.
            let digits = fraction.prefix(9)
            var divisor: Int64 = 1
            for _ in digits { divisor *= 10 }
            duration += .nanoseconds((Int64(digits) ?? 0) * scale * 1_000_000 / divisor)
        }
        guard duration > .zero else { return .failure(.notADuration) }
        guard duration <= longest else { return .failure(.tooLong) }
        return .success(duration)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many seeded runs a property test makes: a tenth of its full sweep by default, so
/// `swift test` stays quick, and the full sweep with `WAIT_ALERT_PROPERTY_RUNS=full` (which
/// `.ci/run` sets). The sample is the first seeds of the sweep, so a run is the same on every
/// machine, and a seed found by the full sweep replays the same way in either.
enum PropertyRuns {
    /// Whether the full sweep runs.
    static let isFull: Bool = getenv("WAIT_ALERT_PROPERTY_RUNS").map { String(cString: $0) == "full" } ?? false

    /// The number of runs out of `full`: all of them in the full sweep, else a tenth (at least one).
    static func count(of full: Int) -> Int { isFull ? full : max(1, full / 10) }

    /// The seeds to run, starting at `start`, out of a sweep of `full` seeds.
    static func seeds(from start: UInt64 = 0, of full: Int) -> Range<UInt64> {
        start..<(start + UInt64(count(of: full)))
    }
}

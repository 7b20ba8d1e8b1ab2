import WaitAlert

/// A recorded piece of work for the time-left figures: the progress reports it made, at explicit
/// instants, from zero units at instant zero to its total at its end.
struct EstimatorTrace {
    var name: String
    var total: Int
    /// Sorted by instant; the first is `(0, 0)`, the last reaches `total`.
    var reports: [(at: Duration, completed: Int)]
    /// Where no progress came on purpose.
    var stalls: [Range<Duration>] = []
    /// Whether the rate never changes: the time left must be right from the first second on.
    var isSteady = false

    var end: Duration { reports.last?.at ?? .zero }

    /// The true time left at `instant`, in seconds.
    func truth(at instant: Duration) -> Double { max((end - instant).seconds, 0) }

    /// Whether `instant` lies inside a stall.
    func isStalled(at instant: Duration) -> Bool { stalls.contains { $0.contains(instant) } }

    /// Reports every 50 to 150 ms (a deterministic spread, as reads from a network or a disk come),
    /// each with the units done by then at `rate(t)` units per second, and none inside `stalls`.
    static func continuous(
        _ name: String, total: Int, seed: UInt64, stalls: [Range<Duration>] = [], rate: (Duration) -> Double
    ) -> EstimatorTrace {
        var random = SplitMix64(seed: seed)
        var reports: [(at: Duration, completed: Int)] = [(.zero, 0)]
        var instant = Duration.zero
        var done = 0.0
        let step = Duration.milliseconds(1)
        var sinceReport = Duration.zero
        var nextGap = Duration.milliseconds(50 + Int(random.next() % 101))
        while Int(done.rounded(.down)) < total {
            // Integrate the rate a millisecond at a time.
            done += rate(instant) * step.seconds
            instant += step
            sinceReport += step
            let stalled = stalls.contains { $0.contains(instant) }
            guard !stalled, sinceReport >= nextGap || Int(done.rounded(.down)) >= total else { continue }
            let completed = min(Int(done.rounded(.down)), total)
            if completed > reports[reports.count - 1].completed { reports.append((instant, completed)) }
            sinceReport = .zero
            nextGap = .milliseconds(50 + Int(random.next() % 101))
        }
        return EstimatorTrace(name: name, total: total, reports: reports, stalls: stalls)
    }

    /// `chunk` units at once every `every`, `chunks` times.
    static func chunked(_ name: String, chunk: Int, every: Duration, chunks: Int) -> EstimatorTrace {
        let reports = (0...chunks).map { (at: every * $0, completed: chunk * $0) }
        return EstimatorTrace(name: name, total: chunk * chunks, reports: reports)
    }

    /// 100 units a second for a minute.
    static var steady: EstimatorTrace {
        var trace = continuous("steady", total: 6_000, seed: 1) { _ in 100 }
        trace.isSteady = true
        return trace
    }

    /// The six traces of the figures.
    static let all: [EstimatorTrace] = [
        steady,
        // 100 units/s until 40 % is done (24 s), then half as fast.
        continuous("slowdown at 40 %", total: 6_000, seed: 2) { $0 < .seconds(24) ? 100 : 50 },
        // 50 units/s until 40 % is done (48 s), then twice as fast.
        continuous("speedup at 40 %", total: 6_000, seed: 3) { $0 < .seconds(48) ? 50 : 100 },
        chunked("bursty (a chunk every 2 s)", chunk: 200, every: .seconds(2), chunks: 30),
        // 100 units/s with nothing from 30 s to 50 s.
        continuous("stall and resume", total: 6_000, seed: 4, stalls: [Duration.seconds(30)..<Duration.seconds(50)]) {
            $0 >= .seconds(30) && $0 < .seconds(50) ? 0 : 100
        },
        chunked("very slow (a unit every 10 s)", chunk: 1, every: .seconds(10), chunks: 30),
    ]
}

/// A small deterministic generator (SplitMix64), so every run replays the same traces.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

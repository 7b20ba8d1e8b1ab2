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
    /// When the trace's last surprise came (a change of rate, a pause, a stall): before it, the
    /// truth holds a future no estimator can know.
    var changesUntil = Duration.zero

    var end: Duration { reports.last?.at ?? .zero }

    /// The true time left at `instant`, in seconds.
    func truth(at instant: Duration) -> Double { max((end - instant).seconds, 0) }

    /// Whether `instant` lies inside a stall: 5 s or more without progress, which a row shows as
    /// `stalled` (a shorter pause is scored: the truth still counts down through it).
    func isStalled(at instant: Duration) -> Bool {
        stalls.contains { $0.contains(instant) && $0.upperBound - $0.lowerBound >= .seconds(5) }
    }

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

    /// 400 units a second for 1 s, then 2 s without progress, over and over, to 6,000 units:
    /// reports every 50 to 150 ms while the work moves, and one as each burst ends.
    static var bursts: EstimatorTrace {
        var random = SplitMix64(seed: 8)
        var reports: [(at: Duration, completed: Int)] = [(.zero, 0)]
        var burst = 0
        while reports[reports.count - 1].completed < 6_000 {
            let start = 3_000 * burst
            var instant = start + 50 + Int(random.next() % 101)
            while instant < start + 1_000 {
                reports.append((.milliseconds(instant), 400 * burst + (instant - start) * 400 / 1_000))
                instant += 50 + Int(random.next() % 101)
            }
            reports.append((.milliseconds(start + 1_000), 400 * (burst + 1)))
            burst += 1
        }
        let pauses = (0..<burst).map {
            Duration.milliseconds(3_000 * $0 + 1_000)..<Duration.milliseconds(3_000 * $0 + 3_000)
        }
        return EstimatorTrace(
            name: "bursts: 400 units/s for 1 s, then 2 s without progress", total: 6_000, reports: reports,
            stalls: pauses)
    }

    /// A trace with the instant of its last surprise.
    private func changing(until instant: Duration) -> EstimatorTrace {
        var trace = self
        trace.changesUntil = instant
        return trace
    }

    /// The traces of the figures.
    static let all: [EstimatorTrace] = [
        steady,
        // 100 units/s until 40 % is done (24 s), then half as fast.
        continuous("slowdown at 40 %", total: 6_000, seed: 2) { $0 < .seconds(24) ? 100 : 50 }
            .changing(until: .seconds(24)),
        // 50 units/s until 40 % is done (48 s), then twice as fast.
        continuous("speedup at 40 %", total: 6_000, seed: 3) { $0 < .seconds(48) ? 50 : 100 }
            .changing(until: .seconds(48)),
        chunked("bursty (a chunk every 2 s)", chunk: 200, every: .seconds(2), chunks: 30),
        // 100 units/s with nothing from 30 s to 50 s.
        continuous("stall and resume", total: 6_000, seed: 4, stalls: [Duration.seconds(30)..<Duration.seconds(50)]) {
            $0 >= .seconds(30) && $0 < .seconds(50) ? 0 : 100
        }.changing(until: .seconds(30)),
        chunked("very slow (a unit every 10 s)", chunk: 1, every: .seconds(10), chunks: 30),
        // The long run: 2,000 units, 10 ms a unit for the first 40 % (8 s), then 25 ms a unit.
        continuous("long run: 10 ms a unit, 25 ms from 40 %", total: 2_000, seed: 5) { $0 < .seconds(8) ? 100 : 40 }
            .changing(until: .seconds(8)),
        // The work warms up: 20 units/s for 5 s, then 100.
        continuous("slow start: 20 → 100 units/s after 5 s", total: 6_000, seed: 6) { $0 < .seconds(5) ? 20 : 100 }
            .changing(until: .seconds(5)),
        // 100 units/s with 3 s without progress at 20 s: a pause too short to be a stall.
        continuous(
            "a pause: 100 units/s, 3 s without progress at 20 s", total: 6_000, seed: 7,
            stalls: [Duration.seconds(20)..<Duration.seconds(23)]
        ) { $0 >= .seconds(20) && $0 < .seconds(23) ? 0 : 100 }.changing(until: .seconds(20)),
        // The long run with nothing for 10 s at 30 % of the work (6 s); the slowdown comes after.
        continuous(
            "long run with a stall: nothing for 10 s at 30 %", total: 2_000, seed: 9,
            stalls: [Duration.seconds(6)..<Duration.seconds(16)]
        ) { $0 >= .seconds(6) && $0 < .seconds(16) ? 0 : $0 < .seconds(18) ? 100 : 40 }.changing(until: .seconds(18)),
        bursts,
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

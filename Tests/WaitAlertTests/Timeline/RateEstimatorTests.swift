import Testing

@testable import WaitAlert

/// The time left is honest: nothing before something is known, right on steady traces, calm on
/// bursty ones, quick to follow a real change, and "stalled" when nothing moves.
@Suite("Rate estimator")
struct RateEstimatorTests {
    typealias Estimator = WaitAlertRateEstimator

    static func seconds(_ remaining: Estimator.Remaining) -> Double? {
        guard case .about(let duration) = remaining else { return nil }
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func instant(_ seconds: Double) -> Duration { .milliseconds(Int((seconds * 1000).rounded())) }

    @Test func nothingIsSaidBeforeASecondTwoReportsAndOnePercent() {
        var estimator = Estimator()
        estimator.record(completed: 0, at: .zero)
        #expect(estimator.estimate(total: 100, at: .zero).remaining == .unknown, "one report")
        estimator.record(completed: 5, at: .milliseconds(500))
        #expect(estimator.estimate(total: 100, at: .milliseconds(500)).remaining == .unknown, "before a second")
        #expect(estimator.estimate(total: 100, at: .milliseconds(999)).remaining == .unknown)
        #expect(Self.seconds(estimator.estimate(total: 100, at: .seconds(1)).remaining) != nil)

        var slow = Estimator()
        slow.record(completed: 0, at: .zero)
        slow.record(completed: 5, at: .seconds(2))
        #expect(
            Self.seconds(slow.estimate(total: 1000, at: .seconds(2)).remaining) == 398,
            "half a percent done, at 2.5 units a second: told from the first second on")
        slow.record(completed: 10, at: .seconds(4))
        #expect(Self.seconds(slow.estimate(total: 1000, at: .seconds(4)).remaining) == 396)
        #expect(slow.estimate(total: nil, at: .seconds(4)) == .init(rate: 2.5, remaining: .unknown), "no total")
    }

    /// One unit a second, ten units: after the first, nine seconds are left.
    @Test func tenTimesOneSecond() throws {
        var estimator = Estimator()
        estimator.record(completed: 0, at: .zero)
        for unit in 1...9 {
            estimator.record(completed: Double(unit), at: .seconds(unit))
            let left = try #require(Self.seconds(estimator.estimate(total: 10, at: .seconds(unit)).remaining))
            #expect(abs(left - Double(10 - unit)) <= 1, "after unit \(unit): \(left)")
        }
    }

    /// It counts down between reports, and says "stalled" after five seconds without progress.
    @Test func countsDownThenStalls() throws {
        var estimator = Estimator()
        for unit in 0...10 { estimator.record(completed: Double(unit), at: .seconds(unit)) }
        let at10 = try #require(Self.seconds(estimator.estimate(total: 100, at: .seconds(10)).remaining))
        let at12 = try #require(Self.seconds(estimator.estimate(total: 100, at: .seconds(12)).remaining))
        #expect(abs(at10 - 90) < 0.01 && abs(at12 - 88) < 0.01)
        #expect(Self.seconds(estimator.estimate(total: 100, at: .milliseconds(14_900)).remaining) != nil)
        #expect(estimator.estimate(total: 100, at: .seconds(15)).remaining == .stalled)
        estimator.record(completed: 11, at: .seconds(16))
        #expect(Self.seconds(estimator.estimate(total: 100, at: .seconds(16)).remaining) != nil, "resumed")
    }

    /// On constant-rate traces, sampled at random render instants, the time left never rises by
    /// more than 20 % between two renders.
    @Test func constantRatesNeverRiseMuch() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let rate = 0.5 + Double(rng.next(below: 10_000)) / 10  // 0.5 … 1000 units/s
            let total = rate * Double(20 + rng.next(below: 300))
            var estimator = Estimator()
            var now = 0.0
            var nextReport = 0.0
            var previous: Double?
            while now * rate < total {
                now += Double(1 + rng.next(below: 250)) / 1000  // renders every 1 … 250 ms
                while nextReport <= now {
                    estimator.record(completed: min(nextReport * rate, total), at: Self.instant(nextReport))
                    nextReport += Double(1 + rng.next(below: 2000)) / 1000  // reports every 1 ms … 2 s
                }
                let left = Self.seconds(estimator.estimate(total: total, at: Self.instant(now)).remaining)
                if let left, let previous, previous > 1 {
                    #expect(left <= previous * 1.2 + 0.05, "rate \(rate): \(previous) → \(left) at \(now)")
                }
                if left != nil { previous = left }
            }
        }
    }

    /// The rate halves halfway: within ten seconds the time left is within 15 % of the truth.
    @Test func aRateThatHalvesIsFollowed() throws {
        for rate in [1.0, 10, 1000] {
            var estimator = Estimator()
            let total = rate * 60
            var completed = 0.0
            var now = 0.0
            while now < 30 {
                estimator.record(completed: completed, at: Self.instant(now))
                now += 0.1
                completed += rate * 0.1
            }
            while now < 40 {
                estimator.record(completed: completed, at: Self.instant(now))
                now += 0.1
                completed += rate / 2 * 0.1
            }
            estimator.record(completed: completed, at: Self.instant(now))
            let truth = (total - completed) / (rate / 2)
            let left = try #require(Self.seconds(estimator.estimate(total: total, at: Self.instant(now)).remaining))
            #expect(abs(left - truth) <= truth * 0.15, "rate \(rate): \(left) against \(truth)")
        }
    }

    /// A hundred units at once every ten seconds: the time left does not swing by more than 30 %
    /// from one burst to the next, nor between them.
    @Test func burstsDoNotMakeItSwing() throws {
        var estimator = Estimator()
        let total = 2000.0
        var values: [Double] = []
        for burst in 0..<18 {
            estimator.record(completed: Double(burst * 100), at: .seconds(burst * 10))
            for step in 0..<10 {
                let now = Duration.seconds(burst * 10 + step)
                if let left = Self.seconds(estimator.estimate(total: total, at: now).remaining) { values.append(left) }
            }
            #expect(estimator.estimate(total: total, at: .seconds(burst * 10 + 9)).remaining != .stalled)
        }
        #expect(values.count >= 160)
        for (before, after) in zip(values, values.dropFirst()) where before > 5 {
            #expect(abs(after - before) <= before * 0.3, "\(before) → \(after)")
        }
    }

    @Test func aCountThatGoesBackStartsOver() {
        var estimator = Estimator()
        for unit in 0...5 { estimator.record(completed: Double(unit * 10), at: .seconds(unit)) }
        estimator.record(completed: 0, at: .seconds(6))
        #expect(estimator.estimate(total: 100, at: .seconds(6)).remaining == .unknown)
    }

    @Test func reportsAtOneInstantCountTogether() throws {
        var estimator = Estimator()
        estimator.record(completed: 0, at: .zero)
        estimator.record(completed: 5, at: .seconds(1))
        estimator.record(completed: 10, at: .seconds(1))
        #expect(estimator.estimate(total: 100, at: .seconds(1)).rate == 10)
        estimator.record(completed: .nan, at: .seconds(2))
        #expect(estimator.estimate(total: 100, at: .seconds(1)).rate == 10, "a NaN is ignored")
    }
}

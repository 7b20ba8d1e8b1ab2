import Testing

@testable import WaitAlert

/// Whole traces of work through the rate estimator, at explicit instants: a steady rate is right
/// from the first second, a stall says so and the work resumes at its own rate, a very slow or a
/// bursty trace counts down calmly.
@Suite("Rate estimator traces")
struct RateEstimatorTraceTests {
    typealias Estimator = WaitAlertRateEstimator

    static func seconds(_ remaining: Estimator.Remaining) -> Double? {
        guard case .about(let duration) = remaining else { return nil }
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func instant(_ seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }

    /// 100 units a second reported every 100 ms, from `start` to `end` (seconds), onto `estimator`.
    static func steady(_ estimator: inout Estimator, from start: Int, to end: Int, completedAtStart: Double) {
        for tenth in (start * 10)...(end * 10) {
            estimator.record(
                completed: completedAtStart + Double(tenth - start * 10) * 10, at: .milliseconds(tenth * 100))
        }
    }

    /// Steady rates from 10 to 1,000,000 units a second, reported at random gaps of 1 to 250 ms,
    /// for 20 to 70 s (so one percent is reported before the first second): from the first
    /// second on, every 50 ms while a second or more is left, the time left is known and within
    /// 10 % of the truth.
    @Test(arguments: [10.0, 100, 12_345, 1_000_000])
    func aSteadyRateIsRightFromTheFirstSecond(rate: Double) throws {
        var rng = SplitMix64(seed: UInt64(rate))
        let duration = 20 + Double(rng.next(below: 50))
        let total = rate * duration
        var estimator = Estimator()
        var nextReport = 0.0
        var now = 1.0
        while duration - now >= 1 {
            while nextReport <= now {
                estimator.record(completed: rate * nextReport, at: Self.instant(nextReport))
                nextReport += Double(1 + rng.next(below: 250)) / 1000
            }
            let truth = duration - now
            let left = try #require(Self.seconds(estimator.estimate(total: total, at: Self.instant(now)).remaining))
            #expect(abs(left - truth) <= 0.1 * truth, "rate \(rate) at \(now): \(left) against \(truth)")
            now += 0.05
        }
    }

    /// 100 units a second, nothing from 30 s to 50 s, then 100 a second again: `stalled` five
    /// seconds after the last report and until the work moves, then right away the time left at
    /// the rate of the work, not at its average over the stall.
    @Test func aStallSaysStalledThenTheWorkResumesAtItsOwnRate() throws {
        var estimator = Estimator()
        Self.steady(&estimator, from: 0, to: 30, completedAtStart: 0)
        let total = 6000.0  // 3,000 done at 30 s, the other 3,000 from 50 s to 80 s
        #expect(Self.seconds(estimator.estimate(total: total, at: .milliseconds(34_900)).remaining) != nil)
        for second in 35..<50 {
            #expect(estimator.estimate(total: total, at: .seconds(second)).remaining == .stalled, "at \(second) s")
        }
        estimator.record(completed: 3010, at: .milliseconds(50_100))
        let rate = try #require(estimator.estimate(total: total, at: .milliseconds(50_100)).rate)
        #expect(abs(rate - 100) <= 10, "rate after the resume: \(rate)")
        for tenth in 502...550 {
            estimator.record(completed: 3000 + Double(tenth - 500) * 10, at: .milliseconds(tenth * 100))
            let now = Double(tenth) / 10
            let left = try #require(
                Self.seconds(estimator.estimate(total: total, at: .milliseconds(tenth * 100)).remaining))
            #expect(abs(left - (80 - now)) <= 0.1 * (80 - now), "at \(now) s: \(left) against \(80 - now)")
        }
    }

    /// Nothing reported from 30 s to 50 s, then 2,000 units at once (done all along, or in a
    /// burst at the end): the rate stays that of the work, and the time left is the rest at it.
    @Test func aLateReportAfterAStallDoesNotMakeTheRateJump() throws {
        var estimator = Estimator()
        Self.steady(&estimator, from: 0, to: 30, completedAtStart: 0)
        estimator.record(completed: 5000, at: .seconds(50))
        estimator.record(completed: 5010, at: .milliseconds(50_100))
        estimator.record(completed: 5020, at: .milliseconds(50_200))
        let estimate = estimator.estimate(total: 6000, at: .milliseconds(50_200))
        let rate = try #require(estimate.rate)
        #expect(abs(rate - 100) <= 10, "\(rate) units/s")
        let left = try #require(Self.seconds(estimate.remaining))
        #expect(abs(left - 9.8) <= 1, "\(left) s")
    }

    /// A stall within the first seconds is cut out of the average those seconds take.
    @Test func aStallEarlyOnIsLeftOutOfTheRate() throws {
        var estimator = Estimator()
        estimator.record(completed: 0, at: .zero)
        estimator.record(completed: 50, at: .milliseconds(500))
        estimator.record(completed: 100, at: .seconds(1))
        #expect(estimator.estimate(total: 1000, at: .seconds(9)).remaining == .stalled)
        estimator.record(completed: 150, at: .seconds(10))
        estimator.record(completed: 200, at: .milliseconds(10_500))
        let estimate = estimator.estimate(total: 1000, at: .milliseconds(10_500))
        let rate = try #require(estimate.rate)
        #expect(abs(rate - 100) <= 10, "\(rate) units/s")
        let left = try #require(Self.seconds(estimate.remaining))
        #expect(abs(left - 8) <= 0.8, "\(left) s")
    }

    /// A stall, a couple of reports, and a second stall: the second says `stalled` as soon as the
    /// first did, five seconds after the last report.
    @Test func aSecondStallIsSeenAsSoonAsTheFirst() {
        var estimator = Estimator()
        Self.steady(&estimator, from: 0, to: 10, completedAtStart: 0)
        #expect(estimator.estimate(total: 5000, at: .seconds(15)).remaining == .stalled)
        estimator.record(completed: 1010, at: .seconds(30))
        estimator.record(completed: 1020, at: .milliseconds(30_100))
        estimator.record(completed: 1030, at: .milliseconds(30_200))
        #expect(estimator.estimate(total: 5000, at: .milliseconds(35_100)).remaining != .stalled)
        #expect(estimator.estimate(total: 5000, at: .milliseconds(35_200)).remaining == .stalled)
        #expect(estimator.stallsAt == .milliseconds(35_200))
    }

    /// One unit every ten seconds, thirty units: once two reports are in, the time left counts
    /// down second by second to the truth, and a ten-second gap is never a stall.
    @Test func aVerySlowTraceCountsDownAndNeverStalls() throws {
        var estimator = Estimator()
        for second in 0..<300 {
            if second % 10 == 0 { estimator.record(completed: Double(second / 10), at: .seconds(second)) }
            let remaining = estimator.estimate(total: 30, at: .seconds(second)).remaining
            guard second >= 10 else {
                #expect(remaining == .unknown, "at \(second) s")
                continue
            }
            let left = try #require(Self.seconds(remaining), "at \(second) s: \(remaining)")
            #expect(abs(left - Double(300 - second)) <= 1, "at \(second) s: \(left)")
        }
    }

    /// 200 units at once every two seconds: the time left counts down steadily through the
    /// chunks and between them, never rising, never `stalled`, and right to the half second.
    @Test func chunksEveryTwoSecondsCountDownSteadily() throws {
        var estimator = Estimator()
        var previous: Double?
        for tenth in 0..<600 {
            if tenth % 20 == 0 { estimator.record(completed: Double(tenth / 20 * 200), at: .milliseconds(tenth * 100)) }
            guard tenth >= 20 else { continue }
            let now = Double(tenth) / 10
            let left = try #require(
                Self.seconds(estimator.estimate(total: 6000, at: .milliseconds(tenth * 100)).remaining))
            #expect(abs(left - (60 - now)) <= 0.5, "at \(now) s: \(left)")
            if let previous { #expect(left <= previous, "at \(now) s: \(previous) → \(left)") }
            previous = left
        }
    }
}

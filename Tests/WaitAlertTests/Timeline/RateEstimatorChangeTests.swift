import Testing

@testable import WaitAlert

/// The rate follows a real change within a second or two, at the new rate alone, and holds still
/// through noise; pauses slow it only once they recur.
@Suite("Rate estimator changes")
struct RateEstimatorChangeTests {
    typealias Estimator = WaitAlertRateEstimator

    static func seconds(_ remaining: Estimator.Remaining) -> Double? {
        guard case .about(let duration) = remaining else { return nil }
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Work whose units done by `t` seconds are `done(t)`, reported every 50 to 150 ms (as frames
    /// coalesce reports) in whole units, and not while `quiet(t)`.
    struct Work {
        var total: Double
        var done: (Double) -> Double
        var quiet: (Double) -> Bool = { _ in false }
        var seed: UInt64 = 1

        /// The reports, in order: instants in milliseconds and whole units, to the total.
        var reports: [(milliseconds: Int, completed: Double)] {
            var rng = SplitMix64(seed: seed)
            var reports: [(milliseconds: Int, completed: Double)] = [(0, 0)]
            var instant = 0
            while reports[reports.count - 1].completed < total {
                instant += 50 + rng.next(below: 101)
                let seconds = Double(instant) / 1000
                guard !quiet(seconds) else { continue }
                let completed = min(done(seconds).rounded(.down), total)
                if completed > reports[reports.count - 1].completed { reports.append((instant, completed)) }
            }
            return reports
        }

        /// Replays the reports, calling `read` every 100 ms from the first second on with the
        /// estimate and the instant (seconds), and the truth: the time left until the last report.
        func replay(_ read: (Estimator.Estimate, Double, Double) throws -> Void) rethrows {
            let reports = self.reports
            let end = Double(reports[reports.count - 1].milliseconds) / 1000
            var estimator = Estimator()
            var next = 0
            for tenth in 10..<Int(end * 10) {
                while next < reports.count, reports[next].milliseconds <= tenth * 100 {
                    estimator.record(completed: reports[next].completed, at: .milliseconds(reports[next].milliseconds))
                    next += 1
                }
                let now = Double(tenth) / 10
                try read(estimator.estimate(total: total, at: .milliseconds(tenth * 100)), now, end - now)
            }
        }
    }

    /// 2,000 units, 10 ms a unit for the first 40 % (8 s), then 25 ms a unit (38 s in all): the
    /// time left is shown from the first second on, and from a second and a half after the
    /// slowdown it is that of the new rate alone, within 2 %.
    @Test func aSlowdownIsToldAtTheNewRate() throws {
        let work = Work(total: 2000, done: { $0 < 8 ? 100 * $0 : 800 + 40 * ($0 - 8) })
        var checked = 0
        try work.replay { estimate, now, truth in
            let left = try #require(Self.seconds(estimate.remaining), "at \(now) s")
            guard now >= 9.5 || now < 8 else { return }
            let expected = now < 8 ? (2000 - 100 * now) / 100 : truth
            #expect(abs(left - expected) <= max(0.02 * expected, 0.15), "at \(now) s: \(left) against \(expected)")
            checked += 1
        }
        #expect(checked > 300)
    }

    /// The same work read off a row as each quarter of it is reported: 15 s at 25 % (before the
    /// slowdown, at the rate then), then what is truly left, 25 s at half the work and 5 s at 90 %.
    @Test func theSlowdownReadsRightOffTheRow() {
        let work = Work(total: 2000, done: { $0 < 8 ? 100 * $0 : 800 + 40 * ($0 - 8) })
        var estimator = Estimator()
        var shown: [Double: String] = [:]
        for report in work.reports {
            estimator.record(completed: report.completed, at: .milliseconds(report.milliseconds))
            for share in [0.25, 0.5, 0.75, 0.9] where shown[share] == nil && report.completed >= 2000 * share {
                let remaining = estimator.estimate(total: 2000, at: .milliseconds(report.milliseconds)).remaining
                shown[share] = ProgressText.remaining(remaining, knowsTotal: true)
            }
        }
        #expect(shown == [0.25: "15s left", 0.5: "25s left", 0.75: "12s left", 0.9: "5s left"])
    }

    /// 20 units a second for 5 s (the work warms up), then 100: a second after, the time left is
    /// that of the work as it now goes, within 2 %.
    @Test func aSlowStartIsForgotten() throws {
        let work = Work(total: 6000, done: { $0 < 5 ? 20 * $0 : 100 + 100 * ($0 - 5) }, seed: 2)
        try work.replay { estimate, now, truth in
            guard now >= 6 else { return }
            let left = try #require(Self.seconds(estimate.remaining), "at \(now) s")
            #expect(abs(left - truth) <= max(0.02 * truth, 0.15), "at \(now) s: \(left) against \(truth)")
        }
    }

    /// A pace that wanders by up to 30 % every half second around about 100 units a second is no
    /// change: from 10 s on, the rate stays within 5 % of the work's average.
    @Test func noiseIsNoChange() {
        var rng = SplitMix64(seed: 99)
        let levels = (0..<200).map { _ in 0.7 + Double(rng.next(below: 601)) / 1000 }
        let done: (Double) -> Double = { seconds in
            let whole = Int(seconds * 2)
            return (0..<whole).reduce(0) { $0 + 50 * levels[$1] } + 100 * levels[whole] * (seconds - Double(whole) / 2)
        }
        let work = Work(total: 5000, done: done, seed: 3)
        let reports = work.reports
        let average = 5000 / (Double(reports[reports.count - 1].milliseconds) / 1000)
        work.replay { estimate, now, _ in
            guard now >= 10, let rate = estimate.rate else { return }
            #expect(abs(rate - average) <= 0.05 * average, "at \(now) s: \(rate) against \(average)")
        }
    }

    /// 100 units a second with 3 s of nothing at 20 s: from the resume on, the time left is that
    /// of the work, which goes on at its rate (within 2 %).
    @Test func aLonePauseIsLeftOut() throws {
        let work = Work(
            total: 6000, done: { $0 < 20 ? 100 * $0 : $0 < 23 ? 2000 : 2000 + 100 * ($0 - 23) },
            quiet: { $0 >= 20 && $0 < 23 }, seed: 4)
        try work.replay { estimate, now, truth in
            guard now >= 23.5 else { return }
            let left = try #require(Self.seconds(estimate.remaining), "at \(now) s")
            #expect(abs(left - truth) <= max(0.02 * truth, 0.15), "at \(now) s: \(left) against \(truth)")
        }
    }

    /// 400 units a second for 1 s, then 2 s of nothing, over and over: the pauses are part of the
    /// work's pace. From the sixth burst on, the time left stays within 5 s of the truth and is
    /// 2.5 s off on average (counting down through the pauses at the pace of the bursts is 10 s
    /// off, 5 s on average).
    @Test func pausesThatRecurArePartOfThePace() throws {
        let done: (Double) -> Double = { seconds in
            let cycle = (seconds / 3).rounded(.down)
            return 400 * cycle + 400 * min(seconds - 3 * cycle, 1)
        }
        let work = Work(total: 6000, done: done, quiet: { $0.truncatingRemainder(dividingBy: 3) > 1.001 }, seed: 5)
        var errors: [Double] = []
        try work.replay { estimate, now, truth in
            guard now >= 15, truth > 3 else { return }
            let left = try #require(Self.seconds(estimate.remaining), "at \(now) s")
            #expect(abs(left - truth) <= 5, "at \(now) s: \(left) against \(truth)")
            errors.append(abs(left - truth))
        }
        #expect(errors.count > 200 && errors.reduce(0, +) / Double(errors.count) <= 2.5)
    }

    /// Two sources reporting at the same instants (a group's parts): half the units, then the
    /// rest, every 250 ms. Each instant counts whole, and is never taken for a change of rate.
    @Test func reportsAtOneInstantAreNoChange() throws {
        var estimator = Estimator()
        estimator.record(completed: 0, at: .zero)
        for quarter in 1...80 {
            estimator.record(completed: Double(quarter) * 200 - 100, at: .milliseconds(quarter * 250))
            estimator.record(completed: Double(quarter) * 200, at: .milliseconds(quarter * 250))
            guard quarter >= 4 else { continue }
            let rate = try #require(estimator.estimate(total: 100_000, at: .milliseconds(quarter * 250)).rate)
            #expect(abs(rate - 800) < 1e-6, "at \(quarter * 250) ms: \(rate)")
        }
    }
}

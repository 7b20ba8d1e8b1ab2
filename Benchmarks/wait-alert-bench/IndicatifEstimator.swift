#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The baseline of the time-left figures: indicatif's estimator (the Rust crate's `Estimator` in
/// `src/state.rs`, with `ProgressState::eta`), re-implemented step for step so that it runs on the
/// same traces, at the same instants, in the same run.
///
/// It keeps an exponentially weighted average of the rate over time, in which data 15 seconds old
/// weighs 0.1 in all, and a second such average of the first (double smoothing). Both start at
/// zero and are divided by the weight the time since the start covers, so the first reports are
/// not pulled towards zero. Between reports the time since the last one counts as a report of no
/// progress, so the rate falls during a pause; the time left is what remains at that rate, with no
/// count-down of its own, and zero while the rate is zero.
struct IndicatifEstimator {
    private var smoothed = 0.0
    private var doubleSmoothed = 0.0
    private var previousSteps: UInt64 = 0
    private var previousTime: Double
    private var startTime: Double

    /// Made when the bar is, at `now` (seconds), with no steps done.
    init(at now: Double) {
        previousTime = now
        startTime = now
    }

    /// A report: `steps` done at `now`. A report with no new steps or no time since the last one
    /// is ignored; one that goes back starts the averages over from `now`.
    mutating func record(_ steps: UInt64, at now: Double) {
        guard steps > previousSteps, now > previousTime else {
            if steps < previousSteps {
                previousSteps = steps
                reset(at: now)
            }
            return
        }
        let elapsed = now - previousTime
        let rate = Double(steps - previousSteps) / elapsed
        let weight = Self.weight(elapsed)
        smoothed = smoothed * weight + rate * (1 - weight)
        let covered = 1 - Self.weight(now - startTime)
        doubleSmoothed = doubleSmoothed * weight + smoothed / covered * (1 - weight)
        previousSteps = steps
        previousTime = now
    }

    /// Forgets the rate; the steps done stay.
    private mutating func reset(at now: Double) {
        smoothed = 0
        doubleSmoothed = 0
        previousTime = now
        startTime = now
    }

    /// Steps per second at `now`: the time since the last report is weighed in as no progress.
    func stepsPerSecond(at now: Double) -> Double {
        let reweight = Self.weight(now - previousTime)
        let covered = 1 - Self.weight(now - startTime)
        let single = smoothed * reweight / covered
        let double = doubleSmoothed * reweight + single * (1 - reweight)
        return double / covered
    }

    /// The time left in seconds for `length` steps with `position` done: zero while the rate is
    /// zero (and, as a Rust `Duration` would hold it, never below zero nor above `UInt64.max`
    /// seconds).
    func eta(length: UInt64, position: UInt64, at now: Double) -> Double {
        let rate = stepsPerSecond(at: now)
        guard rate != 0 else { return 0 }
        let seconds = Double(length > position ? length - position : 0) / rate
        guard !seconds.isNaN else { return 0 }
        return min(max(seconds, 0), Double(UInt64.max))
    }

    /// The weight left to data `age` seconds old: 0.1 at 15 seconds.
    private static func weight(_ age: Double) -> Double {
        pow(0.1, age / 15)
    }
}

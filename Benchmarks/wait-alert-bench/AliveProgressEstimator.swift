#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A baseline of the time-left figures: alive-progress's time left (`alive_bar` in
/// `alive_progress/core/progress.py`, `gen_simple_exponential_smoothing` and `fn_simple_eta` in
/// `alive_progress/utils/timing.py`, `calibrated_fps` in `alive_progress/core/calibration.py`),
/// re-implemented so that it runs on the same traces, at the same instants, in the same run.
///
/// A thread draws frames at a pace that grows with the rate (2 to 60 a second on a logarithmic
/// curve, 10 while the rate is zero). Each frame smooths the units done over the time since the
/// start (the average since the start, pauses included) with a factor of 0.3, then smooths the
/// time left at that rate with a factor of 0.5; both start once their inputs are not zero. The
/// screen keeps a frame's time left until the next frame.
struct AliveProgressEstimator {
    private let total: Double
    private let started: Double
    private var completed = 0.0
    private var nextFrame: Double
    private var rate: Double?
    private var left: Double?

    /// A bar of `total` units started at `now` (seconds).
    init(total: Double, at now: Double) {
        self.total = total
        started = now
        nextFrame = now
    }

    /// The time left on the screen, in seconds (alive-progress draws `~0s` before it knows one).
    var shown: Double { left ?? 0 }

    /// An update to `completed` units at `now` (seconds).
    mutating func record(_ completed: Double, at now: Double) {
        draw(until: now)
        self.completed = completed
    }

    /// The frames due by `now` (seconds) are drawn.
    mutating func draw(until now: Double) {
        while nextFrame <= now + 1e-9 {
            let elapsed = nextFrame - started
            if let rate {
                self.rate = rate + 0.3 * (completed / elapsed - rate)
            } else if completed != 0, elapsed != 0 {
                rate = completed / elapsed
            }
            if let rate, rate != 0 {
                let target = (total - completed) / rate
                left = left.map { $0 + 0.5 * (target - $0) } ?? (completed != 0 ? target : nil)
            }
            nextFrame += 1 / Self.framesPerSecond(rate ?? 0)
        }
    }

    /// Frames a second at `rate`, calibrated for a million units a second.
    private static func framesPerSecond(_ rate: Double) -> Double {
        guard rate > 0 else { return 10 }
        guard rate < 1e6 else { return 60 }
        return log10(rate + 1) * (60 - 2) / log10(1e6 + 1) + 2
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A baseline of the time-left figures: tqdm's time left (`tqdm.update`, its `EMA` class and
/// `format_meter` in `tqdm/std.py`), re-implemented so that it runs on the same traces, at the
/// same instants, in the same run.
///
/// tqdm redraws only when it is updated, at most every `mininterval` (0.1 s) and once `miniters`
/// more units came; `miniters` follows the units a redraw usually brings, scaled to 0.1 s. At a
/// redraw, the units and the seconds since the previous one each go into an exponential moving
/// average over redraws (smoothing 0.3, corrected for its start at zero), and the rate is their
/// ratio; the time left drawn is what remains at that rate. Between redraws the screen keeps what
/// it drew: the time left neither counts down nor rises. (tqdm's monitor thread may redraw after
/// 10 s without one, with the same rate and count, so the same time left.)
struct TqdmEstimator {
    /// An exponential moving average that starts at zero and divides by the weight its values
    /// cover, as tqdm's `EMA` does.
    private struct MovingAverage {
        private var value = 0.0
        private var calls = 0

        mutating func add(_ sample: Double) {
            value = 0.3 * sample + 0.7 * value
            calls += 1
        }

        var mean: Double { calls == 0 ? 0 : value / (1 - pow(0.7, Double(calls))) }
    }

    private let total: Double
    private var count = 0.0
    private var drawnCount = 0.0
    private var drawnAt: Double
    private var minimumUnits = 0.0
    private var units = MovingAverage()
    private var intervals = MovingAverage()
    private var minimumUnitsAverage = MovingAverage()
    /// The time left on the screen, in seconds; `nil` while tqdm draws `?`.
    private(set) var shown: Double?

    /// A bar of `total` units made at `now` (seconds).
    init(total: Double, at now: Double) {
        self.total = total
        drawnAt = now
    }

    /// An update to `completed` units at `now` (seconds).
    mutating func record(_ completed: Double, at now: Double) {
        guard completed > count else { return }
        count = completed
        guard count - drawnCount >= minimumUnits else { return }
        let elapsed = now - drawnAt
        guard elapsed >= 0.1 else { return }
        let added = count - drawnCount
        if elapsed > 0, added > 0 {
            units.add(added)
            intervals.add(elapsed)
        }
        let rate = intervals.mean > 0 ? units.mean / intervals.mean : 0
        shown = rate > 0 ? (total - count) / rate : nil
        if elapsed >= 10 {
            minimumUnits = added * 0.1 / elapsed
        } else {
            minimumUnitsAverage.add(added * 0.1 / elapsed)
            minimumUnits = minimumUnitsAverage.mean
        }
        drawnCount = count
        drawnAt = now
    }
}

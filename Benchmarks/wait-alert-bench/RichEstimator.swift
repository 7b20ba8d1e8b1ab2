/// A baseline of the time-left figures: rich's time left (`Task.speed`, `Task.time_remaining`
/// and `Progress.advance` in `rich/progress.py`, drawn by `TimeRemainingColumn`), re-implemented
/// so that it runs on the same traces, at the same instants, in the same run.
///
/// Each update is kept as a sample (its instant and the units it added); samples older than 30 s
/// are dropped, and at most 1,000 are kept. The speed is the units of every sample but the oldest
/// over the time from the oldest to the newest; the time left is what remains at that speed,
/// rounded up to a whole second. A live display redraws it ten times a second (the column's
/// half-second cache holds only before the first unit), and nothing counts it down in between.
struct RichEstimator {
    private let total: Double
    private var completed = 0.0
    /// The samples, oldest first from `oldest`.
    private var samples: [(at: Double, units: Double)] = []
    private var oldest = 0
    private var nextRefresh: Double
    /// The time left on the screen, in seconds; `nil` while rich draws `-:--:--`.
    private(set) var shown: Double?

    /// A task of `total` units started at `now` (seconds).
    init(total: Double, at now: Double) {
        self.total = total
        nextRefresh = now + 0.1
    }

    /// An advance to `completed` units at `now` (seconds).
    mutating func record(_ completed: Double, at now: Double) {
        refresh(until: now)
        let units = completed - self.completed
        self.completed = completed
        while oldest < samples.count, samples[oldest].at < now - 30 { oldest += 1 }
        samples.append((now, units))
        if samples.count - oldest > 1000 { oldest += 1 }
        if oldest > 4096 {
            samples.removeFirst(oldest)
            oldest = 0
        }
    }

    /// The screen at `now` (seconds): the refreshes due by then are drawn.
    mutating func refresh(until now: Double) {
        while nextRefresh <= now + 1e-9 {
            shown = timeRemaining
            nextRefresh += 0.1
        }
    }

    private var timeRemaining: Double? {
        guard completed < total else { return 0 }
        guard samples.count > oldest else { return nil }
        let span = samples[samples.count - 1].at - samples[oldest].at
        guard span > 0 else { return nil }
        let units = samples[(oldest + 1)...].reduce(0) { $0 + $1.units }
        guard units > 0 else { return nil }
        return ((total - completed) / (units / span)).rounded(.up)
    }
}

extension WaitAlertRateEstimator {
    /// Tells a change of rate from noise (a two-sided CUSUM test on the counts): at each report,
    /// the units it brought beyond or short of what the rate promised are added up, less a tenth
    /// of the rate as an allowance, and reset at zero. A sum past the work of 0.3 s (or four
    /// times the usual scatter of the counts, when that is more) is a change, once the drift has
    /// lasted longer than the gaps the work has shown; the new rate starts at the first report
    /// that showed the drift.
    struct ChangeWatch: Sendable, Hashable {
        /// Units ahead of the rate, and behind it, added up.
        private var ahead = 0.0
        private var behind = 0.0
        /// The first report of each drift.
        private var aheadFrom: Sample
        private var behindFrom: Sample
        /// How far the counts usually stray from the rate, in units, weighted towards recent reports.
        private var scatter = 0.0

        init(at sample: Sample) {
            aheadFrom = sample
            behindFrom = sample
        }

        /// Starts watching afresh from `sample` (the counts' usual scatter stays known).
        mutating func restart(at sample: Sample) {
            (ahead, behind) = (0, 0)
            (aheadFrom, behindFrom) = (sample, sample)
        }

        /// Takes the report `now`, which follows `previous`, against `rate`.
        ///
        /// - Returns: where the new rate starts when the work changed pace over more than `span`
        ///   seconds, `nil` otherwise.
        mutating func observe(_ now: Sample, after previous: Sample, rate: Double, span: Double) -> Sample? {
            let seconds = WaitAlertRateEstimator.seconds(now.instant - previous.instant)
            let beyond = (now.completed - previous.completed) - rate * seconds
            scatter += 0.1 * (abs(beyond) - scatter)
            let allowance = 0.1 * rate * seconds
            let (wasAhead, wasBehind) = (ahead, behind)
            ahead = max(ahead + beyond - allowance, 0)
            behind = max(behind - beyond - allowance, 0)
            // A drift starts with the report that shows it: the gap before it may straddle the change.
            if wasAhead == 0 { aheadFrom = now }
            if wasBehind == 0 { behindFrom = now }
            let threshold = max(0.3 * rate, 4 * scatter)
            func changed(_ sum: Double, from: Sample) -> Bool {
                sum > threshold && from.instant < now.instant
                    && WaitAlertRateEstimator.seconds(now.instant - from.instant) >= span
            }
            let from =
                changed(ahead, from: aheadFrom) ? aheadFrom : changed(behind, from: behindFrom) ? behindFrom : nil
            if from != nil { restart(at: now) }
            return from
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How fast work progresses and when it will end, from progress reports placed at explicit
/// instants: a pure value, like ``WaitAlertTimeline``, that a test drives instant by instant.
///
/// The rate is an exponentially weighted average over time (not over reports): a report after a
/// long gap weighs by the time it covers, so a thousand reports a second and one report every ten
/// seconds describe the same work the same way. The time left counts down between reports at the
/// estimated rate, so it neither jumps at each report of a steady trace nor freezes between the
/// reports of a bursty one.
///
/// It says nothing until it knows something: no time left before at least one second and two
/// reports with progress between them (however small a part of the total: a steady rate is told
/// from the first second on, even for work of hours); ``Remaining/stalled`` once no progress came for
/// ``stallAfter`` (or for three times the usual gap between reports, when that is longer). When
/// progress comes again, the stall is left out: the work goes on at the rate it had before, so the
/// time left picks up where it stood rather than at the work's average over the stall, and the
/// next stall is seen as soon.
///
/// Any reports are safe: counts that are not finite are ignored, and a time left or a stall limit
/// too long to represent (a huge count at a slow rate) is held at
/// ``WaitAlertTiming/longestDuration``.
///
/// ```swift
/// var estimator = WaitAlertRateEstimator()
/// estimator.record(completed: 0, at: .zero)
/// estimator.record(completed: 1, at: .seconds(1))
/// estimator.estimate(total: 10, at: .seconds(1)).remaining  // .about(.seconds(9))
/// ```
public struct WaitAlertRateEstimator: Sendable, Hashable {
    /// What is known of the time left.
    public enum Remaining: Sendable, Hashable {
        /// Not enough is known yet (or the total is not).
        case unknown
        /// No progress came for a while.
        case stalled
        /// About this much time is left.
        case about(Duration)
    }

    /// A rate and the time left, at one instant.
    public struct Estimate: Sendable, Hashable {
        /// Units per second, once known.
        public var rate: Double?
        /// The time left.
        public var remaining: Remaining

        public init(rate: Double?, remaining: Remaining) {
            self.rate = rate
            self.remaining = remaining
        }
    }

    /// How quickly the rate follows a change: after this long at a new rate, the estimate has
    /// moved about two thirds of the way to it.
    public let timeConstant: Duration
    /// How long without progress makes the work stalled, at least.
    public let stallAfter: Duration

    /// The first report: where the work started.
    private var first: Sample?
    /// The latest instant at which the work had moved on, and how far it was.
    private var last: Sample?
    /// The report before `last`'s instant, and the rate then: a report at the same instant as
    /// `last` is folded into it. `last` itself where the work started or resumed, at whose
    /// instant more progress moves the start up instead.
    private var previous: Sample?
    private var rateBeforeLast: Double?
    private var rate: Double?
    /// The usual gap between reports that moved the work on, weighted towards recent ones.
    private var gap: Double?
    private var reports = 0

    private struct Sample: Sendable, Hashable {
        var instant: Duration
        var completed: Double
    }

    /// Makes an estimator.
    public init(timeConstant: Duration = .seconds(3), stallAfter: Duration = .seconds(5)) {
        self.timeConstant = max(timeConstant, .milliseconds(1))
        self.stallAfter = stallAfter
    }

    /// Takes a report: `completed` units done at `instant`. A count that goes back starts the
    /// estimate over (the work started again).
    public mutating func record(completed: Double, at instant: Duration) {
        guard completed.isFinite else { return }
        reports += 1
        guard let last, completed >= last.completed, instant >= last.instant else {
            self = WaitAlertRateEstimator(timeConstant: timeConstant, stallAfter: stallAfter)
            reports = 1
            first = Sample(instant: instant, completed: completed)
            self.last = first
            return
        }
        guard completed > last.completed else { return }
        if instant == last.instant, let previous, previous.instant < instant {
            // More of the same instant's work: the rate at that instant is made again with all of it.
            self.last = Sample(instant: instant, completed: completed)
            rate = nextRate(from: rateBeforeLast, previous: previous)
            return
        }
        if instant == last.instant {
            // Progress at the instant the work started or resumed: where it starts moves up.
            first?.completed += completed - last.completed
            self.last = Sample(instant: instant, completed: completed)
            previous = self.last
            return
        }
        let seconds = Self.seconds(instant - last.instant)
        let limit = stallLimit
        if rate != nil, let usual = gap, instant - last.instant >= limit {
            // The work was stalled. The stall and what this report brings are cut out of the
            // work's history: the rate stays what it was before the stall (the units may have been
            // done just now, or all along and reported late), so the time left after a resume is
            // that of the work, never of its average over the stall. The stall counts towards the
            // usual gap no more than the limit it went past, so a next stall is seen as soon.
            first?.instant += instant - last.instant
            first?.completed += completed - last.completed
            gap = usual + 0.3 * (Self.seconds(limit) - usual)
            self.last = Sample(instant: instant, completed: completed)
            previous = self.last
            rateBeforeLast = rate
            return
        }
        gap = gap.map { $0 + 0.3 * (seconds - $0) } ?? seconds
        previous = last
        rateBeforeLast = rate
        self.last = Sample(instant: instant, completed: completed)
        rate = nextRate(from: rate, previous: last)
    }

    /// The rate once `last` is in: over the first ``timeConstant``, the average since the first
    /// report (one report placed a little late, as reports taken in batches are, cannot sway it);
    /// after, the average weighted over time.
    private func nextRate(from rate: Double?, previous: Sample) -> Double {
        guard let first, let last else { return rate ?? 0 }
        if last.instant - first.instant <= timeConstant || rate == nil {
            return (last.completed - first.completed) / Self.seconds(last.instant - first.instant)
        }
        return Self.blend(rate, from: previous, to: last, timeConstant: timeConstant)
    }

    /// The rate and the time left at `now`, for `total` units (`nil` when the total is unknown).
    public func estimate(total: Double?, at now: Duration) -> Estimate {
        guard let first, let last else { return Estimate(rate: nil, remaining: .unknown) }
        let known = reports >= 2 && now - first.instant >= .seconds(1) && rate != nil
        guard known, let rate, rate > 0 else { return Estimate(rate: nil, remaining: .unknown) }
        let sinceProgress = now - last.instant
        if sinceProgress >= stallLimit { return Estimate(rate: rate, remaining: .stalled) }
        guard let total, total > 0, total.isFinite else {
            return Estimate(rate: rate, remaining: .unknown)
        }
        let left = max(total - last.completed, 0) / rate - Self.seconds(sinceProgress)
        return Estimate(rate: rate, remaining: .about(Self.duration(seconds: left)))
    }

    /// How long without progress makes the work stalled: ``stallAfter``, or three times the usual
    /// gap between reports when that is longer.
    private var stallLimit: Duration {
        max(stallAfter, Self.duration(seconds: 3 * (gap ?? 0)))
    }

    /// `seconds` as a duration, held between zero and ``WaitAlertTiming/longestDuration``: a time
    /// left of a huge count at a slow rate, or the gap between reports years apart, is long, never
    /// a duration too large to represent.
    private static func duration(seconds: Double) -> Duration {
        let longest = WaitAlertTiming.longestDuration
        guard seconds.isFinite else { return seconds > 0 ? longest : .zero }
        return seconds >= Self.seconds(longest) ? longest : .seconds(max(seconds, 0))
    }

    /// The instant the work counts as stalled if no progress comes before it, once there is a
    /// rate to say so (`nil` before): a display that is not redrawn on every frame wakes then.
    public var stallsAt: Duration? {
        guard let last, reports >= 2, rate != nil else { return nil }
        let (instant, overflow) = last.instant.attoseconds.addingReportingOverflow(stallLimit.attoseconds)
        return overflow ? Duration(attoseconds: .max) : Duration(attoseconds: instant)
    }

    /// `rate` moved towards the rate between two samples, weighted by the time between them.
    private static func blend(_ rate: Double?, from old: Sample, to new: Sample, timeConstant: Duration) -> Double {
        let seconds = Self.seconds(new.instant - old.instant)
        let instant = (new.completed - old.completed) / seconds
        guard let rate else { return instant }
        let weight = 1 - exp(-seconds / Self.seconds(timeConstant))
        return rate + weight * (instant - rate)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.attoseconds) / 1e18
    }
}

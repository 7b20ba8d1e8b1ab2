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
/// The rate is the average since the rate last changed: all the work's history while its pace holds
/// (up to ``horizon``), so reports that come unevenly or carry rounded counts do not sway it, and
/// only the pace since a change once the work speeds up or slows down. A change is told from noise
/// by how far the counts drift from the rate, added up report after report (a CUSUM test): a drift
/// of more than a tenth of the rate that adds up to more than the work of 0.3 s (or four times
/// the counts' usual scatter), seen over more than the longest recent gap between reports. The new
/// rate is then measured from the first report that showed the drift, so work that slows down at
/// 40 % tells its new time left within a second or two, at the new rate alone.
///
/// The time left counts down between reports at the estimated rate, so it neither jumps at each
/// report of a steady trace nor freezes between the reports of a bursty one. After two usual gaps
/// without a report it counts down only as far as the last long gap carried work: where reports
/// come late, as chunks do, it goes on counting down; where the work pauses between bursts, the
/// time without progress slows the rate instead. A pause after none for ``horizon`` is left out of
/// the rate, as a stall is; once the work pauses again its pauses are part of its pace, the first
/// one too.
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
/// ``WaitAlertTiming/longestDuration``. Each report costs a few arithmetic operations and no
/// allocation.
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

    /// How far back a rate that holds is averaged: past it, older work weighs less and less, so a
    /// pace that drifts too slowly to count as a change is still followed.
    public let horizon: Duration
    /// How long without progress makes the work stalled, at least.
    public let stallAfter: Duration
    /// The same two, in seconds.
    private let horizonSeconds: Double
    private let stallAfterSeconds: Double

    struct Sample: Sendable, Hashable {
        var instant: Duration
        var completed: Double
    }

    /// A gap between two reports: where it started, and the rate then.
    private struct Gap: Sendable, Hashable {
        var from: Sample
        var rate: Double
    }

    /// A stretch of the work: how long it lasted and the units it brought.
    private struct Stretch: Sendable, Hashable {
        var duration: Duration
        var completed: Double
    }

    /// The first report: where the work started (stalls and a lone pause left out).
    private var first: Sample?
    /// Where the current rate starts: the first report, the first report that showed a change,
    /// or a point ``horizon`` back along the rate.
    private var start = Sample(instant: .zero, completed: 0)
    /// The latest instant at which the work had moved on, and how far it was.
    private var last = Sample(instant: .zero, completed: 0)
    private var rate: Double?
    /// The usual gap between reports that moved the work on, weighted towards recent ones.
    private var gap: Double?
    /// The longest recent gap between reports, forgotten over ``horizon``.
    private var longestGap = 0.0
    /// The share of the work the rate promised that the last long gap carried: 1 where reports
    /// only came late, 0 where the work paused.
    private var carried = 1.0
    /// When the last pause ended.
    private var pausedAt: Duration?
    /// The pause left out of the rate, while the work has not paused again.
    private var leftOut: Stretch?
    private var watch = ChangeWatch(at: Sample(instant: .zero, completed: 0))
    /// The gap that ended at `last`, to be judged once no more reports come at `last`'s instant:
    /// where it started, and the rate then.
    private var unjudged: Gap?
    private var reports = 0

    /// Makes an estimator.
    public init(horizon: Duration = .seconds(30), stallAfter: Duration = .seconds(5)) {
        self.horizon = max(horizon, .seconds(1))
        self.stallAfter = stallAfter
        horizonSeconds = Self.seconds(self.horizon)
        stallAfterSeconds = Self.seconds(stallAfter)
    }

    /// Takes a report: `completed` units done at `instant`. A count that goes back starts the
    /// estimate over (the work started again).
    public mutating func record(completed: Double, at instant: Duration) {
        guard completed.isFinite else { return }
        reports += 1
        guard first != nil, completed >= last.completed, instant >= last.instant else {
            self = WaitAlertRateEstimator(horizon: horizon, stallAfter: stallAfter)
            reports = 1
            let sample = Sample(instant: instant, completed: completed)
            (first, start, last) = (sample, sample, sample)
            watch = ChangeWatch(at: sample)
            return
        }
        guard completed > last.completed else { return }
        let now = Sample(instant: instant, completed: completed)
        if instant == last.instant {
            // More of the same instant's work: at the instant the rate starts, where it starts
            // moves up; later, the rate is made again with all of it.
            if start.instant == instant {
                start.completed += completed - last.completed
                first?.completed += completed - last.completed
            }
            last = now
            if start.instant < instant { rate = Self.rate(from: start, to: now) }
            return
        }
        let elapsed = instant - last.instant
        let seconds = Self.seconds(elapsed)
        if rate != nil, let usual = gap, seconds >= stallLimit {
            // The work was stalled. The stall and what this report brings are cut out of the
            // work's history: the rate stays what it was before the stall (the units may have been
            // done just now, or all along and reported late), so the time left after a resume is
            // that of the work, never of its average over the stall. The stall counts towards the
            // usual gap no more than the limit it went past, so a next stall is seen as soon.
            gap = usual + 0.3 * (stallLimit - usual)
            leaveOut(from: last, to: now)
            return
        }
        let paused = notePause(lasting: seconds, bringing: completed - last.completed)
        gap = gap.map { $0 + 0.3 * (seconds - $0) } ?? seconds
        longestGap = max(seconds, longestGap * exp(-seconds / horizonSeconds))
        if paused {
            if let pausedAt, instant - pausedAt <= horizon {
                // The work pauses again: its pauses are part of its pace, the first one too.
                if let leftOut {
                    start.instant -= leftOut.duration
                    start.completed -= leftOut.completed
                }
            } else {
                // A pause after none for a while is left out, as a stall is.
                pausedAt = instant
                let pause = Stretch(duration: elapsed, completed: completed - last.completed)
                leaveOut(from: last, to: now)
                leftOut = pause
                return
            }
            pausedAt = instant
            leftOut = nil
        }
        // The gap before `last` is judged now that all of its instant's reports are in.
        if let unjudged {
            let span = max(0.3, 2 * longestGap)
            if let changed = watch.observe(last, after: unjudged.from, rate: unjudged.rate, span: span) {
                start = changed
                rate = Self.rate(from: changed, to: last)
                leftOut = nil
            }
        }
        let before = rate
        let previous = last
        last = now
        rate = Self.rate(from: start, to: now)
        if paused {
            // How fast the work goes once it moves again says nothing of a change.
            watch.restart(at: now)
            unjudged = nil
        } else if let before, previous.instant - start.instant >= .milliseconds(500) {
            unjudged = Gap(from: previous, rate: before)
        } else {
            unjudged = nil
        }
        if instant - start.instant > horizon, let rate {
            start = Sample(instant: instant - horizon, completed: completed - rate * horizonSeconds)
        }
    }

    /// Cuts the time from `previous` to `now` and what it brought out of the work's history: the
    /// rate stays what it was.
    private mutating func leaveOut(from previous: Sample, to now: Sample) {
        let elapsed = now.instant - previous.instant
        let units = now.completed - previous.completed
        start.instant += elapsed
        start.completed += units
        first?.instant += elapsed
        first?.completed += units
        last = now
        watch.restart(at: now)
        unjudged = nil
    }

    /// Learns from a gap longer than two usual ones how much of the work the rate promised came
    /// with it, and whether the work paused: little of it came, over a gap four times the usual
    /// one and a second at least.
    private mutating func notePause(lasting seconds: Double, bringing units: Double) -> Bool {
        guard let rate, rate > 0, let usual = gap else { return false }
        let hold = 2 * usual
        guard seconds > hold else { return false }
        carried = min(max(units - rate * hold, 0) / (rate * (seconds - hold)), 1)
        return carried < 0.5 && seconds > max(4 * usual, 1)
    }

    /// The rate and the time left at `now`, for `total` units (`nil` when the total is unknown).
    public func estimate(total: Double?, at now: Duration) -> Estimate {
        guard let first else { return Estimate(rate: nil, remaining: .unknown) }
        let known = reports >= 2 && now - first.instant >= .seconds(1) && rate != nil
        guard known, let rate, rate > 0 else { return Estimate(rate: nil, remaining: .unknown) }
        let since = Self.seconds(now - last.instant)
        if since >= stallLimit { return Estimate(rate: rate, remaining: .stalled) }
        guard let total, total > 0, total.isFinite else {
            return Estimate(rate: rate, remaining: .unknown)
        }
        let units = max(total - last.completed, 0)
        let hold = 2 * (gap ?? 0)
        guard since > hold else {
            return Estimate(rate: rate, remaining: .about(Self.duration(seconds: units / rate - since)))
        }
        // Longer than two usual gaps without a report: the share of that time the last long gap
        // carried work counts down; the rest is time without progress, which slows the rate (the
        // pause left out counts again while the work pauses again).
        let unreported = since - hold
        var from = start
        if carried < 0.5, let leftOut, let pausedAt, now - pausedAt <= horizon {
            from.instant -= leftOut.duration
            from.completed -= leftOut.completed
        }
        let span = Self.seconds(last.instant - from.instant) + (1 - carried) * unreported
        let slowed = span > 0 && last.completed > from.completed ? (last.completed - from.completed) / span : rate
        let left = units / slowed - hold - carried * unreported
        return Estimate(rate: rate, remaining: .about(Self.duration(seconds: left)))
    }

    /// How long without progress makes the work stalled: ``stallAfter``, or three times the usual
    /// gap between reports when that is longer.
    private var stallLimit: Double {
        max(stallAfterSeconds, 3 * (gap ?? 0))
    }

    /// `seconds` as a duration, held between zero and ``WaitAlertTiming/longestDuration``: a time
    /// left of a huge count at a slow rate, or the gap between reports years apart, is long, never
    /// a duration too large to represent.
    private static func duration(seconds: Double) -> Duration {
        let longest = WaitAlertTiming.longestDuration
        guard seconds.isFinite else { return seconds > 0 ? longest : .zero }
        guard seconds < Self.longestSeconds else { return longest }
        let seconds = max(seconds, 0)
        let whole = seconds.rounded(.down)
        // Whole seconds and nanoseconds, rounded up (`Duration.seconds(_: Double)` costs twice as
        // much): a display that wakes at ``stallsAt`` finds the work stalled.
        return .seconds(Int64(whole)) + .nanoseconds(Int64(((seconds - whole) * 1e9).rounded(.up)))
    }

    /// ``WaitAlertTiming/longestDuration`` in seconds.
    private static let longestSeconds = seconds(WaitAlertTiming.longestDuration)

    /// The instant the work counts as stalled if no progress comes before it, once there is a
    /// rate to say so (`nil` before): a display that is not redrawn on every frame wakes then.
    public var stallsAt: Duration? {
        guard first != nil, reports >= 2, rate != nil else { return nil }
        let limit = max(stallAfter, Self.duration(seconds: stallLimit))
        let (instant, overflow) = last.instant.attoseconds.addingReportingOverflow(limit.attoseconds)
        return overflow ? Duration(attoseconds: .max) : Duration(attoseconds: instant)
    }

    /// Units per second from one sample to a later one.
    private static func rate(from start: Sample, to end: Sample) -> Double {
        (end.completed - start.completed) / seconds(end.instant - start.instant)
    }

    /// `duration` in seconds, through its components where its seconds fit in 64 bits:
    /// converting its 128-bit count of attoseconds to a `Double` costs some 30 times more.
    static func seconds(_ duration: Duration) -> Double {
        guard (.zero - widest...widest).contains(duration) else { return Double(duration.attoseconds) / 1e18 }
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The longest duration whose seconds fit in 64 bits.
    private static let widest = Duration.seconds(Int64.max)
}

import WaitAlert

/// The time-left figures: traces of work replayed at explicit instants through WaitAlert's
/// estimator and through those of indicatif, tqdm, rich and alive-progress (re-implemented in
/// ``IndicatifEstimator``, ``TqdmEstimator``, ``RichEstimator`` and ``AliveProgressEstimator``),
/// all read through the display a row uses (`6s left`, `~3m left`, `>1h left`).
extension Figures {
    /// One row per trace: the mean absolute error of the time left as displayed at the
    /// checkpoints, next to each baseline's; one row for the long run read at each quarter of its
    /// work; and one row for what each shows in a stall.
    func estimator() -> [Figure] {
        var figures = EstimatorTrace.all.map(Self.timeLeftFigure)
        if let long = EstimatorTrace.all.first(where: { $0.name.hasPrefix("long run:") }) {
            figures.append(Self.quartersFigure(long))
        }
        if let stalled = EstimatorTrace.all.first(where: { !$0.stalls.isEmpty }) {
            figures.append(Self.stallFigure(stalled))
        }
        figures.append(Self.costFigure())
        return figures
    }

    /// What a report and a reading cost, next to indicatif's estimator fed the same reports: a
    /// row's estimator takes a report at most once a frame.
    private static func costFigure() -> Figure {
        let count = 2_000_000
        var readings = 0.0
        func nanoseconds(_ body: () -> Void) -> Double {
            let start = ContinuousClock.now
            body()
            return (ContinuousClock.now - start).nanoseconds / Double(count)
        }
        var best = (subject: Double.infinity, baseline: Double.infinity)
        for _ in 0..<3 {
            best.subject = min(
                best.subject,
                nanoseconds {
                    var estimator = WaitAlertRateEstimator()
                    var completed = 0.0
                    for report in 0..<count {
                        completed += Double(5 + report % 7)
                        estimator.record(completed: completed, at: .microseconds(report * 16_667))
                        let estimate = estimator.estimate(total: 1e12, at: .microseconds(report * 16_667))
                        readings += estimate.rate ?? 0
                    }
                })
            best.baseline = min(
                best.baseline,
                nanoseconds {
                    var estimator = IndicatifEstimator(at: 0)
                    var completed: UInt64 = 0
                    for report in 0..<count {
                        completed += UInt64(5 + report % 7)
                        let now = Double(report) * 0.016_667
                        estimator.record(completed, at: now)
                        readings += estimator.eta(length: 1 << 40, position: completed, at: now)
                    }
                })
        }
        blackHole(Int(readings.truncatingRemainder(dividingBy: 1e9)))
        return Figure(
            name: "time left: a report and a reading",
            measured: "\(format(best.subject)) ns", baseline: "indicatif's estimator \(format(best.baseline)) ns",
            budget: "≤ 3× (\(format(best.subject / best.baseline, 2))×)",
            passed: best.subject <= 3 * best.baseline)
    }

    private static func timeLeftFigure(_ trace: EstimatorTrace) -> Figure {
        let score = TimeLeftScore(trace)
        let subject = score.results[0]
        let errors = subject.errors.map { $0.map { format($0) } ?? "none" }.joined(separator: ", ")
        let baselines = score.results.dropFirst()
        var budget = "MAE and quarters ≤ each, raw after the last change < each; no absurd value"
        var passed =
            baselines.allSatisfy { subject.mean <= $0.mean && subject.quartersMean <= $0.quartersMean }
            && baselines.allSatisfy { subject.knowableRawMean < $0.knowableRawMean }
            && subject.absurd == 0 && !subject.errors.contains(nil)
        if trace.isSteady {
            // The estimate itself within 10 % of the truth from the first second on (while at
            // least a second is left).
            let worst = score.worstRelativeError()
            budget += "; ±10 % from 1 s (\(format(worst * 100)) %)"
            passed = passed && worst <= 0.1
        }
        func summary(_ result: TimeLeftScore.Result) -> String {
            "\(format(result.mean, 2)) s, raw after the last change \(format(result.knowableRawMean, 2)) s, "
                + "quarters \(format(result.quartersMean * 100)) %, absurd \(result.absurd)"
        }
        return Figure(
            name: "time left, \(trace.name)",
            measured: "MAE \(summary(subject)) (\(errors)) of \(score.denseCount)",
            baseline: baselines.map { "\($0.estimator.name) \(summary($0))" }.joined(separator: "; "),
            budget: budget, passed: passed)
    }

    /// The long run read off the row as each quarter of its work is reported, as a user reads it.
    private static func quartersFigure(_ trace: EstimatorTrace) -> Figure {
        let score = TimeLeftScore(trace)
        func readings(_ result: TimeLeftScore.Result) -> String {
            let shown = result.quarterTexts.map { $0.map { "`\($0)`" } ?? "none" }.joined(separator: ", ")
            return "\(shown): \(format(result.quartersMean * 100)) %"
        }
        let truths = score.quarterTruths.map { format($0) }.joined(separator: ", ")
        let subject = score.results[0]
        return Figure(
            name: "time left at 25/50/75/90 % of the work, \(trace.name) (truth \(truths) s)",
            measured: readings(subject),
            baseline: score.results.dropFirst().map { "\($0.estimator.name) \(readings($0))" }.joined(separator: "; "),
            budget: "mean error ≤ each; a time at every quarter",
            passed: score.results.dropFirst().allSatisfy { subject.quartersMean <= $0.quartersMean }
                && !subject.quarterTexts.contains(nil))
    }

    /// What each estimator shows through a stall and right after it.
    private static func stallFigure(_ trace: EstimatorTrace) -> Figure {
        guard let stall = trace.stalls.first else {
            return Figure(name: "time left in a stall", measured: "—", baseline: "—", budget: "—", passed: false)
        }
        let seconds = Int(stall.lowerBound.seconds)..<Int(stall.upperBound.seconds)
        let instants = seconds.map { Duration.seconds($0) } + [stall.upperBound + .seconds(1)]
        let replay = TimeLeftReplay(trace, at: instants)
        let during = replay.samples.dropLast()
        func shown(_ text: String?) -> String { text ?? "nothing" }
        let stalledFrom = during.first { $0.readings[0].text == "stalled" }?.instant
        let stalledToEnd = stalledFrom.map { from in
            during.filter { $0.instant >= from }.allSatisfy { $0.readings[0].text == "stalled" }
        }
        let resumed = replay.samples[replay.samples.count - 1]
        let truth = trace.truth(at: resumed.instant)
        let resumedWell = resumed.readings[0].seconds.map { abs($0 - truth) <= 0.25 * truth } ?? false
        let stallStart = Int(stall.lowerBound.seconds)
        let stallEnd = Int(stall.upperBound.seconds)
        let baselines = TimeLeftEstimator.allCases.dropFirst().map { estimator in
            let index = estimator.rawValue
            let most = during.max { ($0.readings[index].seconds ?? 0) < ($1.readings[index].seconds ?? 0) }
            return "\(estimator.name) `\(shown(during.first?.readings[index].text))` at \(stallStart) s, "
                + "`\(shown(most?.readings[index].text))` at \(Int(most?.instant.seconds ?? 0)) s, "
                + "`\(shown(resumed.readings[index].text))` 1 s after"
        }
        return Figure(
            name: "time left in a stall (\(stallStart) → \(stallEnd) s)",
            measured: "`\(shown(during.first?.readings[0].text))` at \(stallStart) s, `stalled` from "
                + "\(stalledFrom.map { "\(Int($0.seconds)) s" } ?? "never"); "
                + "1 s after: `\(shown(resumed.readings[0].text))` (truth \(format(truth)) s)",
            baseline: baselines.joined(separator: "; "),
            budget: "`stalled` within 5 s to the end; within 25 % 1 s after",
            passed: (stalledFrom.map { $0 - stall.lowerBound <= .seconds(5) } ?? false) && stalledToEnd == true
                && resumedWell)
    }
}

/// The estimators of the figures: WaitAlert's first, then the baselines.
enum TimeLeftEstimator: Int, CaseIterable {
    case waitAlert, indicatif, tqdm, rich, aliveProgress

    var name: String {
        switch self {
        case .waitAlert: "WaitAlert"
        case .indicatif: "indicatif"
        case .tqdm: "tqdm"
        case .rich: "rich"
        case .aliveProgress: "alive-progress"
        }
    }
}

/// Every estimator replayed through a trace, read at a list of instants.
struct TimeLeftReplay {
    /// What one estimator shows at one instant.
    struct Reading {
        /// The time left as a row shows it (`6s left`, `stalled`), `nil` when it shows none.
        var text: String?
        /// The estimate itself, in seconds, when it is a time.
        var raw: Double?

        /// What a reader takes from the text, in seconds.
        var seconds: Double? { text.flatMap(TimeLeftReplay.seconds(shown:)) }
    }

    struct Sample {
        var instant: Duration
        /// In the order of ``TimeLeftEstimator/allCases``.
        var readings: [Reading]
    }

    var samples: [Sample]

    /// Reports at or before each instant are recorded before it is read; `instants` are sorted.
    init(_ trace: EstimatorTrace, at instants: [Duration]) {
        let total = Double(trace.total)
        var waitAlert = WaitAlertRateEstimator()
        var indicatif = IndicatifEstimator(at: 0)
        var tqdm = TqdmEstimator(total: total, at: 0)
        var rich = RichEstimator(total: total, at: 0)
        var alive = AliveProgressEstimator(total: total, at: 0)
        var next = 0
        var position = 0
        samples = instants.map { instant in
            while next < trace.reports.count, trace.reports[next].at <= instant {
                let report = trace.reports[next]
                let completed = Double(report.completed)
                waitAlert.record(completed: completed, at: report.at)
                indicatif.record(UInt64(report.completed), at: report.at.seconds)
                tqdm.record(completed, at: report.at.seconds)
                rich.record(completed, at: report.at.seconds)
                alive.record(completed, at: report.at.seconds)
                position = report.completed
                next += 1
            }
            let now = instant.seconds
            rich.refresh(until: now)
            alive.draw(until: now)
            let remaining = waitAlert.estimate(total: total, at: instant).remaining
            var raw: Double?
            if case .about(let left) = remaining { raw = left.seconds }
            let subject = Reading(text: ProgressText.remaining(remaining, knowsTotal: true), raw: raw)
            let baselines = [
                indicatif.eta(length: UInt64(trace.total), position: UInt64(position), at: now), tqdm.shown,
                rich.shown, alive.shown,
            ]
            return Sample(
                instant: instant,
                readings: [subject]
                    + baselines.map { seconds in
                        Reading(
                            text: seconds.flatMap {
                                ProgressText.remaining(.about(Self.duration(seconds: $0)), knowsTotal: true)
                            }, raw: seconds)
                    })
        }
    }

    /// Seconds as a duration for the display, which shows anything past an hour as `>1h`.
    private static func duration(seconds: Double) -> Duration {
        .seconds(min(max(seconds, 0), 1e9))
    }

    /// The seconds a reader takes from a displayed time left: `12s left` is 12, `~3m left` 180,
    /// `>1h left` 3,600 (the least it can mean); `nil` for `stalled`.
    static func seconds(shown text: String) -> Double? {
        guard text.hasSuffix(" left") else { return nil }
        let value = text.dropLast(" left".count)
        if value == ">1h" { return 3600 }
        if value.hasPrefix("~"), value.hasSuffix("m"), let minutes = Int(value.dropFirst().dropLast()) {
            return Double(minutes * 60)
        }
        if value.hasSuffix("s"), let seconds = Int(value.dropLast()) { return Double(seconds) }
        return nil
    }
}

/// The errors of every estimator on one trace.
struct TimeLeftScore {
    /// The checkpoints, in percent of each trace's duration.
    static let checkpoints = [10, 25, 50, 75, 90]
    /// The quarters of the work at which a reader looks, in percent of its units.
    static let quarters = [25, 50, 75, 90]

    struct Result {
        var estimator: TimeLeftEstimator
        /// At each checkpoint outside a stall: the displayed time left against the truth, in
        /// seconds; `nil` where it showed no time.
        var errors: [Double?] = []
        /// The same, of the estimates themselves, at the checkpoints after the trace's last
        /// surprise (a change of rate, a pause, a stall): before it, the truth holds a future no
        /// estimator can know, and the most pessimistic wins by chance.
        var knowableRawErrors: [Double?] = []
        /// The displayed time left as each quarter of the work is reported, against the truth,
        /// relative to it.
        var quarterTexts: [String?] = []
        var quarterErrors: [Double?] = []
        /// Every 100 ms from the first second to the end: estimates more than ten times the truth
        /// (and more than 10 s off).
        var absurd = 0

        var mean: Double { Self.mean(errors) }
        var knowableRawMean: Double { Self.mean(knowableRawErrors) }
        var quartersMean: Double { Self.mean(quarterErrors) }

        /// The mean, or infinity when a value is missing (no time shown counts as the worst).
        private static func mean(_ values: [Double?]) -> Double {
            let known = values.compactMap { $0 }
            return known.isEmpty || known.count < values.count ? .infinity : known.reduce(0, +) / Double(known.count)
        }
    }

    let trace: EstimatorTrace
    /// In the order of ``TimeLeftEstimator/allCases``.
    var results = TimeLeftEstimator.allCases.map { Result(estimator: $0) }
    /// The truth at each quarter of the work.
    var quarterTruths: [Double] = []
    /// The dense samples.
    let dense: TimeLeftReplay
    var denseCount: Int { dense.samples.count }

    init(_ trace: EstimatorTrace) {
        self.trace = trace
        let checkpoints = Self.checkpoints.map { trace.end * $0 / 100 }.filter { !trace.isStalled(at: $0) }
        for sample in TimeLeftReplay(trace, at: checkpoints).samples {
            let truth = trace.truth(at: sample.instant)
            let knowable = sample.instant > trace.changesUntil
            for (index, reading) in sample.readings.enumerated() {
                results[index].errors.append(reading.seconds.map { abs($0 - truth) })
                if knowable { results[index].knowableRawErrors.append(reading.raw.map { abs($0 - truth) }) }
            }
        }
        let quarterInstants = Self.quarters.compactMap { share in
            trace.reports.first { $0.completed * 100 >= trace.total * share }?.at
        }
        quarterTruths = quarterInstants.map { trace.truth(at: $0) }
        for sample in TimeLeftReplay(trace, at: quarterInstants).samples {
            let truth = trace.truth(at: sample.instant)
            for (index, reading) in sample.readings.enumerated() {
                results[index].quarterTexts.append(reading.text.map { String($0.dropLast(" left".count)) })
                results[index].quarterErrors.append(reading.seconds.map { abs($0 - truth) / truth })
            }
        }
        let tenths = Int(trace.end.seconds * 10)
        dense = TimeLeftReplay(trace, at: (10..<tenths).map { Duration.milliseconds($0 * 100) })
        for sample in dense.samples {
            let truth = trace.truth(at: sample.instant)
            for (index, reading) in sample.readings.enumerated() {
                if let raw = reading.raw, raw > max(10 * truth, truth + 10) { results[index].absurd += 1 }
            }
        }
    }

    /// The largest error of WaitAlert's estimate itself (before the display), relative to the
    /// truth, from the first second on while at least a second is left; 1 where it shows no time.
    func worstRelativeError() -> Double {
        dense.samples.filter { trace.truth(at: $0.instant) >= 1 }.map { sample in
            guard let raw = sample.readings[0].raw else { return 1 }
            let truth = trace.truth(at: sample.instant)
            return abs(raw - truth) / truth
        }.max() ?? 1
    }
}

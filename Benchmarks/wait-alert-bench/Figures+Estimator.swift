import WaitAlert

/// The time-left figures: traces of work replayed at explicit instants through WaitAlert's
/// estimator and through indicatif's (re-implemented in ``IndicatifEstimator``), both read through
/// the display a row uses (`6s left`, `~3m left`, `>1h left`).
extension Figures {
    /// One row per trace: the mean absolute error of the time left as displayed at the
    /// checkpoints, next to indicatif's; and one row for what each shows in a stall.
    func estimator() -> [Figure] {
        var figures = EstimatorTrace.all.map(Self.timeLeftFigure)
        if let stalled = EstimatorTrace.all.first(where: { !$0.stalls.isEmpty }) {
            figures.append(Self.stallFigure(stalled))
        }
        return figures
    }

    private static func timeLeftFigure(_ trace: EstimatorTrace) -> Figure {
        let score = TimeLeftScore(trace)
        let errors = score.waitAlertErrors.map { $0.map { format($0) } ?? "none" }.joined(separator: ", ")
        let baselineErrors = score.indicatifErrors.map { format($0) }.joined(separator: ", ")
        var budget = "< baseline; no absurd value"
        var passed =
            score.waitAlertMean < score.indicatifMean && score.waitAlertAbsurd == 0
            && !score.waitAlertErrors.contains(nil)
        if trace.isSteady {
            // The estimate itself within 10 % of the truth from the first second on (while at
            // least a second is left).
            let worst = score.worstRelativeError()
            budget += "; ±10 % from 1 s (\(format(worst * 100)) %)"
            passed = passed && worst <= 0.1
        }
        return Figure(
            name: "time left, \(trace.name)",
            measured:
                "MAE \(format(score.waitAlertMean, 2)) s (\(errors)), raw \(format(score.waitAlertRawMean, 2)) s; "
                + "absurd \(score.waitAlertAbsurd)/\(score.dense.samples.count)",
            baseline: "indicatif \(format(score.indicatifMean, 2)) s (\(baselineErrors)), "
                + "raw \(format(score.indicatifRawMean, 2)) s; absurd \(score.indicatifAbsurd)/\(score.dense.samples.count)",
            budget: budget, passed: passed)
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
        let stalledFrom = during.first { $0.waitAlert == "stalled" }?.instant
        let stalledToEnd = stalledFrom.map { from in
            during.filter { $0.instant >= from }.allSatisfy { $0.waitAlert == "stalled" }
        }
        let resumed = replay.samples[replay.samples.count - 1]
        let truth = trace.truth(at: resumed.instant)
        func shown(_ text: String?) -> String { text ?? "nothing" }
        let indicatifMost = during.max { $0.indicatifSeconds < $1.indicatifSeconds }
        let resumedWell = resumed.waitAlertSeconds.map { abs($0 - truth) <= 0.25 * truth } ?? false
        let stallStart = Int(stall.lowerBound.seconds)
        let stallEnd = Int(stall.upperBound.seconds)
        return Figure(
            name: "time left in a stall (\(stallStart) → \(stallEnd) s)",
            measured: "`\(shown(during.first?.waitAlert))` at \(stallStart) s, `stalled` from "
                + "\(stalledFrom.map { "\(Int($0.seconds)) s" } ?? "never"); "
                + "1 s after: `\(shown(resumed.waitAlert))` (truth \(format(truth)) s)",
            baseline: "indicatif `\(shown(during.first?.indicatif))` at \(stallStart) s, "
                + "`\(shown(indicatifMost?.indicatif))` at \(Int(indicatifMost?.instant.seconds ?? 0)) s; "
                + "1 s after: `\(resumed.indicatif)`",
            budget: "`stalled` within 5 s to the end; within 25 % 1 s after",
            passed: (stalledFrom.map { $0 - stall.lowerBound <= .seconds(5) } ?? false) && stalledToEnd == true
                && resumedWell)
    }
}

/// Both estimators replayed through a trace, read at a list of instants.
struct TimeLeftReplay {
    struct Sample {
        var instant: Duration
        /// WaitAlert's time left as a row shows it (`6s left`, `stalled`), `nil` when it shows none.
        var waitAlert: String?
        /// The estimate itself, in seconds, when it is a time.
        var waitAlertRaw: Double?
        /// indicatif's time left as the same row would show it.
        var indicatif: String
        var indicatifRaw: Double

        var waitAlertSeconds: Double? { waitAlert.flatMap(TimeLeftReplay.seconds(shown:)) }
        var indicatifSeconds: Double { TimeLeftReplay.seconds(shown: indicatif) ?? 0 }
    }

    var samples: [Sample]

    /// Reports at or before each instant are recorded before it is read; `instants` are sorted.
    init(_ trace: EstimatorTrace, at instants: [Duration]) {
        var waitAlert = WaitAlertRateEstimator()
        var indicatif = IndicatifEstimator(at: 0)
        var next = 0
        var position = 0
        let total = Double(trace.total)
        samples = instants.map { instant in
            while next < trace.reports.count, trace.reports[next].at <= instant {
                let report = trace.reports[next]
                waitAlert.record(completed: Double(report.completed), at: report.at)
                indicatif.record(UInt64(report.completed), at: report.at.seconds)
                position = report.completed
                next += 1
            }
            let remaining = waitAlert.estimate(total: total, at: instant).remaining
            let eta = indicatif.eta(length: UInt64(trace.total), position: UInt64(position), at: instant.seconds)
            var raw: Double?
            if case .about(let left) = remaining { raw = left.seconds }
            return Sample(
                instant: instant, waitAlert: ProgressText.remaining(remaining, knowsTotal: true), waitAlertRaw: raw,
                indicatif: ProgressText.remaining(.about(Self.duration(seconds: eta)), knowsTotal: true) ?? "",
                indicatifRaw: eta)
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

/// The errors of both estimators on one trace.
struct TimeLeftScore {
    /// The checkpoints, in percent of each trace's duration.
    static let checkpoints = [10, 25, 50, 75, 90]

    let trace: EstimatorTrace
    /// At each checkpoint outside a stall: the displayed time left against the truth, in seconds;
    /// `nil` where WaitAlert showed no time.
    var waitAlertErrors: [Double?] = []
    var indicatifErrors: [Double] = []
    /// The same, of the estimates themselves, before the display rounds them.
    var waitAlertRawErrors: [Double] = []
    var indicatifRawErrors: [Double] = []
    /// Every 100 ms from the first second to the end: estimates more than ten times the truth
    /// (and more than 10 s off).
    var waitAlertAbsurd = 0
    var indicatifAbsurd = 0
    /// The dense samples.
    let dense: TimeLeftReplay

    init(_ trace: EstimatorTrace) {
        self.trace = trace
        let checkpoints = Self.checkpoints.map { trace.end * $0 / 100 }.filter { !trace.isStalled(at: $0) }
        let replay = TimeLeftReplay(trace, at: checkpoints)
        for sample in replay.samples {
            let truth = trace.truth(at: sample.instant)
            waitAlertErrors.append(sample.waitAlertSeconds.map { abs($0 - truth) })
            indicatifErrors.append(abs(sample.indicatifSeconds - truth))
            if let raw = sample.waitAlertRaw { waitAlertRawErrors.append(abs(raw - truth)) }
            indicatifRawErrors.append(abs(sample.indicatifRaw - truth))
        }
        let tenths = Int(trace.end.seconds * 10)
        dense = TimeLeftReplay(trace, at: (10..<tenths).map { Duration.milliseconds($0 * 100) })
        for sample in dense.samples {
            let truth = trace.truth(at: sample.instant)
            func absurd(_ seconds: Double) -> Bool { seconds > max(10 * truth, truth + 10) }
            if let raw = sample.waitAlertRaw, absurd(raw) { waitAlertAbsurd += 1 }
            if absurd(sample.indicatifRaw) { indicatifAbsurd += 1 }
        }
    }

    var waitAlertMean: Double {
        let errors = waitAlertErrors.compactMap { $0 }
        return errors.isEmpty ? .infinity : errors.reduce(0, +) / Double(errors.count)
    }

    var indicatifMean: Double { Self.mean(indicatifErrors) }
    var waitAlertRawMean: Double { Self.mean(waitAlertRawErrors) }
    var indicatifRawMean: Double { Self.mean(indicatifRawErrors) }

    private static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .infinity : values.reduce(0, +) / Double(values.count)
    }

    /// The largest error of WaitAlert's estimate itself (before the display), relative to the
    /// truth, from the first second on while at least a second is left; 1 where it shows no time.
    func worstRelativeError() -> Double {
        dense.samples.filter { trace.truth(at: $0.instant) >= 1 }.map { sample in
            guard let raw = sample.waitAlertRaw else { return 1 }
            let truth = trace.truth(at: sample.instant)
            return abs(raw - truth) / truth
        }.max() ?? 1
    }
}

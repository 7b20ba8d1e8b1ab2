import Testing
import WaitAlertTesting

@testable import WaitAlert

/// The whole progress path — reporter, mailbox, timeline, rate estimator, a group's tally, every
/// renderer's text — with any values a caller can pass (`Int.min`, `Int.max`, negative counts and
/// totals, counts past their totals, `advance` past `Int.max`, reports minutes apart), over seeded
/// random scenarios. A failure names its seed; the scenario replays exactly from it.
@Suite("Progress with any values")
@MainActor
struct ProgressPropertyTests {
    /// Counts and totals, ordinary and extreme.
    nonisolated static let values: [Int] = [
        0, 1, -1, 7, 1000, 1_000_000_007, .max, .max - 1, .max / 2, .min, .min + 1, -1000, 4_000_000_000_000_000_000,
    ]
    nonisolated static let units: [WaitAlertProgressUnit] = [.count, .bytes, .binaryBytes, .named("files"), .named("")]
    nonisolated static let pauses: [Duration] = [
        .zero, .milliseconds(50), .milliseconds(300), .seconds(1), .seconds(7),
    ]

    /// One thing the work does.
    enum Step: CustomStringConvertible {
        case progress(Int, Int?, WaitAlertProgressUnit?)
        case advance(Int, totalBy: Int)
        case unknown
        case pause(Duration)

        var description: String {
            switch self {
            case .progress(let completed, let total, let unit):
                "progress(\(completed), \(total as Any), \(unit as Any))"
            case .advance(let units, let total): "advance(\(units), totalBy: \(total))"
            case .unknown: "unknown"
            case .pause(let duration): "pause(\(duration))"
            }
        }
    }

    /// A group that may report progress of its own, and child tasks that report.
    struct Scenario: CustomStringConvertible {
        var seed: UInt64
        var columns: Int
        var own: [Step]
        var children: [[Step]]
        var maxConcurrency: Int?
        /// Whether the child tasks' titles are long (every other seed): their rows keep a readable
        /// share of their text, whatever their figures.
        var longTitles: Bool

        init(seed: UInt64) {
            var rng = SplitMix64(seed: seed)
            self.seed = seed
            columns = [24, 40, 80, 100, 132][rng.next(below: 5)]
            own = rng.next(below: 3) == 0 ? Self.steps(&rng, count: 1 + rng.next(below: 4)) : []
            children = (0..<rng.next(below: 6)).map { _ in Self.steps(&rng, count: 1 + rng.next(below: 10)) }
            maxConcurrency = rng.next(below: 2) == 0 ? 1 + rng.next(below: 3) : nil
            longTitles = seed % 2 == 1
        }

        /// The title of child task `index`.
        func title(_ index: Int) -> String {
            longTitles ? "task \(index): hashing /usr/share/doc/libfoo\(index)/changelog.Debian.gz" : "task \(index)"
        }

        static func steps(_ rng: inout SplitMix64, count: Int) -> [Step] {
            func value() -> Int { values[rng.next(below: values.count)] }
            return (0..<count).flatMap { _ -> [Step] in
                let step: Step =
                    switch rng.next(below: 16) {
                    case 0...6:
                        .progress(
                            value(), rng.next(below: 4) == 0 ? nil : value(),
                            rng.next(below: 3) == 0 ? nil : units[rng.next(below: units.count)])
                    case 7...13: .advance(value(), totalBy: rng.next(below: 3) == 0 ? value() : 0)
                    case 14: .unknown
                    default: .pause(.seconds(400))  // a report minutes after the last
                    }
                return [step, .pause(pauses[rng.next(below: pauses.count)])]
            }
        }

        var description: String {
            "seed \(seed): \(columns) columns, own \(own), children \(children), maxConcurrency \(maxConcurrency as Any), "
                + "long titles \(longTitles)"
        }
    }

    static func perform(_ steps: [Step], on reporter: WaitAlertReporter, clock: ManualClock) async throws {
        for step in steps {
            switch step {
            case .progress(let completed, let total, let unit):
                reporter.progress(completed: completed, total: total, unit: unit)
            case .advance(let units, let total): reporter.advance(by: units, totalBy: total)
            case .unknown: reporter.progressUnknown()
            case .pause(let duration): try await clock.sleep(for: duration)
            }
        }
    }

    @Test(arguments: 0..<4)
    func scenarios(batch: Int) async {
        for seed in PropertyRuns.seeds(from: UInt64(batch * 12), of: 12) {
            let problems = await Self.run(Scenario(seed: seed))
            if !problems.isEmpty {
                Issue.record("\(Scenario(seed: seed))\n\(problems.prefix(8).joined(separator: "\n"))")
                return
            }
        }
    }

    /// Plays `scenario` through an interactive overlay (with the taskbar) and plain lines, and
    /// returns what went wrong.
    static func run(_ scenario: Scenario) async -> [String] {
        let screen = InMemoryTerminal(columns: scenario.columns, rows: 12)
        let pipe = InMemoryTerminal(columns: scenario.columns, rows: 12, isInteractive: false)
        let timing = try! WaitAlertTiming(
            grace: .milliseconds(200), minimumDisplay: .zero, fadeOut: .zero,
            spinner: try! Spinner(frames: Spinner.brailleDots.frames, interval: .seconds(5)))
        let bed = WaitAlertTestBed(
            timing: timing,
            renderers: [
                TerminalOverlay(terminal: screen, colors: .never, integration: .none, taskbar: .on),
                LineRenderer(terminal: pipe, heartbeatInterval: .seconds(30)),
            ])
        let clock = bed.clock
        let work = bed.start {
            try await withWaitAlert("Group", presenter: bed.presenter) { group in
                try await perform(scenario.own, on: group, clock: clock)
                _ = try await group.tasks(
                    for: Array(scenario.children.enumerated()), maxConcurrency: scenario.maxConcurrency,
                    title: { scenario.title($0.offset) }
                ) { child, row in try await perform(child.element, on: row, clock: clock) }
            }
        }
        var problems: [String] = []
        for second in stride(from: 1, through: 5_000, by: 13) {
            await bed.advance(to: .seconds(second))
            problems += screenProblems(screen, columns: scenario.columns)
            problems += textShareProblems(screen, scenario)
            if bed.presenter.alerts.isEmpty { break }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        problems += snapshotProblems(bed.recorder)
        problems += textProblems(pipe.transcript + screen.transcript, "transcript")
        problems += taskbarProblems(screen.output)
        if pipe.output.contains(0x1B) { problems.append("an escape byte on the pipe") }
        return problems
    }

    static func screenProblems(_ terminal: InMemoryTerminal, columns: Int) -> [String] {
        let wide = terminal.lines.filter { DisplayWidth.of($0) > columns }
        return wide.map { "wider than \(columns): \($0)" } + textProblems(terminal.lines, "screen")
    }

    /// Every child task's row shows the first ``TaskRegion/readableTextWidth(room:)`` cells of its
    /// title (less one, for the `…` of a cut): its figures never crowd its text out.
    static func textShareProblems(_ terminal: InMemoryTerminal, _ scenario: Scenario) -> [String] {
        let room = scenario.columns - 1 - 2 - 2  // a child task's indent and glyph
        return scenario.children.indices.compactMap { index in
            let title = scenario.title(index)
            guard let row = terminal.lines.first(where: { $0.hasPrefix("  ") && $0.contains("task \(index)") }) else {
                return nil
            }
            let kept = min(title.count, TaskRegion.readableTextWidth(room: room)) - 1
            return row.contains(title.prefix(kept)) ? nil : "the text of a row is crowded out: \(row)"
        }
    }

    /// Counts below zero, totals of zero, percentages above 100.
    static func textProblems(_ lines: [String], _ place: String) -> [String] {
        lines.compactMap { line in
            if line.contains(#/-\d/#) { return "\(place): a negative number: \(line)" }
            if line.contains(#/\/ ?0( |$)/#) { return "\(place): a total of zero: \(line)" }
            let percents = line.matches(of: #/(\d+)%/#).compactMap { Int($0.1) }
            if percents.contains(where: { $0 > 100 }) { return "\(place): over 100 %: \(line)" }
            return nil
        }
    }

    /// Every `OSC 9;4` sets a known state with a percentage from 0 to 100.
    static func taskbarProblems(_ bytes: [UInt8]) -> [String] {
        TaskbarOverlayTests.states(in: bytes).compactMap { state in
            let parts = state.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let kind = parts[0], let value = parts[1], (0...3).contains(kind),
                (0...100).contains(value)
            else { return "malformed OSC 9;4: \(state)" }
            return nil
        }
    }

    /// Every snapshot's progress is sensible; a group's is below 1 while a task runs or waits, and
    /// goes back only when work was added.
    static func snapshotProblems(_ recorder: RecordingRenderer) -> [String] {
        var problems: [String] = []
        var groups: [WaitAlertID: WaitAlertGroupProgress] = [:]
        var lastTotals: [WaitAlertID: Int] = [:]
        var grew: Set<WaitAlertID> = []  // groups in which a total grew since their last snapshot
        for case .snapshot(let snapshot, let id) in recorder.events {
            if let progress = snapshot.progress {
                if progress.completed < 0 || progress.total.map({ $0 <= 0 || $0 < progress.completed }) == true {
                    problems.append("\(id): \(progress)")
                }
                if let total = progress.total {
                    if let last = lastTotals[id], total > last { grew.insert(snapshot.parent ?? id) }
                    lastTotals[id] = total
                }
            }
            guard let group = snapshot.groupProgress else {
                groups[id] = nil
                continue
            }
            if !(0...1).contains(group.fraction) { problems.append("\(id): fraction \(group.fraction)") }
            if let units = group.units, units.completed < 0 || units.total.map({ $0 < units.completed }) == true {
                problems.append("\(id): \(units)")
            }
            if group.runningTasks + group.pendingTasks > 0, group.fraction >= 1 {
                problems.append("\(id): full while tasks run or wait: \(group)")
            }
            if let previous = groups[id], group.fraction < previous.fraction, group.tasks <= previous.tasks,
                (group.units?.total ?? 0) <= (previous.units?.total ?? 0), !grew.contains(id)
            {
                problems.append("\(id): back from \(previous.fraction) to \(group.fraction) with no work added")
            }
            groups[id] = group
            grew.remove(id)
        }
        return problems
    }

    // MARK: - The pure parts, with many more values

    /// Any progress value, rate and time left makes texts that fit their room and say nothing
    /// impossible.
    @Test func textsOfAnyProgress() {
        var rng = SplitMix64(seed: 7)
        let rates: [Double?] = [nil, 0, -1, 2.5, 9.3e18, 1e300, .infinity, -.infinity, .nan, .leastNonzeroMagnitude]
        let lefts: [WaitAlertRateEstimator.Remaining] = [
            .unknown, .stalled, .about(.zero), .about(.seconds(59)), .about(.seconds(1e15)),
            .about(Duration(attoseconds: .max)), .about(Duration(attoseconds: .min)),
        ]
        for _ in 0..<5_000 {
            let progress = WaitAlertProgress(
                completed: Self.values[rng.next(below: Self.values.count)],
                total: rng.next(below: 4) == 0 ? nil : Self.values[rng.next(below: Self.values.count)],
                unit: Self.units[rng.next(below: Self.units.count)], rate: rates[rng.next(below: rates.count)],
                remaining: lefts[rng.next(below: lefts.count)])
            let room = rng.next(below: 90)
            let row = ProgressText.row(progress, room: room, barWidth: rng.next(below: 30), unicode: true)
            #expect(DisplayWidth.of(row) <= room, "\(progress): \(row)")
            let summary = ProgressText.summary(progress)
            #expect(!summary.contains(#/\/ ?-?0( |$|,|\))/#), "\(progress): \(summary)")
            #expect(progress.knownTotal != nil || !summary.contains("left"), "\(progress): \(summary)")
            let group = WaitAlertGroupProgress(
                basis: rng.next(below: 2) == 0 ? .units : .tasks,
                fraction: [0, 0.5, 1, -1, 2, .nan][rng.next(below: 6)], units: progress,
                remaining: progress.remaining, tasks: rng.next(below: 5), finishedTasks: rng.next(below: 5))
            let groupRow = ProgressText.row(ProgressText.figures(group), room: room, barWidth: 20, unicode: false)
            #expect(DisplayWidth.of(groupRow) <= room, "\(group): \(groupRow)")
            #expect(ProgressText.percent(ProgressText.figures(group)).map { Int($0.dropLast())! <= 100 } ?? true)
        }
    }

    /// Any reports at any instants: rates and times left that can be shown, never a crash.
    @Test func theEstimatorWithAnyReports() {
        var rng = SplitMix64(seed: 11)
        let counts: [Double] = [0, 1, -5, 1e17, 1e17 + 16, 9.2e18, 1e300, .infinity, .nan]
        let gaps: [Duration] = [.zero, .milliseconds(1), .seconds(1), .seconds(400), .seconds(1e15), .seconds(1e19)]
        for _ in 0..<500 {
            var estimator = WaitAlertRateEstimator()
            var now = Duration.zero
            for _ in 0..<(1 + rng.next(below: 12)) {
                now += gaps[rng.next(below: gaps.count)]
                estimator.record(completed: counts[rng.next(below: counts.count)], at: now)
                let estimate = estimator.estimate(total: counts[rng.next(below: counts.count)], at: now)
                if case .about(let left) = estimate.remaining {
                    #expect(left >= .zero && left <= WaitAlertTiming.longestDuration)
                }
                #expect(estimate.rate.map { $0.isFinite && $0 > 0 } ?? true, "\(estimate)")
                _ = estimator.stallsAt
            }
        }
    }

    /// A group whose work only moves forward (counts that grow, totals that stay, planned steps
    /// taken in turn): its fraction never goes back, stays below 1 while anything runs or waits
    /// (the group's own work too), and is 1 once everything ended with its work done — never
    /// when a task failed.
    @Test func aGroupMovingForwardNeverGoesBack() {
        var rng = SplitMix64(seed: 13)
        for seed in 0..<300 {
            var tally = GroupProgressTally()
            var parts: [WaitAlertID: GroupProgressTally.Part] = [:]
            var ids: [WaitAlertID] = []
            let planned = rng.next(below: 4)
            tally.planned = planned
            var startedPlanned = 0
            var shown = 0.0
            var ownWork = GroupProgressTally.OwnWork.running
            let unitsPool: [WaitAlertProgressUnit] = rng.next(below: 2) == 0 ? [.bytes] : [.bytes, .count]
            for step in 0..<60 {
                let now = Duration.seconds(step)
                let takesPlanned = startedPlanned < planned && (ids.isEmpty || rng.next(below: 4) == 0)
                if ids.isEmpty || takesPlanned {
                    // The first task, or a planned step that begins in its place.
                    if takesPlanned {
                        startedPlanned += 1
                        tally.planned -= 1
                    }
                    let id = WaitAlertID.next()
                    ids.append(id)
                    var part = GroupProgressTally.Part(isRunning: true)
                    if rng.next(below: 2) == 0 {
                        part.units = .init(
                            completed: 0, total: [nil, 1, 100, .max][rng.next(below: 4)],
                            unit: unitsPool[rng.next(below: unitsPool.count)])
                    }
                    parts[id] = part
                    tally.set(id, part)
                } else {
                    let id = ids[rng.next(below: ids.count)]
                    // (A task that ended changes no more: the step only moves time.)
                    if var part = parts[id], part.isRunning {
                        if rng.next(below: 5) == 0 {
                            part.isRunning = false
                            part.succeeded = rng.next(below: 3) != 0
                            part.undone = !part.succeeded && rng.next(below: 2) == 0
                        } else if let units = part.units {
                            let completed = ReportMailbox.saturating(units.completed, rng.next(below: 40))
                            part.units = .init(
                                completed: min(completed, units.total ?? .max), total: units.total, unit: units.unit)
                        }
                        parts[id] = part
                        tally.set(id, part)
                    }
                }
                let busy = parts.values.contains(where: \.isRunning) || tally.planned > 0
                // The group's own work ends once its tasks have, at a step of its own.
                if !busy, rng.next(below: 2) == 0 { ownWork = .done }
                tally.update(at: now, ownWork: ownWork)
                guard let group = tally.progress(at: now, ended: false) else { continue }
                #expect(group.fraction >= shown, "seed \(seed), step \(step): \(group.fraction) after \(shown)")
                let whole = !busy && ownWork == .done && !parts.values.contains(where: \.undone)
                #expect(whole ? group.fraction == 1 : group.fraction < 1, "seed \(seed), step \(step): \(group)")
                shown = group.fraction
            }
        }
    }
}

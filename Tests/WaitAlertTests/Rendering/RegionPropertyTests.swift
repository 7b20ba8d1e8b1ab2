import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Thousands of seeded runs of the task region on an in-memory terminal that checks the region's
/// invariants after every write (``InMemoryTerminal/Invariants``): from 1 to 500 child tasks on
/// 5 to 60 rows and 20 to 200 columns, with random durations, failures, skips, cancellations,
/// timeouts, resizes while they run, retentions, nested steps, planned and skipped steps, and texts
/// with wide characters, emoji and trailing counts.
///
/// Each run must break no invariant, leave every record line it owes exactly once and in the
/// order its tasks ended (the group's own line after them), no record it does not owe, and no
/// spinner line. A failure prints the seed and the scenario, which `check(seed:)` runs again.
@Suite("Task region properties")
@MainActor
struct RegionPropertyTests {
    /// 10,000 scenarios in ten batches of 1,000 seeds (the first 100 of each batch unless the full
    /// sweep runs: ``PropertyRuns``).
    @Test(arguments: 0..<10)
    func scenarios(batch: Int) async {
        var failures = 0
        for seed in PropertyRuns.seeds(from: UInt64(batch * 1000), of: 1000) {
            if await !Self.check(seed: seed) { failures += 1 }
            if failures >= 3 { break }
        }
    }

    // MARK: - Scenarios

    /// How a task ends.
    enum Ending: Sendable {
        case success
        case failure(String)
        case skip(String)
        case warning(String)
        case info(String)
    }

    /// A child task: its work, its texts, and its own sequential steps.
    struct TaskPlan: Sendable {
        var title: String
        var duration: Duration
        var updates: [String] = []
        var logs: [String] = []
        var ending: Ending = .success
        var retention: WaitAlertRowRetention = .record
        var steps: [TaskPlan] = []

        /// The number of tasks, this one and its steps.
        var count: Int { 1 + steps.map(\.count).reduce(0, +) }
    }

    /// What a group does before its tasks: a planned step run, or skipped.
    enum StepAction: Sendable {
        case run(TaskPlan)
        case skip(String, reason: String)
    }

    /// How a group runs its tasks.
    enum Mode: Sendable {
        /// `tasks(for:policy:maxConcurrency:retention:)`.
        case tasks(WaitAlertFailurePolicy, maxConcurrency: Int?, retention: WaitAlertRowRetention)
        /// A task group of `task(_:retention:)` calls, each with the retention of its plan; failures
        /// are caught (the others keep going) or end the group (the others are cancelled).
        case taskGroup(catchesFailures: Bool)
    }

    /// A top-level alert and its child tasks.
    struct GroupPlan: Sendable {
        var title: String
        var start: Duration
        var timeout: Duration?
        var planned: [String]
        var steps: [StepAction]
        var mode: Mode
        var tasks: [TaskPlan]
    }

    struct Scenario: Sendable, CustomStringConvertible {
        var seed: UInt64
        var columns: Int
        var rows: Int
        var reflows: Bool
        var ending: TerminalOverlay.Ending
        var timing: WaitAlertTiming
        var groups: [GroupPlan]
        /// Window resizes: when, and the new size.
        var resizes: [(at: Duration, columns: Int, rows: Int)]
        /// When the work of every group is cancelled, if it is.
        var cancelAt: Duration?

        var taskCount: Int { groups.map { $0.tasks.map(\.count).reduce(0, +) + $0.steps.count }.reduce(0, +) }

        var description: String {
            var lines = [
                "seed \(seed): \(columns)x\(rows), reflows \(reflows), \(ending), \(taskCount) tasks, "
                    + "grace \(timing.grace), spinner \(timing.spinner?.interval ?? .zero), "
                    + "reading \(timing.finalMessage.maximum), fade \(timing.fadeOut)"
            ]
            for group in groups {
                lines.append(
                    "  \(group.title) at \(group.start), timeout \(group.timeout.map { "\($0)" } ?? "none"), "
                        + "\(group.mode), planned \(group.planned), \(group.steps.count) steps, "
                        + "\(group.tasks.count) tasks")
                for task in group.tasks.prefix(12) {
                    lines.append(
                        "    \(task.title) \(task.duration) \(task.ending) \(task.retention) +\(task.count - 1)")
                }
                if group.tasks.count > 12 { lines.append("    …") }
            }
            lines += resizes.map { "  resize at \($0.at) to \($0.columns)x\($0.rows)" }
            if let cancelAt { lines.append("  cancelled at \(cancelAt)") }
            return lines.joined(separator: "\n")
        }
    }

    /// How big a scenario is. Every alert event costs the test bed a step, so most scenarios are
    /// tiny and a few are large.
    enum Size: Sendable {
        /// 1 or 2 tasks, one group, no nesting or planned steps: 89 scenarios in 100.
        case tiny
        /// 3 to 6 tasks, with nesting, planned steps and a second group: 1 in 10.
        case small
        /// 7 to 40 tasks: 1 in 100.
        case medium
        /// 41 to 500 tasks: 1 in 2,500 (seed 1,249 has 500).
        case large

        init(seed: UInt64) {
            if seed % 2500 == 1249 {
                self = .large
            } else if seed % 100 == 50 {
                self = .medium
            } else if seed % 10 == 5 {
                self = .small
            } else {
                self = .tiny
            }
        }
    }

    /// The scenario of `seed`, of the size ``Size`` gives it.
    static func scenario(seed: UInt64) -> Scenario {
        var rng = SplitMix64(seed: seed)
        let size = Size(seed: seed)
        let tasks: Int
        switch size {
        case .tiny: tasks = 1 + rng.next(below: 2)
        case .small: tasks = 3 + rng.next(below: 4)
        case .medium: tasks = 7 + rng.next(below: 34)
        case .large: tasks = seed == 1249 ? 500 : 41 + rng.next(below: 460)
        }
        var names = Names(rng: SplitMix64(seed: seed ^ 0x5EED))
        let groupCount = size != .tiny && rng.next(below: 10) == 0 ? 2 : 1
        var groups: [GroupPlan] = []
        var left = tasks
        for index in 0..<groupCount {
            let share = index == groupCount - 1 ? left : 1 + rng.next(below: left - 1)
            left -= share
            groups.append(group(index, tasks: share, size: size, names: &names, rng: &rng))
        }
        let columns = 20 + rng.next(below: 181)
        let rows = 5 + rng.next(below: 56)
        var resizes: [(at: Duration, columns: Int, rows: Int)] = []
        for _ in 0..<[0, 0, 1, 1, 2, 3][rng.next(below: 6)] {
            let newColumns = rng.next(below: 3) == 0 ? columns : 20 + rng.next(below: 181)
            let newRows = rng.next(below: 3) == 0 ? rows : 5 + rng.next(below: 56)
            resizes.append((.randomMilliseconds(in: 0...3000, using: &rng), newColumns, newRows))
        }
        resizes.sort { $0.at < $1.at }
        return Scenario(
            seed: seed, columns: columns, rows: rows, reflows: rng.next(below: 2) == 0,
            ending: rng.next(below: 10) == 0 ? .transient : .persistent, timing: timing(size, &rng),
            groups: groups, resizes: resizes,
            cancelAt: rng.next(below: 12) == 0 ? .randomMilliseconds(in: 0...2000, using: &rng) : nil)
    }

    /// A timing with random knobs; most of them short, since every deadline costs a step of the
    /// test bed (a spinner frame, the reading time, each frame of a fade-out).
    private static func timing(_ size: Size, _ rng: inout SplitMix64) -> WaitAlertTiming {
        if size == .tiny || size == .small, rng.next(below: 5) != 0 {
            // Light: the fewest deadlines (no grace, no holds, a short reading time).
            return try! WaitAlertTiming(
                grace: .zero, appear: .zero, minimumDisplay: .zero, minimumPerMessage: .zero,
                finalMessage: .init(
                    base: .milliseconds(rng.next(below: 300)), perCharacter: .zero, minimum: .zero,
                    maximum: .milliseconds(300)),
                fadeOut: .zero,
                spinner: try! Spinner(frames: Spinner.brailleDots.frames, interval: .seconds(1)))
        }
        let short = try! WaitAlertTiming.ReadingTime(
            base: .milliseconds(200), perCharacter: .milliseconds(10), minimum: .zero, maximum: .seconds(1))
        let reading = rng.next(below: 4) == 0 ? WaitAlertTiming.ReadingTime.default : short
        let interval = size == .large ? 1000 : [80, 250, 1000, 1000, 1000][rng.next(below: 5)]
        return try! WaitAlertTiming(
            grace: .milliseconds([0, 200, 500][rng.next(below: 3)]),
            appear: .zero,
            minimumDisplay: .milliseconds([0, 500][rng.next(below: 2)]),
            minimumPerMessage: .milliseconds([0, 400][rng.next(below: 2)]),
            finalMessage: reading,
            fadeOut: .milliseconds(rng.next(below: 8) == 0 && size != .large ? 320 : 0),
            spinner: try! Spinner(frames: Spinner.brailleDots.frames, interval: .milliseconds(interval)))
    }

    private static func group(
        _ index: Int, tasks: Int, size: Size, names: inout Names, rng: inout SplitMix64
    ) -> GroupPlan {
        let longest = size == .tiny || size == .small ? 800 : 2000
        let nests = size != .tiny
        var left = tasks
        var planned: [String] = []
        var steps: [StepAction] = []
        if nests, left > 1, rng.next(below: 5) == 0 {
            let count = 1 + rng.next(below: min(4, left - 1))
            for _ in 0..<count {
                let title = names.title()
                planned.append(title)
                switch rng.next(below: 4) {
                case 0: break  // never run: listed as not run when the group ends
                case 1:
                    steps.append(.skip(title, reason: names.reason()))
                    left -= 1
                default:
                    steps.append(
                        .run(task(title: title, depth: nests ? 1 : 3, longest: longest, names: &names, rng: &rng)))
                    left -= 1
                }
            }
        }
        let plans = (0..<max(left, 0)).map { _ in
            task(title: names.title(), depth: nests ? 1 : 3, longest: longest, names: &names, rng: &rng)
        }
        let mode: Mode
        switch rng.next(below: 3) {
        case 0: mode = .taskGroup(catchesFailures: rng.next(below: 3) != 0)
        default:
            let policy: WaitAlertFailurePolicy = rng.next(below: 3) == 0 ? .failFast : .keepGoing
            let limit: Int? = rng.next(below: 2) == 0 ? nil : 1 + rng.next(below: max(plans.count, 1))
            mode = .tasks(policy, maxConcurrency: limit, retention: retention(&rng))
        }
        return GroupPlan(
            title: ["Building", "Deploying 🚀", "Testing 漢字"][index % 3] + " \(index)",
            start: index == 0 ? .zero : .randomMilliseconds(in: 0...1500, using: &rng),
            timeout: rng.next(below: 20) == 0 ? .randomMilliseconds(in: 300...3000, using: &rng) : nil,
            planned: planned, steps: steps, mode: mode, tasks: plans)
    }

    private static func task(
        title: String, depth: Int, longest: Int, names: inout Names, rng: inout SplitMix64
    ) -> TaskPlan {
        var plan = TaskPlan(
            title: title,
            duration: rng.next(below: 8) == 0 ? .zero : .randomMilliseconds(in: 1...longest, using: &rng))
        for _ in 0..<[0, 0, 1, 2, 4][rng.next(below: 5)] { plan.updates.append(names.update(of: title)) }
        for _ in 0..<[0, 0, 0, 1, 3][rng.next(below: 5)] { plan.logs.append(names.log()) }
        switch rng.next(below: 20) {
        case 0, 1: plan.ending = .failure(names.reason())
        case 2: plan.ending = .skip(names.reason())
        // A warning or information names its task, as a real one does: two tasks' records differ.
        case 3: plan.ending = .warning("\(title): \(names.reason())")
        case 4: plan.ending = .info("\(title): \(names.reason())")
        default: break
        }
        plan.retention = retention(&rng)
        if depth < 3, rng.next(below: 7) == 0 {
            for _ in 0..<(1 + rng.next(below: 3)) {
                plan.steps.append(
                    task(title: names.title(), depth: depth + 1, longest: longest / 2, names: &names, rng: &rng))
            }
        }
        return plan
    }

    private static func retention(_ rng: inout SplitMix64) -> WaitAlertRowRetention {
        [.record, .record, .keepUntilGroupEnds, .transient][rng.next(below: 4)]
    }

    /// Unique titles and other texts, with wide characters, emoji, combining marks, long names and
    /// trailing counts.
    struct Names {
        var rng: SplitMix64
        var next = 0

        static let words = [
            "Compiling", "Linking", "Fetching", "Resolving", "Core", "UI", "Networking", "漢字", "日本語のテキスト",
            "👍🏽", "🇺🇸", "e\u{301}te\u{301}", "naïve", "Ünïcødé", "한국어", "x", "🧑‍💻", "a-very-long-module-name",
            "Ω", "—", "(", ")", "tests",
        ]

        mutating func words(_ count: Int) -> String {
            (0..<count).map { _ in Self.words[rng.next(below: Self.words.count)] }.joined(separator: " ")
        }

        /// "T12 Compiling 漢字 12/40…": a unique number first, so no title is a prefix of another.
        mutating func title() -> String {
            next += 1
            var title = "T\(next) " + words(1 + rng.next(below: 3))
            if rng.next(below: 8) == 0 { title += " " + words(8 + rng.next(below: 30)) }
            if rng.next(below: 3) == 0 { title += " \(rng.next(below: 100))/\(100 + rng.next(below: 900))" }
            if rng.next(below: 8) == 0 { title += "…" }
            return title
        }

        mutating func update(of title: String) -> String {
            let name = title.split(separator: " ").prefix(3).joined(separator: " ")
            return "\(name): \(words(rng.next(below: 4))) \(rng.next(below: 40))/40"
        }

        mutating func log() -> String { "log " + words(1 + rng.next(below: 12)) }

        mutating func reason() -> String {
            ["exit code 1", "does not compile: " + words(2 + rng.next(below: 10)), "no tests"][rng.next(below: 3)]
        }
    }

    struct PlannedFailure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: - Running a scenario

    /// A task's work: its updates spread over its duration, its logs, its steps one after another,
    /// then its ending.
    nonisolated static func perform(_ plan: TaskPlan, _ row: WaitAlertReporter, _ clock: ManualClock) async throws {
        let slice = plan.duration / (plan.updates.count + 1)
        for update in plan.updates {
            try await clock.sleep(for: slice)
            row.update(update)
        }
        for line in plan.logs { row.log(line) }
        for step in plan.steps {
            try await row.step(step.title, retention: step.retention) { sub in try await perform(step, sub, clock) }
        }
        try await clock.sleep(for: slice)
        switch plan.ending {
        case .success: break
        case .failure(let reason): throw PlannedFailure(description: reason)
        case .skip(let reason): row.skip(reason)
        case .warning(let text): row.warn(text)
        case .info(let text): row.inform(text)
        }
    }

    /// A group's work: its planned steps, then its tasks.
    static func perform(_ group: GroupPlan, bed: WaitAlertTestBed) async throws {
        let clock = bed.clock
        try await clock.sleep(for: group.start)
        try await withWaitAlert(group.title, timeout: group.timeout, presenter: bed.presenter) { top in
            if !group.planned.isEmpty { await top.plan(group.planned) }
            for action in group.steps {
                switch action {
                case .run(let plan):
                    try await top.step(plan.title, retention: plan.retention) { try await perform(plan, $0, clock) }
                case .skip(let title, let reason):
                    await top.skipStep(title, reason: reason)
                }
            }
            switch group.mode {
            case .tasks(let policy, let limit, let retention):
                _ = try await top.tasks(
                    for: group.tasks, policy: policy, maxConcurrency: limit, retention: retention,
                    title: { @Sendable plan in plan.title }
                ) { plan, row in try await perform(plan, row, clock) }
            case .taskGroup(let catchesFailures):
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    for plan in group.tasks {
                        tasks.addTask {
                            do {
                                try await top.task(plan.title, retention: plan.retention) {
                                    try await perform(plan, $0, clock)
                                }
                            } catch  where catchesFailures {}
                        }
                    }
                    try await tasks.waitForAll()
                }
            }
        }
    }

    /// Runs the scenario of `seed` and checks it; records issues and returns `false` when it fails.
    @discardableResult
    static func check(seed: UInt64) async -> Bool {
        let scenario = scenario(seed: seed)
        let terminal = InMemoryTerminal(
            columns: scenario.columns, rows: scenario.rows, reflowsOnResize: scenario.reflows)
        terminal.checkInvariants()
        let overlay = TerminalOverlay(
            terminal: terminal, ending: scenario.ending, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: scenario.timing, renderers: [overlay])
        let works = scenario.groups.map { group in bed.start { try await perform(group, bed: bed) } }
        var events = scenario.resizes.map { ($0.at, Optional(($0.columns, $0.rows))) }
        if let cancelAt = scenario.cancelAt { events.append((cancelAt, nil)) }
        for (instant, resize) in events.sorted(by: { $0.0 < $1.0 }) {
            if instant > bed.now { await bed.advance(to: instant) }
            if let (columns, rows) = resize {
                terminal.resize(columns: columns, rows: rows)
                overlay.terminalDidResize()
            } else {
                works.forEach { $0.cancel() }
            }
        }
        for work in works { _ = try? await bed.run(until: work) }
        await bed.run()
        terminal.markEnd()
        await bed.advance(by: .seconds(5))

        var problems = terminal.invariantViolations.map(\.description)
        problems += checkRecords(scenario, recorder: bed.recorder, terminal: terminal)
        let spinner = Set(Spinner.brailleDots.frames.flatMap(\.unicodeScalars))
        let stale = (terminal.transcript + terminal.committedLines).filter {
            $0.unicodeScalars.contains { spinner.contains($0) }
        }
        if !stale.isEmpty { problems.append("stale spinner lines: \(stale)") }
        guard !problems.isEmpty else { return true }
        Issue.record(
            """
            \(scenario)
            \(problems.prefix(10).joined(separator: "\n"))
            committed lines:
            \(terminal.committedLines.joined(separator: "\n"))
            \(terminal)
            """)
        return false
    }

    /// Every record line owed exactly once, in the order the tasks ended, with each group's own
    /// line and its steps that never ran after its children's records; no record line not owed.
    static func checkRecords(_ scenario: Scenario, recorder: RecordingRenderer, terminal: InMemoryTerminal)
        -> [String]
    {
        struct Alert {
            var parent: WaitAlertID?
            var pending = PendingWork()
            var final: WaitAlertSnapshot?
        }
        var alerts: [WaitAlertID: Alert] = [:]
        var order: [WaitAlertID] = []  // in the order they ended
        for case .snapshot(let snapshot, let id) in recorder.events {
            if alerts[id] == nil { alerts[id] = Alert(parent: snapshot.parent) }
            if snapshot.outcome == nil { alerts[id]?.pending = snapshot.pendingWork }
            if snapshot.outcome != nil, alerts[id]?.final == nil {
                alerts[id]?.final = snapshot
                order.append(id)
            }
        }
        var problems: [String] = []
        let persistent = scenario.ending == .persistent
        // Each alert's lines, in order: its children's records in the order they ended, its steps
        // never run, its own line.
        var expected: [WaitAlertID: [String]] = [:]
        var unowed: [String] = []
        for id in order {
            guard let alert = alerts[id], let final = alert.final, let text = final.finalText else { continue }
            let line: String
            var owed: Bool
            switch final.outcome {
            case .success?:
                line = "✔ \(text) ("
                owed = final.wasShown && final.retention != .transient
            case .failure?:
                line = "✖ \(text)"
                owed = true
            case .cancelled?, .timedOut?:
                line = "⚠ \(text)"
                owed = final.wasShown
            case .skipped?:
                line = "↷ \(text)"
                owed = true
            case .warning?:
                line = "⚠ \(text) ("
                owed = true
            case .info?:
                line = "ℹ \(text)"
                owed = true
            case .dismissed?, nil:
                continue
            }
            if alert.parent == nil { owed = true }  // a group's own line, shown or not
            guard persistent else {
                unowed.append(line)
                continue
            }
            expected[id, default: []] += GroupRecap.notRun(alert.pending).map(\.plain)
            if owed {
                expected[id, default: []].append(line)
                if let parent = alert.parent { expected[parent, default: []].append(line) }
            } else {
                unowed.append(line)
            }
        }
        let matches: (String, String) -> Bool = { committed, expected in
            expected.hasSuffix(" (") ? committed.hasPrefix(expected) : committed == expected
        }
        for lines in expected.values {
            problems += terminal.checkCommitted(lines, matching: matches).map(\.description)
        }
        for line in unowed {
            let found = terminal.committedLines.filter { matches($0, line) }
            if !found.isEmpty { problems.append("a record line not owed: \(found)") }
        }
        return problems
    }
}

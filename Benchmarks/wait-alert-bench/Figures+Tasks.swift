import Synchronization
import Testing  // ManualClock.advance takes a source location
import WaitAlert
import WaitAlertTesting

/// Figures of child tasks: many rows reporting at once, a region with far more rows than lines.
extension Figures {
    /// The child tasks of the update figure, and the updates each of them makes.
    var childTasks: Int { 1_000 }
    var updatesPerChild: Int { updateCalls / childTasks }
    /// The running child tasks of the small and of the large region.
    var fewChildren: Int { 100 }
    var manyChildren: Int { 10_000 }

    /// 1,000 child tasks, each calling `update` on its own row in a loop, against 1,000 tasks each
    /// storing into a `Mutex<String>` of its own; and, over the same loops, how often each alert
    /// woke the main actor against how often it was drawn.
    func childTaskUpdates() async -> [Figure] {
        let texts = (0..<64).map { "update \($0)" }
        // Interleave baseline and subject twice and keep the best of each, against noise.
        var bare = Double.infinity
        var subject = Double.infinity
        var counts = ChildUpdateCounts(wakeUps: [], frames: [], writes: 0)
        for _ in 0..<2 {
            bare = min(bare, await bareUpdates(texts: texts))
            let (nanoseconds, run) = await alertUpdates(texts: texts)
            subject = min(subject, nanoseconds)
            counts = run
        }
        let updates = childTasks * updatesPerChild
        let bounded = zip(counts.wakeUps, counts.frames).allSatisfy { $0 <= $1 + 2 }
        return [
            Figure(
                name: "update() cost, \(grouped(childTasks)) child tasks",
                measured: "\(format(subject)) ns/call",
                baseline: "Mutex<String> ×\(grouped(childTasks)) \(format(bare)) ns",
                budget: "≤ 1.5× (\(format(subject / bare, 2))×)", passed: subject <= 1.5 * bare),
            Figure(
                name: "\(grouped(childTasks)) child tasks: wake-ups",
                measured: "\(grouped(updates)) updates, \(counts.wakeUps.reduce(0, +)) wake-ups, "
                    + "\(counts.frames.reduce(0, +)) frames (most of one alert: "
                    + "\(counts.wakeUps.max() ?? 0) and \(counts.frames.max() ?? 0)), \(counts.writes) writes",
                baseline: "—", budget: "every alert: wake-ups ≤ frames + 2", passed: bounded),
        ]
    }

    /// What the update figure counts, one element per alert (the parent first).
    struct ChildUpdateCounts: Sendable {
        var wakeUps: [Int]
        var frames: [Int]
        var writes: Int
    }

    /// The tasks of the update figure under an alert, each in a child task of its own: nanoseconds
    /// per update from the instant they all go to the end of the last loop, and the wake-ups and
    /// frames of every alert from then until the last texts have shown.
    private func alertUpdates(texts: [String]) async -> (Double, ChildUpdateCounts) {
        let terminal = CountingTerminal()
        let counter = RenderCounter()
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay, counter], timing: .terminal)
        let (tasks, updates) = (childTasks, updatesPerChild)
        let (gate, ends, done) = (Gate(), LoopEnds(), Gate())
        return try! await withWaitAlert("Building", presenter: presenter) { build in
            async let children: Void = Self.childTasks(
                of: build, count: tasks, body: Self.updateLoop(texts: texts, count: updates, gate, ends, done))
            await gate.waitForArrivals(tasks)
            await Self.waitUntilShown(presenter)
            let ids = Self.alertIDs(presenter)
            let wakeUpsBefore = ids.map { presenter.wakeUps(of: $0) ?? 0 }
            let framesBefore = ids.map { counter.renders[$0] ?? 0 }
            let writesBefore = terminal.written.writes
            let start = ContinuousClock.now
            gate.open()
            let end = await ends.waitForAll(tasks)
            // The last texts come through their holds (0.4 s) before the counts are read.
            try? await Task.sleep(for: .milliseconds(500))
            let counts = ChildUpdateCounts(
                wakeUps: zip(ids, wakeUpsBefore).map { (presenter.wakeUps(of: $0) ?? 0) - $1 },
                frames: zip(ids, framesBefore).map { (counter.renders[$0] ?? 0) - $1 },
                writes: terminal.written.writes - writesBefore)
            // The overlay stops drawing before the tasks end: each child task that ends lays the
            // region out again (the region figures measure it), which is not this figure.
            terminal.refuses = true
            done.open()
            await children
            return ((end - start).nanoseconds / Double(tasks * updates), counts)
        }
    }

    /// The baseline of the update figure: the same tasks and loops, each task storing into a
    /// `Mutex<String>` of its own.
    private func bareUpdates(texts: [String]) async -> Double {
        let (tasks, updates) = (childTasks, updatesPerChild)
        let (gate, ends, done) = (Gate(), LoopEnds(), Gate())
        let loop: @Sendable (Store) async -> Void = Self.updateLoop(texts: texts, count: updates, gate, ends, done)
        async let running: Void = Self.bareTasks(count: tasks) { await loop(Store()) }
        await gate.waitForArrivals(tasks)
        let start = ContinuousClock.now
        gate.open()
        let end = await ends.waitForAll(tasks)
        done.open()
        await running
        return (end - start).nanoseconds / Double(tasks * updates)
    }

    /// A task's part in the update figure: wait at `gate`, call `update` `count` times in a loop
    /// (specialized for each sink, so subject and baseline run the same loop), record its end,
    /// wait at `done`.
    nonisolated private static func updateLoop<Sink: TextSink>(
        texts: [String], count: Int, _ gate: Gate, _ ends: LoopEnds, _ done: Gate
    ) -> @Sendable (Sink) async -> Void {
        { sink in
            await gate.pass()
            for index in 0..<count { sink.update(texts[index & 63]) }
            ends.record()
            await done.pass()
        }
    }

    /// A child task of `parent` for each of `count` elements, as a build runs its targets
    /// (`tasks(for:)`), each running `body` with its row's reporter.
    nonisolated static func childTasks(
        of parent: WaitAlertReporter, count: Int, body: @escaping @Sendable (WaitAlertReporter) async -> Void
    ) async {
        let title = { (index: Int) in "Task \(index)" }
        _ = try? await parent.tasks(for: Array(0..<count), title: title) { _, row in await body(row) }
    }

    /// `count` plain tasks in a task group, each running `body`: the baseline of child tasks.
    nonisolated private static func bareTasks(count: Int, body: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count { group.addTask { await body() } }
        }
    }

    /// Waits until every alert of `presenter`, child tasks included, is visible.
    private static func waitUntilShown(_ presenter: WaitAlertPresenter) async {
        while presenter.alerts.isEmpty
            || presenter.alerts.contains(where: { alert in
                alert.snapshot.phase != .visible || alert.children.contains { $0.snapshot.phase != .visible }
            })
        {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Every alert of `presenter`: each top-level alert, then its child tasks.
    private static func alertIDs(_ presenter: WaitAlertPresenter) -> [WaitAlertID] {
        presenter.alerts.flatMap { [$0.id] + $0.children.map(\.id) }
    }

    // MARK: - A region with many rows

    /// One frame of a 24-line region with 100 and with 10,000 running child tasks (a header, 21
    /// rows and a summary shown), the memory of a child task with 10,000 alive against a bare
    /// task's, and the time to end 100 and 1,000 child tasks.
    ///
    /// Each region runs on a manual clock, so its spinners turn only when the clock is moved: the
    /// frames of the two regions are measured in turns, one advance of 80 ms each, every row in
    /// phase (all began at the same instant), so one frame is one batch and one write.
    func regionFrames() async -> [Figure] {
        let bare = await bareTaskMemory(count: manyChildren)
        let few = ManualRegion(children: fewChildren)
        await few.start()
        let before = mallocInUse()
        let many = ManualRegion(children: manyChildren)
        await many.start()
        let perTask = before.flatMap { before in mallocInUse().map { Double($0 - before) / Double(manyChildren) } }

        let frames = quick ? 40 : 150
        var times: [[Double]] = [[], []]
        let regions = [few, many]
        let wakeUpsBefore = regions.map(\.wakeUps)
        let writtenBefore = regions.map(\.terminal.written)
        for _ in 0..<frames {
            for (index, region) in regions.enumerated() { times[index].append(await region.frame()) }
        }
        let medians = times.map { percentile($0, 0.5) }
        let bytes = regions.indices.map {
            Double(regions[$0].terminal.written.bytes - writtenBefore[$0].bytes) / Double(frames)
        }
        let writes = regions.indices.map {
            Double(regions[$0].terminal.written.writes - writtenBefore[$0].writes) / Double(frames)
        }
        let woken = regions.indices.map { Double(regions[$0].wakeUps - wakeUpsBefore[$0]) / Double(frames) }
        let ratio = medians[1] / medians[0]

        // Ending child tasks: 100 against 1,000. (The 10,000 are left waiting: each child task that
        // ends lays out every row again, which for 10,000 takes minutes.)
        let ended = ManualRegion(children: 1_000)
        await ended.start()
        let endTimes = [await few.end(), await ended.end()]

        var figures: [Figure] = regions.indices.map { index in
            Figure(
                name: "frame, \(grouped(regions[index].children)) running child tasks",
                measured: "median \(format(medians[index], 1)) µs, \(format(bytes[index], 0)) B, "
                    + "\(format(writes[index], 2)) writes, \(format(woken[index], 1)) alerts woken",
                baseline: index == 0 ? "—" : "\(grouped(fewChildren)) tasks",
                budget: index == 0 ? "—" : "≈ 1× (\(format(ratio, 2))×; ≤ 1.5×)",
                passed: index == 0 || ratio <= 1.5)
        }
        figures.append(
            Figure(
                name: "end 1,000 child tasks at once",
                measured: "\(format(endTimes[1] * 1000, 0)) ms",
                baseline: "\(grouped(fewChildren)) tasks: \(format(endTimes[0] * 1000, 0)) ms",
                budget: "— (\(format(endTimes[1] / endTimes[0], 0))× for 10× the tasks)", passed: true))
        if let perTask, let bare {
            let own = perTask - bare
            figures.append(
                Figure(
                    name: "memory per child task, \(grouped(manyChildren)) alive",
                    measured: "\(format(own, 0)) B (\(format(perTask, 0)) B with its task)",
                    baseline: "bare task \(format(bare, 0)) B", budget: "≤ 2 KiB", passed: own <= 2048))
        }
        return figures
    }

    /// The memory of `count` plain tasks in a task group, each waiting: allocated bytes per task.
    private func bareTaskMemory(count: Int) async -> Double? {
        let gate = Gate()
        guard let before = mallocInUse() else { return nil }
        async let running: Void = Self.bareTasks(count: count) { await gate.pass() }
        await gate.waitForArrivals(count)
        let after = mallocInUse()
        gate.open()
        await running
        return after.map { Double($0 - before) / Double(count) }
    }

    /// An alert on a manual clock whose child tasks wait at a gate, drawn by an overlay into a
    /// counting 80×24 terminal.
    @MainActor
    final class ManualRegion {
        let children: Int
        let clock = ManualClock()
        let terminal = CountingTerminal()
        let presenter: WaitAlertPresenter
        private let gate = Gate()
        private var work: Task<Void, Never>?
        private let timing = WaitAlertTiming.terminal

        init(children: Int) {
            self.children = children
            let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
            presenter = WaitAlertPresenter(renderers: [overlay], timing: timing, clock: clock)
        }

        /// Starts the alert and its child tasks, and moves the clock past their grace (0.5 s) and
        /// their first second, so that every row shown spins and shows its elapsed time.
        func start() async {
            let (presenter, gate, children) = (presenter, gate, children)
            work = Task {
                _ = try? await withWaitAlert("Building", presenter: presenter) { build in
                    await Figures.childTasks(of: build, count: children) { _ in await gate.pass() }
                }
            }
            await gate.waitForArrivals(children)
            _ = await frame(after: timing.grace)
            for _ in 0..<15 { _ = await frame() }
        }

        /// Moves the clock one spinner interval (80 ms), or `interval`, and waits for the write
        /// that follows: the time it took, in microseconds.
        func frame(after interval: Duration = Spinner.brailleDots.interval) async -> Double {
            await clock.sleepers(atLeast: 1)  // the presenter's timer
            let writes = terminal.written.writes
            let start = ContinuousClock.now
            clock.advance(by: interval)
            while terminal.written.writes == writes, ContinuousClock.now - start < .seconds(5) { await Task.yield() }
            return (ContinuousClock.now - start).nanoseconds / 1000
        }

        /// Main-actor wake-ups of every alert so far.
        var wakeUps: Int {
            presenter.alerts.reduce(0) { sum, alert in
                sum + (presenter.wakeUps(of: alert.id) ?? 0)
                    + alert.children.reduce(0) { $0 + (presenter.wakeUps(of: $1.id) ?? 0) }
            }
        }

        /// Lets the child tasks return and waits for the alert's work to end: the seconds it took.
        func end() async -> Double {
            let start = ContinuousClock.now
            gate.open()
            await work?.value
            let seconds = (ContinuousClock.now - start).seconds
            presenter.shutDown()
            clock.cancelSleepers()
            return seconds
        }
    }
}

/// `12345` as "12,345".
func grouped(_ value: Int) -> String {
    let digits = String(value)
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result += "," }
        result.append(digit)
    }
    return result
}

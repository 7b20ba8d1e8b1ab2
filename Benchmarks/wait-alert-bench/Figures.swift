import Synchronization
import WaitAlert
import WaitAlertTesting

/// The benchmark's figures, each measured next to its baseline in the same run.
@MainActor
struct Figures {
    var quick: Bool

    var updateCalls: Int { quick ? 2_000_000 : 10_000_000 }
    var idleSeconds: Int { quick ? 3 : 10 }
    var fastTasks: Int { quick ? 2_000 : 10_000 }

    /// A visible alert on a real clock, drawn by an overlay into an in-memory terminal.
    private func visibleAlert(_ text: String = "Working") async -> (
        WaitAlertHandle, WaitAlertPresenter, InMemoryTerminal, FrameProbe
    ) {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        let probe = FrameProbe()
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let timing = try! WaitAlertTiming.terminal.with(grace: .zero)
        let presenter = WaitAlertPresenter(renderers: [overlay, probe], timing: timing)
        let alert = showWaitAlert(text, presenter: presenter)
        while alert.model.snapshot.phase != .visible { try? await Task.sleep(for: .milliseconds(5)) }
        return (alert, presenter, terminal, probe)
    }

    /// A bare `Mutex<String>` in an object, as shared state usually is, and its update: the least
    /// any thread-safe "set the text" can do. The baseline.
    final class Store: TextSink {
        private let text = Mutex<String>("")

        func update(_ newText: String) {
            text.withLock { $0 = newText }
        }
    }

    /// Nanoseconds per `sink.update` call, over `count` calls split across `tasks` tasks, each
    /// task a plain loop as in user code; specialized for each sink, so subject and baseline run
    /// the same loop.
    nonisolated private static func updateNanoseconds(
        _ sink: some TextSink, texts: [String], count: Int, tasks: Int
    ) async -> Double {
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in stride(from: task, to: count, by: tasks) { sink.update(texts[index & 63]) }
                }
            }
        }
        return (ContinuousClock.now - start).nanoseconds / Double(count)
    }

    /// `update` inside `withWaitAlert`, the way work reports, against a bare `Mutex<String>` store.
    func updateCost() async -> [Figure] {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: try! .terminal.with(grace: .zero))
        let texts = (0..<64).map { "update \($0)" }
        let store = Store()
        let calls = updateCalls
        var figures: [Figure] = []
        for tasks in [1, 4] {
            // Interleave baseline and subject twice and keep the best of each, against noise.
            var bare = Double.infinity
            var subject = Double.infinity
            for _ in 0..<2 {
                bare = min(bare, await Self.updateNanoseconds(store, texts: texts, count: calls, tasks: tasks))
                let cost = try! await withWaitAlert("Measuring", presenter: presenter) { alert in
                    await Self.updateNanoseconds(alert, texts: texts, count: calls, tasks: tasks)
                }
                subject = min(subject, cost)
            }
            figures.append(
                Figure(
                    name: "update() cost, \(tasks) task\(tasks == 1 ? "" : "s")",
                    measured: "\(format(subject)) ns/call", baseline: "Mutex<String> \(format(bare)) ns",
                    budget: "≤ 1.5× (\(format(subject / bare, 2))×)", passed: subject <= 1.5 * bare
                ))
        }
        return figures
    }

    func updateStorm() async -> Figure {
        let (alert, presenter, _, probe) = await visibleAlert()
        let id = alert.model.id
        let wakeUpsBefore = presenter.wakeUps(of: id) ?? 0
        let framesBefore = probe.frames
        let alertCopy = alert
        await Task.detached {
            for index in 0..<1_000_000 { alertCopy.update("storm \(index)") }
            alertCopy.update("the last text")
        }.value
        // Let the newest text come through its hold, then compare.
        let deadline = ContinuousClock.now + .seconds(2)
        while probe.lastText != "the last text", ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let wakeUps = (presenter.wakeUps(of: id) ?? 0) - wakeUpsBefore
        let frames = probe.frames - framesBefore
        alert.dismiss()
        return Figure(
            name: "update storm (1,000,000 updates)",
            measured: "\(wakeUps) wake-ups, \(frames) frames", baseline: "—",
            budget: "wake-ups ≤ frames + 2; last text shown",
            passed: wakeUps <= frames + 2 && probe.lastText == "the last text"
        )
    }

    /// One alert spinning idle on the system clock, its frames turned off the main actor, and
    /// ten rows spinning, against the least a spinner can do: a thread sleeping from frame to
    /// frame that writes `\r` and a glyph (the floor: one wake-up and one write a frame), and a
    /// dispatch timer that does the same. All write into the same kind of terminal, which only
    /// keeps the bytes.
    ///
    /// The CPU a wake-up costs on a VM drifts by tens of percent from one window to the next, so
    /// the windows are paired: each round measures one row, the floor and ten rows one after the
    /// other, and the budgets hold the median of the rounds' comparisons.
    func idleSpinning() async -> [Figure] {
        let rounds = quick ? 1 : 5
        let window = Duration.seconds(idleSeconds) / rounds
        let measuredSeconds = (window * rounds).seconds
        // The process at rest, before any alert of this figure: what measuring itself costs. It
        // also holds the one-off start of the threads and timers the figures use, so the window
        // after the alert has gone counts as rest too, and the lower of the two is the rest.
        let (restBeforeCPU, _) = await Self.idle(for: .seconds(2), terminal: TimedTerminal())

        var oneRow = IdleRuns()
        var floor = IdleRuns()
        var indicatif = IdleRuns()
        var tenRows = IdleRuns()
        var lateness: [Double] = []
        var rowsShown = 10
        for _ in 0..<rounds {
            let terminal = TimedTerminal()
            let origin = ContinuousClock.now  // the presenter's clock starts just after
            let alert = showWaitAlert("Working", presenter: Self.idlePresenter(drawingInto: terminal))
            try? await Task.sleep(for: .milliseconds(300))
            let (cpu, measured) = await Self.idle(for: window, terminal: terminal)
            alert.dismiss()
            oneRow.add(cpu, measured)
            let interval = Spinner.brailleDots.interval
            lateness += measured.instants.map { instant -> Double in
                let since = (instant - origin).attoseconds
                return Duration(attoseconds: since % interval.attoseconds).nanoseconds / 1e6
            }
            try? await Task.sleep(for: .seconds(1))  // gone

            let (floorCPU, floorMeasured) = await Self.idleBaseline(for: window) {
                BareThreadSpinner(terminal: $0).stop
            }
            floor.add(floorCPU, floorMeasured)
            let (indicatifCPU, indicatifMeasured) = await Self.idleBaseline(for: window) {
                IndicatifTickLoop(terminal: $0).stop
            }
            indicatif.add(indicatifCPU, indicatifMeasured)

            let (tenCPU, tenMeasured, shown) = await idleTenRows(for: window)
            tenRows.add(tenCPU, tenMeasured)
            rowsShown = min(rowsShown, shown)
            try? await Task.sleep(for: .seconds(2))  // its final line read and faded
        }
        // Nothing on screen: an alert shown and dismissed, its presenter and overlay kept.
        let quietTerminal = TimedTerminal()
        let quietPresenter = Self.idlePresenter(drawingInto: quietTerminal)
        let quietAlert = showWaitAlert("Working", presenter: quietPresenter)
        try? await Task.sleep(for: .milliseconds(300))
        quietAlert.dismiss()
        try? await Task.sleep(for: .seconds(2))  // its final message read and faded
        let (quietCPU, quiet) = await Self.idle(for: .seconds(2), terminal: quietTerminal)
        withExtendedLifetime(quietPresenter) {}  // alive through the window
        let restCPU = min(restBeforeCPU, quietCPU)

        // The same alert with its frames drawn through the main actor, as a renderer that wants
        // every frame makes them (a probe that counts them): timer → main queue → main actor → write.
        let baselineWindow = Duration.seconds(idleSeconds) / 2
        let throughMain = TimedTerminal()
        let mainAlert = showWaitAlert(
            "Working", presenter: Self.idlePresenter(drawingInto: throughMain, with: [FrameProbe()]))
        try? await Task.sleep(for: .milliseconds(300))
        let (mainCPU, _) = await Self.idle(for: baselineWindow, terminal: throughMain)
        mainAlert.dismiss()
        try? await Task.sleep(for: .seconds(1))
        let (bareCPU, _) = await Self.idleBaseline(for: baselineWindow) { BareSpinner(terminal: $0).stop }

        let bytesPerSecond = Double(oneRow.bytes) / measuredSeconds
        let floorBytesPerSecond = Double(floor.bytes) / measuredSeconds
        let tenBytesPerSecond = Double(tenRows.bytes) / measuredSeconds
        let p99 = percentile(lateness, 0.99)
        let ms = { (cpu: Double) in format(cpu * 1000, 2) }
        // Paired: this round's row against this round's floor; what this round's nine more rows
        // cost against this round's floor.
        let overFloor = median(zip(oneRow.cpu, floor.cpu).map { $0 / max($1, 1e-9) })
        let overIndicatif = median(zip(oneRow.cpu, indicatif.cpu).map { $0 / max($1, 1e-9) })
        let nineMore = zip(tenRows.cpu, oneRow.cpu).map { $0 - $1 }
        let nineOverFloor = median(zip(nineMore, floor.cpu).map { $0 - $1 })
        let pairing = rounds > 1 ? "median of \(rounds) paired rounds" : "one round"
        return [
            Figure(
                name: "idle spinning, \(idleSeconds) s",
                measured: "\(format(bytesPerSecond)) B/s, \(oneRow.writes) writes",
                baseline: "bare spinner \(format(floorBytesPerSecond)) B/s, \(floor.writes) writes",
                budget: "≤ 60 B/s", passed: bytesPerSecond <= 60),
            Figure(
                name: "idle spinning CPU",
                measured: "\(ms(median(oneRow.cpu))) ms/s (\(ms(median(oneRow.cpu) - restCPU)) above rest)",
                baseline:
                    "indicatif's tick loop \(ms(median(indicatif.cpu))); bare spinner \(ms(median(floor.cpu))) "
                    + "(a thread, \(format(overFloor, 2))×), \(ms(bareCPU)) (a dispatch timer); "
                    + "via main actor \(ms(mainCPU)); at rest \(ms(restCPU))",
                budget: "≤ indicatif's tick loop (\(format(overIndicatif, 2))×, \(pairing))",
                passed: overIndicatif <= 1),
            Figure(
                name: "frame timing, \(idleSeconds) s",
                measured: "p99 \(format(p99, 2)) ms late, max \(format(lateness.max() ?? 0, 2)) ms",
                baseline: "—", budget: "p99 ≤ 5 ms", passed: p99 <= 5 && !lateness.isEmpty),
            Figure(
                name: "nothing on screen, 2 s", measured: "\(quiet.writes) writes, \(ms(quietCPU)) ms/s",
                baseline: "at rest before the alert \(ms(restBeforeCPU)) ms/s", budget: "no write",
                passed: quiet.writes == 0),
            Figure(
                name: "idle, 10 rows spinning, \(idleSeconds) s",
                measured: "\(format(tenBytesPerSecond)) B/s, \(tenRows.writes) writes",
                baseline: "1 row \(format(bytesPerSecond)) B/s, \(oneRow.writes) writes",
                budget: "— (\(format(tenBytesPerSecond / bytesPerSecond, 1))×; 10 rows shown)",
                passed: rowsShown == 10),
            Figure(
                name: "idle, 10 rows spinning, CPU",
                measured: "\(ms(median(tenRows.cpu))) ms/s (\(ms(median(tenRows.cpu) - restCPU)) above rest)",
                baseline: "1 row \(ms(median(oneRow.cpu))) ms/s",
                budget:
                    "nine more rows ≤ the bare thread spinner (\(ms(median(nineMore))) against "
                    + "\(ms(median(floor.cpu))), \(pairing))",
                passed: nineOverFloor <= 0),
        ]
    }

    /// A presenter on the system clock with no grace delay, its overlay drawing into `terminal`,
    /// with `renderers` beside it.
    private static func idlePresenter(
        drawingInto terminal: TimedTerminal, with renderers: [any WaitAlertRenderer] = []
    ) -> WaitAlertPresenter {
        WaitAlertPresenter(
            renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)] + renderers,
            timing: try! .terminal.with(grace: .zero))
    }

    /// CPU seconds per second of each window, and what the terminals received.
    private struct IdleRuns {
        var cpu: [Double] = []
        var bytes = 0
        var writes = 0

        mutating func add(_ cpu: Double, _ written: TimedTerminal.Written) {
            self.cpu.append(cpu)
            bytes += written.bytes
            writes += written.writes
        }
    }

    /// CPU seconds per second and what its terminal received over `window` of a baseline spinner
    /// that `start` sets going on a terminal of its own (returning how to stop it), once settled.
    private static func idleBaseline(
        for window: Duration, _ start: (TimedTerminal) -> () -> Void
    ) async -> (cpu: Double, written: TimedTerminal.Written) {
        let terminal = TimedTerminal()
        let stop = start(terminal)
        try? await Task.sleep(for: .milliseconds(300))
        let measured = await idle(for: window, terminal: terminal)
        stop()
        return measured
    }

    /// CPU seconds per second and what `terminal` received over `window` of doing nothing.
    private static func idle(for window: Duration, terminal: TimedTerminal) async -> (
        cpu: Double, written: TimedTerminal.Written
    ) {
        terminal.reset()
        let cpuBefore = cpuTime()
        let start = ContinuousClock.now
        try? await Task.sleep(for: window)
        let elapsed = (ContinuousClock.now - start).seconds
        return ((cpuTime() - cpuBefore).seconds / elapsed, terminal.written)
    }

    /// Ten rows spinning for `window`, an alert and nine child tasks that wait, on the system
    /// clock; with how many of them the terminal shows.
    private func idleTenRows(for window: Duration) async -> (cpu: Double, written: TimedTerminal.Written, shown: Int) {
        let terminal = TimedTerminal()
        let gate = Gate()
        return try! await withWaitAlert("Building", presenter: Self.idlePresenter(drawingInto: terminal)) { build in
            async let children: Void = Self.childTasks(of: build, count: 9) { _ in await gate.pass() }
            await gate.waitForArrivals(9)
            try? await Task.sleep(for: .milliseconds(300))
            let (cpu, written) = await Self.idle(for: window, terminal: terminal)
            let screen = InMemoryTerminal(columns: 80, rows: 24)
            _ = screen.write(terminal.output)
            let shown = screen.lines.filter { $0.contains("Building") || $0.contains("Task ") }.count
            gate.open()
            await children
            return (cpu, written, shown)
        }
    }

    func textChange() async -> Figure {
        let (alert, _, terminal, probe) = await visibleAlert()
        try? await Task.sleep(for: .milliseconds(500))  // past the first text's hold
        let text = "Compressing 12 files into archive.tar…"
        terminal.resetCounters()
        alert.update(text)
        while probe.lastText != text { try? await Task.sleep(for: .milliseconds(1)) }
        // The text's write is the one that carries it (a frame may have ticked meanwhile).
        let bytes = terminal.bytesWritten - 4 * max(terminal.writeCount - 1, 0)
        alert.dismiss()
        return Figure(
            name: "text change", measured: "\(bytes) B for a \(text.utf8.count) B text", baseline: "—",
            budget: "≤ text + 20 B", passed: bytes <= text.utf8.count + 20)
    }

    /// `withWaitAlert` around work that returns at once, against calling the work directly and
    /// against running it in a bare `Task.immediate` (each call of the three in turn).
    func fastTask() async -> [Figure] {
        var figures: [Figure] = []
        for ending in [TerminalOverlay.Ending.transient, .persistent] {
            let terminal = ByteSink()
            let overlay = TerminalOverlay(terminal: terminal, ending: ending, colors: .never, integration: .none)
            let presenter = WaitAlertPresenter(renderers: [overlay], timing: .terminal)
            var overhead: [Double] = []
            var taskCosts: [Double] = []
            for index in 0..<fastTasks {
                let bareStart = ContinuousClock.now
                _ = Self.work(index)
                let bare = ContinuousClock.now - bareStart
                let start = ContinuousClock.now
                _ = try? await withWaitAlert("Quick", presenter: presenter) { _ in Self.work(index) }
                overhead.append(((ContinuousClock.now - start) - bare).nanoseconds / 1000)
                let taskStart = ContinuousClock.now
                // The least a call that runs work in a task of its own can do, at once on this
                // thread as `withWaitAlert` does: it scales with the machine's speed of the moment
                // (the VM's runs differ by up to 2× as a whole), which an absolute budget does not.
                _ = await Task.immediate { Self.work(index) }.value
                taskCosts.append(((ContinuousClock.now - taskStart) - bare).nanoseconds / 1000)
            }
            let median = percentile(overhead, 0.5)
            let taskMedian = percentile(taskCosts, 0.5)
            let written = String(decoding: terminal.output, as: UTF8.self)
            let finalLine = "✔ Quick (0.0s)\r\n"
            let expected = ending == .transient ? "" : String(repeating: finalLine, count: fastTasks)
            figures.append(
                Figure(
                    name: "fast task ×\(fastTasks), \(ending)",
                    measured: "median \(format(median, 1)) µs, \(terminal.output.count) B",
                    baseline: "direct call; a bare Task.immediate \(format(taskMedian, 2)) µs",
                    budget:
                        "≤ 30× the bare task (\(format(median / max(taskMedian, 0.001), 1))×); "
                        + "\(ending == .transient ? "0 B" : "final lines only")",
                    passed: median <= 30 * taskMedian && written == expected
                ))
        }
        return figures
    }

    /// Work that returns at once.
    nonisolated private static func work(_ index: Int) -> Int { index &* 31 }

    func memory() async -> Figure {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: try! .terminal.with(grace: .zero))
        let texts = (0..<64).map { "memory \($0)" }
        let calls = updateCalls
        let (before, after) = try! await withWaitAlert("Measuring", presenter: presenter) { alert in
            let before = residentBytes()
            _ = await Self.updateNanoseconds(alert, texts: texts, count: calls, tasks: 4)
            return (before, residentBytes())
        }
        let growth = after - before
        return Figure(
            name: "memory after \(calls / 1_000_000)M updates",
            measured: "\(format(Double(growth) / 1024, 0)) KiB growth",
            baseline: "RSS \(before / 1_048_576) MiB", budget: "≤ 1 MiB", passed: growth <= 1_048_576)
    }

    var floodLines: Int { quick ? 200_000 : 1_000_000 }

    /// A million log lines from another task into a pipe read slowly: the memory a flood takes
    /// (bounded by the log backlog), every line delivered in order, and the time, against writing
    /// the same lines straight into the same kind of pipe.
    func logFlood() async -> Figure {
        let lines = floodLines
        let direct = SlowPipe()
        let directStart = ContinuousClock.now
        await Task.detached {
            for index in 0..<lines {
                writeAll(Array("\(index) a log line of the flood\n".utf8), to: direct.writeEnd)
            }
        }.value
        let directResult = await direct.finish()
        let directTime = (ContinuousClock.now - directStart).seconds

        let pipe = SlowPipe()
        let overlay = TerminalOverlay(terminal: WaitAlertStandardError(descriptor: pipe.writeEnd), integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: .terminal)
        let before = residentBytes()
        let peak = PeakMemory()
        let start = ContinuousClock.now
        try! await withWaitAlert("Flooding", presenter: presenter) { alert in
            await Task.detached {
                for index in 0..<lines { alert.log("\(index) a log line of the flood") }
            }.value
        }
        let growth = peak.stop() - before
        let result = await pipe.finish()
        let time = (ContinuousClock.now - start).seconds
        let delivered = result.lines == lines && result.inOrder && directResult.lines == lines
        return Figure(
            name: "log flood, \(lines / 1000)k lines, slow pipe",
            measured: "peak RSS +\(format(Double(growth) / 1_048_576)) MiB, \(format(time, 2)) s",
            baseline: "direct write() \(format(directTime, 2)) s",
            budget: "≤ 12 MiB; all in order", passed: growth <= 12 << 20 && delivered)
    }
}

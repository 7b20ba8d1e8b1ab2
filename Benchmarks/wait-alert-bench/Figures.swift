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

    /// One alert spinning idle on the system clock, its frames turned off the main actor,
    /// against the least a spinner can do: a dispatch timer writing `\r` and a glyph every frame,
    /// and a thread sleeping from frame to frame that writes them. All write into the same kind
    /// of terminal, which only keeps the bytes.
    func idleSpinning() async -> [Figure] {
        let seconds = Double(idleSeconds)
        // The process at rest, before any alert of this figure: what measuring itself costs. It
        // also holds the one-off start of the threads and timers the figures use, so the window
        // after the alert has gone counts as rest too, and the lower of the two is the rest.
        let (restBeforeCPU, _) = await Self.idle(seconds: 2, terminal: TimedTerminal())
        let terminal = TimedTerminal()
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let origin = ContinuousClock.now  // the presenter's clock starts just after
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: try! .terminal.with(grace: .zero))
        let alert = showWaitAlert("Working", presenter: presenter)
        try? await Task.sleep(for: .milliseconds(300))
        let (cpu, measured) = await Self.idle(seconds: idleSeconds, terminal: terminal)
        alert.dismiss()
        try? await Task.sleep(for: .seconds(2))  // its final message read and faded
        let (quietCPU, quiet) = await Self.idle(seconds: 2, terminal: terminal)
        let restCPU = min(restBeforeCPU, quietCPU)
        let interval = Spinner.brailleDots.interval
        let lateness = measured.instants.map { instant -> Double in
            let since = (instant - origin).attoseconds
            return Duration(attoseconds: since % interval.attoseconds).nanoseconds / 1e6
        }
        let p99 = percentile(lateness, 0.99)

        // The same alert with its frames drawn through the main actor, as a renderer that wants
        // every frame makes them (a probe that counts them): timer → main queue → main actor → write.
        let throughMain = TimedTerminal()
        let probe = FrameProbe()
        let mainPresenter = WaitAlertPresenter(
            renderers: [TerminalOverlay(terminal: throughMain, colors: .never, integration: .none), probe],
            timing: try! .terminal.with(grace: .zero))
        let mainAlert = showWaitAlert("Working", presenter: mainPresenter)
        try? await Task.sleep(for: .milliseconds(300))
        let (mainCPU, _) = await Self.idle(seconds: idleSeconds, terminal: throughMain)
        mainAlert.dismiss()

        let bare = TimedTerminal()
        let spinner = BareSpinner(terminal: bare)
        try? await Task.sleep(for: .milliseconds(300))
        let (bareCPU, bareMeasured) = await Self.idle(seconds: idleSeconds, terminal: bare)
        spinner.stop()
        let threadTerminal = TimedTerminal()
        let threadSpinner = BareThreadSpinner(terminal: threadTerminal)
        try? await Task.sleep(for: .milliseconds(300))
        let (bareThreadCPU, _) = await Self.idle(seconds: idleSeconds, terminal: threadTerminal)
        threadSpinner.stop()

        let bytesPerSecond = Double(measured.bytes) / seconds
        let bareBytesPerSecond = Double(bareMeasured.bytes) / seconds
        return [
            Figure(
                name: "idle spinning, \(idleSeconds) s",
                measured: "\(format(bytesPerSecond)) B/s, \(measured.writes) writes",
                baseline: "bare spinner \(format(bareBytesPerSecond)) B/s, \(bareMeasured.writes) writes",
                budget: "≤ 60 B/s", passed: bytesPerSecond <= 60),
            Figure(
                name: "idle spinning CPU", measured: "\(format(cpu * 1000, 2)) ms/s",
                baseline:
                    "bare spinner \(format(bareCPU * 1000, 2)) (a dispatch timer), "
                    + "\(format(bareThreadCPU * 1000, 2)) (a thread); via main actor \(format(mainCPU * 1000, 2)); "
                    + "at rest \(format(restCPU * 1000, 2))",
                budget: "≤ 1 ms/s above rest (\(format((cpu - restCPU) * 1000, 2)))",
                passed: (cpu - restCPU) * 1000 <= 1),
            Figure(
                name: "frame timing, \(idleSeconds) s",
                measured: "p99 \(format(p99, 2)) ms late, max \(format(lateness.max() ?? 0, 2)) ms",
                baseline: "—", budget: "p99 ≤ 5 ms", passed: p99 <= 5 && !lateness.isEmpty),
            Figure(
                name: "nothing on screen, 2 s", measured: "\(quiet.writes) writes, \(format(quietCPU * 1000, 2)) ms/s",
                baseline: "at rest before the alert \(format(restBeforeCPU * 1000, 2)) ms/s", budget: "no write",
                passed: quiet.writes == 0),
        ] + (await idleRows(oneRow: (bytesPerSecond, cpu * 100, measured.writes), restCPU: restCPU))
    }

    /// CPU seconds per second and what `terminal` received over `seconds` of doing nothing.
    private static func idle(seconds: Int, terminal: TimedTerminal) async -> (
        cpu: Double, written: (bytes: Int, writes: Int, instants: [ContinuousClock.Instant])
    ) {
        terminal.reset()
        let cpuBefore = cpuTime()
        let start = ContinuousClock.now
        try? await Task.sleep(for: .seconds(seconds))
        let elapsed = (ContinuousClock.now - start).seconds
        return ((cpuTime() - cpuBefore).seconds / elapsed, terminal.written)
    }

    /// Ten rows spinning for the idle window, an alert and nine child tasks that wait, against the
    /// one row measured just before (the same kind of terminal, on the system clock).
    private func idleRows(oneRow: (bytesPerSecond: Double, cpu: Double, writes: Int), restCPU: Double) async
        -> [Figure]
    {
        let terminal = TimedTerminal()
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: try! .terminal.with(grace: .zero))
        let gate = Gate()
        let seconds = idleSeconds
        let (bytesPerSecond, cpu, writes, shown) = try! await withWaitAlert("Building", presenter: presenter) { build in
            async let children: Void = Self.childTasks(of: build, count: 9) { _ in await gate.pass() }
            await gate.waitForArrivals(9)
            try? await Task.sleep(for: .milliseconds(300))
            let (cpu, written) = await Self.idle(seconds: seconds, terminal: terminal)
            let screen = InMemoryTerminal(columns: 80, rows: 24)
            _ = screen.write(terminal.output)
            let shown = screen.lines.filter { $0.contains("Building") || $0.contains("Task ") }.count
            let measured = (Double(written.bytes) / Double(seconds), cpu * 100, written.writes, shown)
            gate.open()
            await children
            return measured
        }
        return [
            Figure(
                name: "idle, 10 rows spinning, \(seconds) s",
                measured: "\(format(bytesPerSecond)) B/s, \(writes) writes",
                baseline: "1 row \(format(oneRow.bytesPerSecond)) B/s, \(oneRow.writes) writes",
                budget: "— (\(format(bytesPerSecond / oneRow.bytesPerSecond, 1))×; 10 rows shown)",
                passed: shown == 10),
            Figure(
                name: "idle, 10 rows spinning, CPU",
                measured: "\(format(cpu * 10, 2)) ms/s, \(format(cpu, 3)) % of a core",
                baseline: "1 row \(format(oneRow.cpu * 10, 2)) ms/s",
                budget: "≤ 1 ms/s above rest (\(format(cpu * 10 - restCPU * 1000, 2)))",
                passed: cpu * 10 - restCPU * 1000 <= 1),
        ]
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

    /// `withWaitAlert` around work that returns at once, against calling the work directly.
    func fastTask() async -> [Figure] {
        var figures: [Figure] = []
        for ending in [TerminalOverlay.Ending.transient, .persistent] {
            let terminal = ByteSink()
            let overlay = TerminalOverlay(terminal: terminal, ending: ending, colors: .never, integration: .none)
            let presenter = WaitAlertPresenter(renderers: [overlay], timing: .terminal)
            var overhead: [Double] = []
            for index in 0..<fastTasks {
                let bareStart = ContinuousClock.now
                _ = Self.work(index)
                let bare = ContinuousClock.now - bareStart
                let start = ContinuousClock.now
                _ = try? await withWaitAlert("Quick", presenter: presenter) { _ in Self.work(index) }
                overhead.append(((ContinuousClock.now - start) - bare).nanoseconds / 1000)
            }
            let median = percentile(overhead, 0.5)
            let written = String(decoding: terminal.output, as: UTF8.self)
            let finalLine = "✔ Quick (0.0s)\r\n"
            let expected = ending == .transient ? "" : String(repeating: finalLine, count: fastTasks)
            figures.append(
                Figure(
                    name: "fast task ×\(fastTasks), \(ending)",
                    measured: "median \(format(median, 1)) µs, \(terminal.output.count) B",
                    baseline: "direct call",
                    budget: "≤ 20 µs; \(ending == .transient ? "0 B" : "final lines only")",
                    passed: median <= 20 && written == expected
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

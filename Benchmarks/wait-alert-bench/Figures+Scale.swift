import WaitAlert

extension Figures {
    var scaleChildren: Int { quick ? 3_000 : 10_000 }

    /// `scaleChildren` child tasks of 100 ms each in one alert drawn in an 80×24 terminal on the
    /// system clock, all started at once: the time beyond the work and the memory at the peak,
    /// against the same number of bare tasks sleeping as long in a task group.
    func childTasksAtScale() async -> [Figure] {
        let count = scaleChildren
        let work = Duration.milliseconds(100)

        let bareBefore = residentBytes()
        let barePeak = PeakMemory()
        let bareStart = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count { group.addTask { try? await Task.sleep(for: work) } }
        }
        let bareTime = ContinuousClock.now - bareStart
        let bareGrowth = barePeak.stop() - bareBefore

        let terminal = CountingTerminal()
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: .terminal)
        let before = residentBytes()
        let peak = PeakMemory()
        let start = ContinuousClock.now
        _ = try? await withWaitAlert("Building", presenter: presenter) { build in
            try await build.tasks(for: Array(0..<count), title: { "Compiling M\($0)" }) { _, _ in
                try await Task.sleep(for: work)
            }
        }
        let time = ContinuousClock.now - start
        let growth = peak.stop() - before
        let beyond = time - work
        return [
            Figure(
                name: "\(grouped(count)) child tasks of 100 ms, 80×24",
                measured: "\(format(beyond.seconds * 1000, 0)) ms beyond the work, peak RSS +\(mebibytes(growth))",
                baseline: "bare tasks: \(format((bareTime - work).seconds * 1000, 0)) ms, +\(mebibytes(bareGrowth))",
                budget: "≤ 1 s beyond; ≤ 40 MiB",
                passed: beyond <= .seconds(1) && growth <= 40 << 20)
        ]
    }

    private func mebibytes(_ bytes: Int) -> String { "\(format(Double(bytes) / 1_048_576, 1)) MiB" }
}

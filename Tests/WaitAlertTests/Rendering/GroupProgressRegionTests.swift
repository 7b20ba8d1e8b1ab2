import Testing
import WaitAlertTesting

@testable import WaitAlert

/// A group's progress as every renderer shows it: the header, the plain lines, the taskbar and
/// the snapshot say the same, never 100 % while tasks run or wait their turn, never back.
@Suite("Group progress in the renderers")
@MainActor
struct GroupProgressRegionTests {
    /// `tasks` downloads, 4 at a time, each sized only after a moment (its headers arrive), of
    /// seeded sizes; the group declares `declared` bytes when given.
    static func downloads(
        _ bed: WaitAlertTestBed, tasks: Int = 20, declared: Int? = nil
    ) -> Task<Void, any Error> {
        bed.start {
            try await withWaitAlert("Downloading", presenter: bed.presenter) { group in
                if let declared { group.progress(completed: 0, total: declared, unit: .bytes) }
                _ = try await group.tasks(for: Array(0..<tasks), maxConcurrency: 4, title: { "file\($0).bin" }) {
                    index, row in
                    let size = 1_000_000 + (index * 7_919_000) % 5_000_000
                    try await bed.clock.sleep(for: .milliseconds(300))
                    row.progress(completed: 0, total: size, unit: .bytes)
                    var done = 0
                    while done < size {
                        try await bed.clock.sleep(for: .milliseconds(100))
                        let chunk = min(250_000, size - done)
                        done += chunk
                        row.advance(by: chunk)
                    }
                }
            }
        }
    }

    /// The percentage of a header or plain line: `45%`.
    static func percent(_ line: String) -> Int? {
        line.firstMatch(of: #/ (\d+)%/#).flatMap { Int($0.1) }
    }

    @Test func theHeaderIsNeverFullWhileTasksRunOrWaitAndNeverGoesBack() async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 12)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none, taskbar: .on)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = Self.downloads(bed)
        var percents: [Int] = []
        for tenth in 5...200 {
            await bed.advance(to: .milliseconds(100 * tenth))
            guard let header = terminal.lines.first(where: { $0.contains("Downloading") }),
                let percent = Self.percent(header)
            else { continue }
            let children = bed.presenter.alerts.first?.children ?? []
            if children.contains(where: { $0.snapshot.outcome == nil }) || children.count < 20 {
                #expect(percent < 100, "\(bed.now): \(header)")
            }
            percents.append(percent)
        }
        try await bed.run(until: work)
        await bed.run()
        #expect(percents.count > 40, "\(terminal)")
        #expect(percents == percents.sorted(), "never back: \(percents)")
        #expect(percents.first ?? 100 < 10, "it starts low: \(percents)")
        let taskbar = TaskbarOverlayTests.states(in: terminal.output).compactMap { state in
            state.hasPrefix("1;") ? Int(state.dropFirst(2)) : nil
        }
        #expect(taskbar == taskbar.sorted() && taskbar.dropLast().allSatisfy { $0 < 100 }, "\(taskbar)")
    }

    @Test func plainLinesStartLowAndNeverGoBack() async throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [TerminalOverlay(terminal: terminal)])
        try await bed.run(until: Self.downloads(bed))
        await bed.run()
        let lines = terminal.transcript.filter { $0.hasPrefix("Downloading: ") }
        let percents = lines.compactMap(Self.percent)
        #expect(percents.count == lines.count && percents.count >= 4, "\(lines)")
        #expect(percents == percents.sorted() && percents.first ?? 100 < 50, "\(lines)")
        #expect(lines.last?.hasPrefix("Downloading: 100% (") == true, "\(lines)")
        #expect(lines.dropLast().allSatisfy { $0.contains(" tasks, ") || $0.contains(" / ") }, "\(lines)")
    }

    /// A group without a text prints its figures alone, never `: 45% (…)`.
    @Test func aGroupWithoutATextPrintsItsFiguresAlone() async throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [TerminalOverlay(terminal: terminal)])
        try await bed.run(
            until: bed.start {
                try await withWaitAlert("", presenter: bed.presenter) { group in
                    try await group.task("part") { row in
                        row.progress(completed: 0, total: 10)
                        for _ in 0..<10 {
                            try await bed.clock.sleep(for: .milliseconds(200))
                            row.advance()
                        }
                    }
                }
            })
        await bed.run()
        let lines = terminal.transcript.filter { $0.contains("%") }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.first?.isNumber == true }, "\(lines)")
    }

    /// A total the group declared counts its child tasks' bytes, instead of switching them off.
    @Test func aDeclaredTotalCountsTheChildTasks() async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 12)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
        let work = Self.downloads(bed, declared: 70_000_000)
        // A frame later: a change of progress, the group's too, shows at most once a frame.
        await bed.advance(to: .seconds(6) + .milliseconds(80))
        let header = try #require(terminal.lines.first { $0.contains("Downloading") }, "\(terminal)")
        let group = try #require(bed.presenter.alerts.first?.snapshot.groupProgress)
        let done = try #require(group.units?.completed)
        #expect(group.basis == .units && group.units?.total == 70_000_000)
        #expect(done > 5_000_000, "\(header)")
        #expect(header.contains(" / 70.0 MB") && !header.contains(" 0% "), "\(header)")
        #expect(Self.percent(header) == ProgressText.percent(of: Double(done) / 70_000_000), "\(header)")
        try await bed.run(until: work)
    }

    /// The sum is in the group's snapshot, for tests and UIs: what the header shows.
    @Test func theGroupsSnapshotCarriesIt() async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 12)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
        let work = Self.downloads(bed)
        // A frame later: a change of progress, the group's too, shows at most once a frame.
        await bed.advance(to: .seconds(3) + .milliseconds(80))
        let snapshot = try #require(bed.presenter.alerts.first?.snapshot)
        let group = try #require(snapshot.groupProgress)
        #expect(snapshot.progress == nil, "its own progress stays its own")
        #expect(group.basis == .tasks && group.tasks == 20 && group.pendingTasks > 0, "\(group)")
        #expect(group.finishedTasks + group.runningTasks + group.pendingTasks == 20)
        let header = try #require(terminal.lines.first { $0.contains("Downloading") })
        #expect(Self.percent(header) == ProgressText.percent(of: group.fraction), "\(header) \(group)")
        let child = try #require(bed.presenter.alerts.first?.children.first?.snapshot)
        #expect(child.groupProgress == nil, "a task without child tasks has none")
        try await bed.run(until: work)
        #expect(bed.presenter.alerts.first?.snapshot.groupProgress?.fraction ?? 1 == 1)
    }
}

import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Work that did not do all it set out to do never reads as complete: a group whose child task
/// failed, or whose own work still runs, is never at 100 %, in any renderer.
@Suite("Unfinished work is never 100 %")
@MainActor
struct UnfinishedWorkTests {
    /// Three downloads, the second of which fails after 89 of its 100 chunks (of 100 kB each);
    /// the others finish. The group keeps going.
    static func downloads(_ bed: WaitAlertTestBed) -> Task<Void, any Error> {
        bed.start {
            try await withWaitAlert("Downloading", presenter: bed.presenter) { group in
                _ = try await group.tasks(for: [0, 1, 2], policy: .keepGoing, title: { "file\($0).bin" }) {
                    index, row in
                    row.progress(completed: 0, total: 10_000_000, unit: .bytes)
                    for chunk in 1...100 {
                        try await bed.clock.sleep(for: .milliseconds(50))
                        if index == 1, chunk == 90 { throw DownloadFailed() }
                        row.advance(by: 100_000)
                    }
                }
            }
        }
    }

    struct DownloadFailed: Error, CustomStringConvertible {
        var description: String { "connection reset by peer" }
    }

    @Test(arguments: [TerminalOverlay.Mode.plain, .accessible])
    func aFailedDownloadLeavesItsBytesUndone(mode: TerminalOverlay.Mode) async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 12, isInteractive: mode == .accessible)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none, mode: mode)])
        await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: Self.downloads(bed)) }
        await bed.run()
        let lines = terminal.transcript.filter { !$0.isEmpty }
        #expect(!lines.contains { $0.contains("100%") }, "\(lines)")
        let progress = lines.filter { $0.hasPrefix("Downloading: ") && $0.contains("%") }
        #expect(!progress.isEmpty && progress.allSatisfy { $0.contains(" / 30.0 MB") }, "the whole stays: \(lines)")
        #expect(lines.last == "✖ Downloading: 1 task failed: file1.bin (connection reset by peer)", "\(lines)")
        let ended = try #require(bed.recorder.snapshots.last { $0.parent == nil && $0.outcome != nil })
        let group = try #require(ended.groupProgress)
        #expect(
            group.fraction < 1
                && group.units == WaitAlertProgress(completed: 28_900_000, total: 30_000_000, unit: .bytes))
    }

    /// A child task that ended without a single unit left to do (a checksum that fails once every
    /// byte arrived) still leaves the group short of 100 %.
    @Test func aFailureWithEveryUnitDoneIsNotComplete() async throws {
        var tally = GroupProgressTally()
        let done = WaitAlertID.next()
        let failed = WaitAlertID.next()
        tally.set(done, .init(isRunning: false, succeeded: true, units: .init(completed: 5, total: 5, unit: .bytes)))
        tally.set(failed, .init(isRunning: false, undone: true, units: .init(completed: 5, total: 5, unit: .bytes)))
        tally.update(at: .seconds(1), ownWork: .done)
        let group = try #require(tally.progress(at: .seconds(1), ended: true))
        #expect(group.fraction < 1 && ProgressText.percent(of: group.fraction) == 99)
    }

    /// The time left is the time to what the running work can reach: the bytes a failed
    /// download left undone stay in the whole, but nobody fetches them.
    @Test(arguments: [true, false])
    func theTimeLeftLeavesOutWhatNobodyDoes(units: Bool) throws {
        var tally = GroupProgressTally()
        let failed = WaitAlertID.next()
        let running = WaitAlertID.next()
        func part(_ completed: Int, running: Bool) -> GroupProgressTally.Part {
            var part = GroupProgressTally.Part(isRunning: running, undone: !running)
            if units {
                part.units = .init(completed: completed, total: 1000, unit: .bytes)
            } else {
                part.fraction = Double(completed) / 1000
            }
            return part
        }
        tally.set(failed, part(100, running: false))
        for second in 0...5 {
            tally.set(running, part(100 * second, running: true))
            tally.update(at: .seconds(second))
        }
        let group = try #require(tally.progress(at: .seconds(5), ended: false))
        #expect(group.fraction == 0.3 || !units, "\(group)")
        // 500 bytes of the running download left, at 100 a second (not the 1,400 of the whole).
        guard case .about(let left) = group.remaining else {
            Issue.record("no time left: \(group)")
            return
        }
        #expect(left > .milliseconds(4_900) && left < .milliseconds(5_100), "\(group)")
    }

    /// An alert counting its own items without a total (or with a total of zero), with a child
    /// task that has ended: the whole is unknown, and its own work still runs.
    @Test(arguments: [nil, 0] as [Int?])
    func anOwnCountWithoutATotalIsNeverFull(total: Int?) async throws {
        let terminal = InMemoryTerminal(columns: 80, rows: 12)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
        let work = bed.start {
            try await withWaitAlert("Scanning", presenter: bed.presenter) { alert in
                for item in 1...3 {
                    alert.progress(completed: item, total: total)
                    try await alert.task("Checking \(item)") { _ in try await bed.clock.sleep(for: .seconds(1)) }
                }
                try await bed.clock.sleep(for: .seconds(3))  // more of its own work
            }
        }
        var headers: [String] = []
        for tenth in 1...55 {
            await bed.advance(to: .milliseconds(100 * tenth))
            if let header = terminal.lines.first(where: { $0.contains("Scanning") }) { headers.append(header) }
            let group = bed.presenter.alerts.first?.snapshot.groupProgress
            #expect((group?.fraction ?? 0) < 1, "\(bed.now): \(group as Any)")
        }
        #expect(headers.count > 20 && !headers.contains { $0.contains("100%") }, "\(headers)")
        #expect(headers.contains { $0.contains("3/3 tasks") || $0.contains("3/3") }, "\(headers)")
        try await bed.run(until: work)
        let ended = try #require(bed.recorder.snapshots.last { $0.parent == nil && $0.outcome != nil })
        #expect(ended.groupProgress?.fraction == 1, "done once its work returned")
    }
}

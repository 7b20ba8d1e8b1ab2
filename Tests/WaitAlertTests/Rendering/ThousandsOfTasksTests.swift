import Synchronization
import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Groups of thousands of tasks and steps cost what their rows on screen cost: the work waiting
/// its turn is a count, not a row each, the region draws at most once a frame however many tasks
/// end, and a sequence is taken as slots free up.
@Suite("Thousands of tasks")
@MainActor
struct ThousandsOfTasksTests {
    /// A test bed drawing on an in-memory terminal of 100 × 12.
    static func bed() -> (WaitAlertTestBed, InMemoryTerminal) {
        let terminal = InMemoryTerminal(columns: 100, rows: 12)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        return (WaitAlertTestBed(timing: .terminal, renderers: [overlay]), terminal)
    }

    /// The group's header: the line of the region that begins with a spinner and `title`.
    static func header(_ title: String, _ terminal: InMemoryTerminal) -> String? {
        let spinner = Set(Spinner.brailleDots.frames.joined())
        return terminal.lines.first { line in
            line.first.map(spinner.contains) == true && line.dropFirst().hasPrefix(" \(title) ")
        }
    }

    /// The numbers `0..<count`, as a sequence that is not a collection (its size unknown until it
    /// ends), counting the elements taken from it.
    struct CountedNumbers: Sequence, Sendable {
        let count: Int
        let taken = Taken()

        final class Taken: Sendable {
            let count = Mutex(0)
            var value: Int { count.withLock { $0 } }
        }

        func makeIterator() -> AnyIterator<Int> {
            var next = 0
            return AnyIterator { [count, taken] in
                guard next < count else { return nil }
                defer { next += 1 }
                taken.count.withLock { $0 += 1 }
                return next
            }
        }
    }

    /// Tasks that end every few milliseconds, with byte progress: once the group shows, the
    /// terminal is written at most once a frame (80 ms), not once per task that ends.
    @Test func quickTasksAreDrawnAtMostOnceAFrame() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Hashing", presenter: bed.presenter) { hashing in
                _ = try await hashing.tasks(for: 0..<2_000, maxConcurrency: 4, title: { "Hashing f\($0).bin" }) {
                    _, row in
                    row.progress(completed: 0, total: 16_384, unit: .bytes)
                    try await bed.clock.sleep(for: .milliseconds(2))
                    row.advance(by: 16_384)
                }
            }
        }
        await bed.advance(to: .milliseconds(600))
        #expect(Self.header("Hashing", terminal)?.contains("/2000") == true, "\(terminal)")
        let (writes, start) = (terminal.writeCount, bed.now)
        await bed.advance(to: .milliseconds(900))
        let frames = Int((bed.now - start) / .milliseconds(80)) + 1
        #expect(
            terminal.writeCount - writes <= frames + 2, "\(terminal.writeCount - writes) writes in \(frames) frames")
        try await bed.run(until: work, limit: 100_000)
        await bed.run()
    }

    /// Ten thousand planned steps: the snapshot lists the first hundred by title and counts them
    /// all, the region shows those that fit and counts the rest on its last line, and the header
    /// counts every step; running them one after another keeps it so.
    @Test func tenThousandPlannedStepsCostACount() async throws {
        let (bed, terminal) = Self.bed()
        let steps = (0..<10_000).map { "Step \($0)" }
        let listed = Shared(0)
        let work = bed.start {
            try await withWaitAlert("Migrating", presenter: bed.presenter) { migrating in
                await migrating.plan(steps)
                for step in steps.prefix(3) {
                    try await migrating.step(step) { _ in try await bed.clock.sleep(for: .seconds(1)) }
                }
            }
        }
        await bed.advance(to: .milliseconds(1_600))
        let snapshot = try #require(bed.presenter.alerts.first?.snapshot)
        #expect(snapshot.plannedSteps == Array(steps[2...101]), "the first hundred not shown yet")
        #expect(snapshot.plannedStepCount == 9_998)
        #expect(Self.header("Migrating", terminal)?.contains(" · 1/10000") == true, "\(terminal)")
        #expect(terminal.lines.contains { $0.hasPrefix("  ○ Step 2") }, "\(terminal)")
        #expect(
            terminal.lines.contains("… 9991 pending"), "11 lines: header, step, 8 pending rows, summary: \(terminal)")
        for _ in 0..<3 {
            await bed.advance(by: .milliseconds(250))
            listed.value.withLock { $0 = max($0, bed.presenter.alerts.first?.snapshot.plannedSteps.count ?? 0) }
        }
        try await bed.run(until: work)
        await bed.run()
        #expect(listed.value.withLock { $0 } == WaitAlertSnapshot.listedPlannedSteps)
        #expect(
            terminal.transcript.contains(
                "○ 9997 tasks not run: Step 3, Step 4, Step 5 and 9994 more"), "\(terminal.transcript.suffix(3))")
    }

    /// The region takes the first planned steps by title and counts the rest with the tasks
    /// waiting: its frame has the rows that fit and one line for the rest, and a change of the
    /// counts alone costs no layout of the rows.
    @Test func theRegionCountsWhatHasNoRow() {
        var region = TaskRegion(style: TaskRegion.Style())
        let (group, child) = (WaitAlertID(), WaitAlertID())
        var header = WaitAlertSnapshot(
            text: "Building", plannedSteps: (0..<100).map { "Step \($0)" }, plannedStepCount: 10_000,
            waitingTasks: 5_000)
        region.apply(header, of: group, at: .zero)
        region.apply(WaitAlertSnapshot(text: "Compiling", parent: group, depth: 1), of: child, at: .zero)
        let lines = region.frame(columns: 80, budget: 10).map(\.line)
        #expect(lines.count == 10)
        #expect(lines[0].suffix == " · 0/15001", "\(lines[0])")
        #expect(lines[2...8].map(\.text) == (0..<7).map { "Step \($0)" })
        #expect(lines[9].text == "… 14993 pending", "93 listed steps, 9,900 more, 5,000 tasks")
        header.waitingTasks = 4_999
        region.apply(header, of: group, at: .zero)
        #expect(region.layout != nil, "kept: only the summary's count changed")
        #expect(region.frame(columns: 80, budget: 10).last?.line.text == "… 14992 pending")
    }

    /// A collection's size is known at once: the header counts every element from the first
    /// frame, the tasks waiting their turn are a count on the region's last line, never rows.
    @Test func tasksWaitingTheirTurnAreACount() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                _ = try await build.tasks(
                    for: (0..<20).map { "M\($0)" }, maxConcurrency: 4, title: { "Compiling \($0)" }
                ) {
                    _, _ in try await bed.clock.sleep(for: .seconds(1))
                }
            }
        }
        await bed.advance(to: .milliseconds(700))
        let snapshot = try #require(bed.presenter.alerts.first?.snapshot)
        #expect(snapshot.waitingTasks == 16 && snapshot.plannedSteps.isEmpty && !snapshot.hasUncountedTasks)
        #expect(Self.header("Building", terminal)?.hasSuffix(" · 0/20") == true, "\(terminal)")
        #expect(terminal.lines.filter { $0.hasPrefix("  ") }.count == 4, "the running rows: \(terminal)")
        #expect(terminal.lines.last == "… 16 pending", "\(terminal)")
        #expect(!terminal.lines.contains { $0.contains("○") }, "\(terminal)")
        await bed.advance(to: .milliseconds(2_700))
        #expect(Self.header("Building", terminal)?.contains(" · 8/20") == true, "\(terminal)")
        #expect(terminal.lines.last == "… 8 pending", "\(terminal)")
        try await bed.run(until: work)
        await bed.run()
        #expect(!terminal.transcript.contains { $0.contains("not run") }, "\(terminal.transcript)")
    }

    /// A sequence whose size is not known is taken as slots free up, never ahead: a million
    /// elements cost the few that started. The header counts what it knows and says more may
    /// come; cancelled, the group names the first tasks not run and says there may be more.
    @Test func aSequenceIsTakenAsSlotsFreeUp() async throws {
        let (bed, terminal) = Self.bed()
        let numbers = CountedNumbers(count: 1_000_000)
        let ended = Shared(0)
        let work = bed.start {
            try await withWaitAlert("Counting", presenter: bed.presenter) { counting in
                _ = try await counting.tasks(for: numbers, maxConcurrency: 4, title: { "Counting \($0)" }) { _, _ in
                    try await bed.clock.sleep(for: .milliseconds(100))
                    ended.value.withLock { $0 += 1 }
                }
            }
        }
        for tenth in 1...20 {
            await bed.advance(to: .milliseconds(100 * tenth + 50))
            let done = ended.value.withLock { $0 }
            #expect(numbers.taken.value <= done + 4, "\(bed.now): \(numbers.taken.value) taken, \(done) done")
        }
        let header = try #require(Self.header("Counting", terminal), "\(terminal)")
        #expect(header.contains(#/ · \d+\/\d+\+/#), "counted so far, and more may come: \(terminal)")
        #expect(bed.presenter.alerts.first?.snapshot.hasUncountedTasks == true)
        work.cancel()
        _ = try? await bed.run(until: work)
        await bed.run()
        #expect(numbers.taken.value <= 84 + 6, "84 started and 6 named: \(numbers.taken.value) taken")
        #expect(
            terminal.transcript.contains(
                "○ 6 or more tasks not run: Counting 84, Counting 85, Counting 86 and more"),
            "\(terminal.transcript.suffix(4))")
    }

    /// A sequence that ends: once it has, the header counts exactly, and nothing is said to have
    /// not run.
    @Test func aSequenceThatEndsIsCountedExactly() async throws {
        let (bed, terminal) = Self.bed()
        let numbers = CountedNumbers(count: 10)
        let work = bed.start {
            try await withWaitAlert("Counting", presenter: bed.presenter) { counting in
                _ = try await counting.tasks(for: numbers, maxConcurrency: 4, title: { "Counting \($0)" }) { _, _ in
                    try await bed.clock.sleep(for: .seconds(1))
                }
            }
        }
        await bed.advance(to: .milliseconds(1_500))
        #expect(Self.header("Counting", terminal)?.hasSuffix(" · 4/8+ · 1s") == true, "\(terminal)")
        await bed.advance(to: .milliseconds(2_500))
        #expect(Self.header("Counting", terminal)?.hasSuffix(" · 8/10 · 2s") == true, "\(terminal)")
        try await bed.run(until: work)
        await bed.run()
        #expect(numbers.taken.value == 10)
        #expect(!terminal.transcript.contains { $0.contains("not run") }, "\(terminal.transcript)")
    }

    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }
}

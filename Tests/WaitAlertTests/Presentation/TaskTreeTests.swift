import Synchronization
import Testing
import WaitAlert
import WaitAlertTesting

/// Child tasks: rows of their own under their alert, with values, errors and cancellation flowing
/// as through `withWaitAlert`, nesting, and a failure policy per group.
@Suite("Task trees")
@MainActor
struct TaskTreeTests {
    /// State shared between the test and its work.
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    struct CompileError: Error, CustomStringConvertible {
        var target: String
        var description: String { "\(target) does not compile" }
    }

    @Test func childTasksAreRowsOfTheirAlert() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start {
            try await withWaitAlert("Building") { build in
                let resolved = try await build.step("Resolving packages") { _ in
                    try await bed.clock.sleep(for: .seconds(1))
                    return 3
                }
                try await build.task("Compiling Core") { core in
                    try await core.task("Compiling Core/Parser.swift") { _ in
                        try await bed.clock.sleep(for: .seconds(2))
                    }
                }
                return resolved
            }
        }
        await bed.advance(by: .milliseconds(1500))
        let building = try #require(bed.presenter.alerts.first)
        #expect(bed.presenter.alerts.count == 1, "child tasks are not top-level alerts")
        #expect(building.children.map(\.snapshot.text) == ["Resolving packages", "Compiling Core"], "in start order")
        let core = try #require(building.children.last)
        #expect(core.snapshot.parent == building.id && core.snapshot.depth == 1)
        let parser = try #require(core.children.first)
        #expect(parser.snapshot.depth == 2 && parser.snapshot.parent == core.id)
        #expect(try await bed.run(until: work) == 3)
        await bed.run()
        let finals = bed.recorder.snapshots.compactMap(\.finalText)
        #expect(
            finals.contains("Resolving packages") && finals.contains("Compiling Core") && finals.contains("Building"))
    }

    @Test func aChildThatEndsWithinItsGraceNeverAppears() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start {
            try await withWaitAlert("Building") { build in
                try await build.task("Quick") { _ in try await bed.clock.sleep(for: .milliseconds(300)) }
                try await bed.clock.sleep(for: .seconds(2))
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let quick = bed.recorder.snapshots.filter { $0.text == "Quick" || $0.finalText == "Quick" }
        #expect(!quick.isEmpty && quick.allSatisfy { !$0.isOnScreen }, "recorded, never on screen")
    }

    @Test func failFastCancelsTheSiblingsAndRethrowsTheFirstFailure() async throws {
        let bed = WaitAlertTestBed()
        let cancelled = Shared<[String]>([])
        let work = bed.start {
            try await withWaitAlert("Building") { build in
                try await build.tasks(for: ["A", "B", "C"], title: { "Compiling \($0)" }) { target, _ in
                    if target == "B" {
                        try await bed.clock.sleep(for: .seconds(1))
                        throw CompileError(target: target)
                    }
                    do { try await bed.clock.sleep(for: .seconds(10)) } catch {
                        cancelled.value.withLock { $0.append(target) }
                        throw error
                    }
                }
            }
        }
        await #expect(throws: CompileError.self) { try await bed.run(until: work) }
        #expect(bed.now < .seconds(10), "the siblings did not run to their end")
        #expect(cancelled.value.withLock { $0.sorted() } == ["A", "C"])
        await bed.run()
        #expect(bed.recorder.snapshots.contains { $0.finalText == "Compiling B: B does not compile" })
        #expect(bed.recorder.snapshots.contains { $0.finalText?.hasPrefix("Compiling A: cancelled after") == true })
    }

    @Test func keepGoingRunsEveryTaskAndThrowsEveryFailureWithItsTitle() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start {
            try await withWaitAlert("Building") { build in
                try await build.tasks(for: ["A", "B", "C", "D"], policy: .keepGoing, title: { "Compiling \($0)…" }) {
                    target, _ in
                    try await bed.clock.sleep(for: .seconds(target == "D" ? 3 : 1))
                    if target == "B" || target == "D" { throw CompileError(target: target) }
                    return target.lowercased()
                }
            }
        }
        let failures = await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: work) }
        #expect(failures?.failures.map(\.title) == ["Compiling B…", "Compiling D…"])
        #expect(
            failures?.description
                == "2 tasks failed: Compiling B (B does not compile); Compiling D (D does not compile)")
        #expect(bed.now >= .seconds(3), "D ran to its end")
        await bed.run()
        #expect(bed.recorder.snapshots.contains { $0.finalText?.hasPrefix("Building: 2 tasks failed") == true })
    }

    @Test func tasksKeepTheElementsOrderAndTheConcurrencyLimit() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let running = Shared((now: 0, most: 0))
        let work = bed.start {
            try await withWaitAlert("Downloading") { download in
                try await download.tasks(for: Array(1...8), maxConcurrency: 3, title: { "Package \($0)" }) {
                    number, _ in
                    running.value.withLock {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                    }
                    try await bed.clock.sleep(for: .milliseconds(100 * (9 - number)))
                    running.value.withLock { $0.now -= 1 }
                    return number * 10
                }
            }
        }
        #expect(try await bed.run(until: work) == (1...8).map { $0 * 10 })
        #expect(running.value.withLock { $0.most } == 3)
        await bed.run()
    }

    @Test func cancellingTheAlertCancelsTheWholeTree() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start {
            try await withWaitAlert("Building") { build in
                try await build.task("Compiling") { compile in
                    try await compile.task("Linking") { _ in try await bed.clock.sleep(for: .seconds(100)) }
                }
            }
        }
        await bed.advance(by: .seconds(1))
        #expect(bed.presenter.cancelAll())
        await #expect(throws: CancellationError.self) { try await bed.run(until: work) }
        await bed.run()
        let cancelled = bed.recorder.snapshots.filter { $0.outcome == .cancelled }.map(\.depth)
        #expect(Set(cancelled) == [0, 1, 2])
    }
}

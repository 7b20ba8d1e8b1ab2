import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Steps and tasks that never ran: a handful listed one by one, more as one line, the same in
/// every renderer.
@Suite("Steps not run")
@MainActor
struct NotRunSummaryTests {
    struct Failed: Error, CustomStringConvertible {
        var description: String { "exit code 1" }
    }

    @Test func aHandfulIsListedAndMoreBecomeOneLine() {
        var recap = GroupRecap(logLines: 0)
        let group = WaitAlertID.next()
        let few = recap.close(group, pending: .titled(["Linking", "Testing…"])).map(\.plain)
        #expect(few == ["○ Linking: not run", "○ Testing: not run"])
        let five = recap.close(group, pending: .titled((1...5).map { "Step \($0)" })).map(\.plain)
        #expect(five.count == 5 && five.allSatisfy { $0.hasSuffix(": not run") }, "\(five)")
        let many = recap.close(group, pending: .titled((1...96).map { "Compiling M\($0)" })).map(\.plain)
        #expect(many == ["○ 96 tasks not run: Compiling M1, Compiling M2, Compiling M3 and 93 more"], "\(many)")
    }

    /// Tasks waiting their turn are counted, the first few named; when more may have waited than
    /// were counted, the line says so.
    @Test func tasksCountedAndNamedMakeOneLine() {
        func line(_ pending: PendingWork) -> [String] { GroupRecap.notRun(pending).map(\.plain) }
        #expect(line(PendingWork(waitingTasks: 96)) == ["○ 96 tasks not run"])
        #expect(line(PendingWork(waitingTasks: 1)) == ["○ 1 task not run"])
        #expect(
            line(PendingWork(listedSteps: ["M4", "M5", "M6"], plannedSteps: 3, waitingTasks: 90))
                == ["○ 93 tasks not run: M4, M5, M6 and 90 more"])
        #expect(
            line(PendingWork(listedSteps: ["M4", "M5"], plannedSteps: 2, waitingTasks: 1))
                == ["○ 3 tasks not run: M4, M5 and 1 more"], "a task without a title is not listed alone")
        #expect(
            line(PendingWork(listedSteps: (4..<10).map { "M\($0)" }, plannedSteps: 6, hasUncountedTasks: true))
                == ["○ 6 or more tasks not run: M4, M5, M6 and more"])
        #expect(line(PendingWork()).isEmpty)
    }

    /// Fail fast with 100 tasks, 4 at a time: the 96 that waited their turn leave one line, on a
    /// terminal and on a pipe alike.
    @Test(arguments: [true, false])
    func failFastAcrossAHundredTasksLeavesOneLine(interactive: Bool) async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 20, isInteractive: interactive)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<100), maxConcurrency: 4, title: { "Compiling M\($0)" }) {
                    index, _ in
                    try await bed.clock.sleep(for: .seconds(index == 2 ? 1 : 10))
                    if index == 2 { throw Failed() }
                }
            }
        }
        await #expect(throws: Failed.self) { try await bed.run(until: work) }
        await bed.run()
        let notRun = terminal.transcript.filter { $0.hasPrefix("○ ") }
        #expect(
            notRun == ["○ 96 tasks not run: Compiling M4, Compiling M5, Compiling M6 and 93 more"],
            "\(terminal)")
        #expect(terminal.transcript.last == "✖ Building: exit code 1", "\(terminal)")
    }
}

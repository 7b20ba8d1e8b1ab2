import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Changes of child rows are drawn at most once a frame; what the user must see now is drawn at
/// once.
@Suite("Draw pacing")
@MainActor
struct DrawPacingTests {
    static let interval = Duration.milliseconds(80)

    static func snapshot(parent: WaitAlertID? = nil, text: String = "Working", completed: Int? = nil)
        -> WaitAlertSnapshot
    {
        var snapshot = WaitAlertTimeline(text: text, timing: .terminal).snapshot(at: .zero)
        snapshot.parent = parent
        snapshot.phase = .visible
        if let completed { snapshot.progress = WaitAlertProgress(completed: completed, total: 10) }
        return snapshot
    }

    @Test func theFirstChangeIsDrawnAtOnce() {
        var pacing = DrawPacing(interval: Self.interval)
        pacing.changed(at: .seconds(1), canWait: true)
        #expect(pacing.drawsNow(at: .seconds(1)))
        #expect(pacing.due == nil)
    }

    @Test func changesThatCanWaitWaitForTheIntervalSinceTheLastDraw() {
        var pacing = DrawPacing(interval: Self.interval)
        pacing.drew(at: .seconds(1))
        pacing.changed(at: .seconds(1) + .milliseconds(10), canWait: true)
        pacing.changed(at: .seconds(1) + .milliseconds(20), canWait: true)
        #expect(!pacing.drawsNow(at: .seconds(1) + .milliseconds(20)))
        #expect(pacing.due == .seconds(1) + Self.interval)
        #expect(pacing.drawsNow(at: .seconds(1) + Self.interval))
        pacing.drew(at: .seconds(1) + Self.interval)
        #expect(pacing.due == nil)
    }

    @Test func aChangeThatCannotWaitIsDrawnAtOnceWithTheOnesWaiting() {
        var pacing = DrawPacing(interval: Self.interval)
        pacing.drew(at: .seconds(1))
        pacing.changed(at: .seconds(1) + .milliseconds(10), canWait: true)
        pacing.changed(at: .seconds(1) + .milliseconds(20), canWait: false)
        #expect(pacing.drawsNow(at: .seconds(1) + .milliseconds(20)))
        #expect(pacing.due == nil)
    }

    @Test func aChangeLongAfterTheLastDrawIsDrawnAtOnce() {
        var pacing = DrawPacing(interval: Self.interval)
        pacing.drew(at: .seconds(1))
        pacing.changed(at: .seconds(2), canWait: true)
        #expect(pacing.drawsNow(at: .seconds(2)))
    }

    @Test func aTopLevelAlertsProgressCanWaitButItsTextCannot() {
        var pacing = DrawPacing(interval: Self.interval)
        let top = WaitAlertID()
        pacing.changed(Self.snapshot(completed: 1), of: top, at: .seconds(1))
        pacing.drew(at: .seconds(1))
        pacing.changed(Self.snapshot(completed: 2), of: top, at: .seconds(1) + .milliseconds(10))
        #expect(!pacing.drawsNow(at: .seconds(1) + .milliseconds(10)), "progress alone waits")
        pacing.changed(
            Self.snapshot(text: "Linking", completed: 2), of: top, at: .seconds(1) + .milliseconds(20))
        #expect(pacing.drawsNow(at: .seconds(1) + .milliseconds(20)), "a new text shows at once")
    }

    /// What a top-level alert's child tasks change rolls up into it — its group's progress, the
    /// tasks and steps waiting under it — and waits as their rows do: a thousand tasks ending
    /// within a frame draw once.
    @Test func aTopLevelAlertsGroupCountsCanWait() {
        var pacing = DrawPacing(interval: Self.interval)
        let top = WaitAlertID()
        var snapshot = Self.snapshot()
        snapshot.waitingTasks = 100
        pacing.changed(snapshot, of: top, at: .seconds(1))
        pacing.drew(at: .seconds(1))
        for index in 1...10 {
            snapshot.waitingTasks -= 1
            snapshot.groupProgress = WaitAlertGroupProgress(
                basis: .tasks, fraction: Double(index) / 100, tasks: 100, finishedTasks: index)
            pacing.changed(snapshot, of: top, at: .seconds(1) + .milliseconds(index))
        }
        #expect(!pacing.drawsNow(at: .seconds(1) + .milliseconds(10)), "counts alone wait")
        #expect(pacing.due == .seconds(1) + Self.interval)
    }

    @Test func childRowsWaitOnlyWhileATopLevelAlertRuns() {
        var pacing = DrawPacing(interval: Self.interval)
        let top = WaitAlertID()
        pacing.changed(Self.snapshot(), of: top, at: .seconds(1))
        pacing.drew(at: .seconds(1))
        pacing.changed(Self.snapshot(parent: top), of: WaitAlertID(), at: .seconds(1) + .milliseconds(10))
        #expect(!pacing.drawsNow(at: .seconds(1) + .milliseconds(10)))

        var ended = Self.snapshot()
        ended.outcome = .success(nil)
        pacing.changed(ended, of: top, at: .seconds(1) + .milliseconds(20))
        pacing.drew(at: .seconds(1) + .milliseconds(20))
        pacing.changed(Self.snapshot(parent: top), of: WaitAlertID(), at: .seconds(1) + .milliseconds(30))
        #expect(pacing.drawsNow(at: .seconds(1) + .milliseconds(30)), "the program may exit: no waiting")
    }

    /// An overlay that stopped drawing (its terminal refused a write) holds nothing back: the
    /// presenter would otherwise wake again and again for a draw that never comes.
    @Test func aStoppedOverlayHoldsNothingBack() {
        let overlay = InteractiveOverlay(
            terminal: InMemoryTerminal(columns: 40, rows: 10), ending: .persistent, colors: false,
            integration: .none)
        let (top, child) = (WaitAlertID(), WaitAlertID())
        func snapshot(_ text: String, parent: WaitAlertID?) -> WaitAlertSnapshot {
            WaitAlertSnapshot(text: text, parent: parent, depth: parent == nil ? 0 : 1)
        }
        overlay.render(snapshot("Building", parent: nil), of: top, at: .zero)
        overlay.render(snapshot("Core", parent: top), of: child, at: .zero)
        overlay.flush(at: .zero)
        overlay.render(snapshot("Core: 1/2", parent: top), of: child, at: .milliseconds(10))
        overlay.flush(at: .milliseconds(10))
        #expect(overlay.heldBackUntil == Self.interval, "a child row's change waits for the frame")
        overlay.stop()
        #expect(overlay.heldBackUntil == nil)
    }

    /// Five hundred child tasks ending at one instant lay the region out and write a handful of
    /// times, not once per task; the region is right one frame later.
    @Test func manyChildTasksEndingTogetherAreDrawnInAFewWrites() async throws {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                _ = try await build.tasks(for: Array(0..<500), title: { "Compiling M\($0)" }) { _, _ in
                    try await bed.clock.sleep(until: .init(offset: .seconds(2) + .milliseconds(40)))
                }
                try await bed.clock.sleep(until: .init(offset: .seconds(5)))
            }
        }
        await bed.advance(to: .seconds(2))
        let writes = terminal.writeCount
        await bed.advance(to: .seconds(2) + .milliseconds(40))
        #expect(terminal.writeCount - writes <= 3, "\(terminal.writeCount - writes) writes for 500 endings")
        await bed.advance(by: Self.interval)
        #expect(terminal.lines.contains { $0.hasPrefix("⠋ Building") || $0.contains("500/500") }, "\(terminal)")
        #expect(!terminal.lines.contains { $0.contains("more running") }, "\(terminal)")
        try await bed.run(until: work)
    }
}

import Testing
import WaitAlert

/// A timeline keeps the parts a running alert does not have yet (its ending, its progress) out of
/// line; it is still a value: a copy goes its own way.
@Suite("Timeline values")
struct TimelineValueTests {
    @Test func aCopyKeepsItsOwnEndingAndProgress() {
        var running = WaitAlertTimeline(text: "Copying", timing: .default, at: .zero)
        _ = running.send(.progress(completed: 10, total: 100, unit: .count), at: .seconds(1))
        var ended = running
        _ = ended.send(.progress(completed: 90, total: 100, unit: .count), at: .seconds(2))
        _ = ended.send(.finish(.success("Copied")), at: .seconds(2))
        _ = running.send(.progress(completed: 20, total: 100, unit: .count), at: .seconds(2))

        #expect(ended.outcome == .success("Copied"))
        #expect(ended.finalText == "Copied")
        #expect(running.outcome == nil)
        #expect(running.finalText == nil)
        #expect(running.snapshot(at: .seconds(2)).progress?.completed == 20)
        #expect(ended.snapshot(at: .seconds(2)).progress?.completed == 90)

        // And the other way round: ending the copy that stayed behind leaves the first as it was.
        var later = ended
        _ = later.send(.update("ignored after the end"), at: .seconds(3))
        _ = ended.send(.finish(.dismissed), at: .seconds(3))
        #expect(later.outcome == .success("Copied"))
        #expect(running.outcome == nil)
    }

    @Test func aSnapshotsEndingIsAValue() {
        var snapshot = WaitAlertSnapshot(text: "Copying")
        #expect(snapshot.outcome == nil && snapshot.finalText == nil && snapshot.workDuration == nil)
        var ended = snapshot
        ended.outcome = .failure("Copying: disk full")
        ended.finalText = "Copying: disk full"
        ended.workDuration = .seconds(3)
        #expect(snapshot.outcome == nil)
        #expect(ended != snapshot)
        snapshot.outcome = .failure("Copying: disk full")
        snapshot.finalText = "Copying: disk full"
        snapshot.workDuration = .seconds(3)
        #expect(ended == snapshot)
        #expect(ended.hashValue == snapshot.hashValue)
        ended.outcome = nil
        ended.finalText = nil
        ended.workDuration = nil
        #expect(ended == WaitAlertSnapshot(text: "Copying"))
    }

    /// What a test failure or `print` shows: the public properties, not the boxes that keep them.
    @Test func printingShowsThePublicProperties() {
        var snapshot = WaitAlertSnapshot(text: "Copying")
        snapshot.finalText = "Copied 3 files"
        let printed = String(describing: snapshot)
        #expect(printed.contains("finalText: Optional(\"Copied 3 files\")"), "\(printed)")
        #expect(printed.contains("progress: nil"), "\(printed)")
        #expect(!printed.contains("stored"), "\(printed)")
        var timeline = WaitAlertTimeline(text: "Copying", timing: .default, at: .zero)
        _ = timeline.send(.finish(.success("Copied")), at: .seconds(1))
        let timelinePrinted = String(describing: timeline)
        #expect(timelinePrinted.contains("finalText: Optional(\"Copied\")"), "\(timelinePrinted)")
        #expect(!timelinePrinted.contains("ending"), "\(timelinePrinted)")
    }
}

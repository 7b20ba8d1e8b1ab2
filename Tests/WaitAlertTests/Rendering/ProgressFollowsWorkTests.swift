import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Progress follows the work on the frame grid, also where spinner frames are turned without
/// the main actor (a terminal on the system clock): never more than a frame behind the last
/// report, and a storm of reports costs a frame's wake-ups, not one each.
@Suite("Progress follows the work")
@MainActor
struct ProgressFollowsWorkTests {
    /// A renderer that turns its spinners itself, as the terminal overlay does on the system
    /// clock: the presenter wakes an alert for changes, never for frames. It keeps the count of
    /// every snapshot it is given, and when.
    final class TickingRecorder: WaitAlertFrameRenderer {
        var shown: [(at: Duration, completed: Int)] = []
        var wantsFrames: Bool { true }
        var drawsSpinnerFramesItself: Bool { true }
        func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
            if let completed = snapshot.progress?.completed { shown.append((instant, completed)) }
        }
        func log(_ line: String, from alert: WaitAlertID) {}

        /// The count shown at `instant`.
        func completed(at instant: Duration) -> Int? { shown.last { $0.at <= instant }?.completed }
    }

    /// One unit every 10 ms: at any instant the count shown is the one reported at most a frame
    /// (80 ms) earlier.
    @Test func theCountIsNeverMoreThanAFrameBehind() async throws {
        let recorder = TickingRecorder()
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [recorder])
        let work = bed.start {
            try await withWaitAlert("Copying", presenter: bed.presenter) { alert in
                alert.progress(completed: 0, total: 1_000)
                for _ in 0..<1_000 {
                    try await bed.clock.sleep(for: .milliseconds(10))
                    alert.advance()
                }
            }
        }
        for milliseconds in stride(from: 1_005, through: 9_005, by: 370) {
            await bed.advance(to: .milliseconds(milliseconds))
            let shown = try #require(recorder.completed(at: .milliseconds(milliseconds)))
            let done = milliseconds / 10
            #expect(shown <= done && shown >= done - 8, "at \(milliseconds) ms the work is at \(done), \(shown) shown")
        }
        try await bed.run(until: work)
    }

    /// A million reports in bursts wake the alert about once a frame, and the last count shows.
    @Test func aStormOfReportsWakesTheAlertAboutOnceAFrame() async throws {
        let recorder = TickingRecorder()
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [recorder])
        let work = bed.start {
            try await withWaitAlert("Counting", presenter: bed.presenter) { alert in
                alert.progress(completed: 0, total: 100_000 * 20)
                for _ in 0..<20 {
                    try await bed.clock.sleep(for: .milliseconds(100))
                    for _ in 0..<100_000 { alert.advance() }
                }
            }
        }
        await bed.advance(to: .milliseconds(500))
        let alert = try #require(bed.presenter.alerts.first)
        let before = bed.presenter.wakeUps(of: alert.id) ?? 0
        await bed.advance(to: .milliseconds(1_550))
        let woken = (bed.presenter.wakeUps(of: alert.id) ?? 0) - before
        // 1.05 s: 14 frames, 10 bursts of 100,000 reports, a tick of the whole second.
        #expect(woken <= 2 * 14 + 2, "\(woken) wake-ups")
        #expect(recorder.completed(at: .milliseconds(1_550)) == 1_500_000)
        try await bed.run(until: work)
    }
}

import Observation
import Testing
import WaitAlert
import WaitAlertTesting

@Suite("Presenter and model")
@MainActor
struct PresenterTests {
    /// The seed timeline played through a presenter on a manual clock, checked at each instant.
    @Test func seedTimelineThroughThePresenter() async {
        let bed = WaitAlertTestBed()
        let alert = showWaitAlert(SeedTimeline.title, presenter: bed.presenter)
        let (title, end) = (SeedTimeline.title, SeedTimeline.end.text)
        let updates = SeedTimeline.updates.map(\.text)
        let checks: [(ms: Int, phase: WaitAlertPhase, text: String)] = [
            (0, .pending, title), (500, .appearing, title), (750, .visible, title),
            (1000, .visible, updates[0]), (2000, .visible, updates[1]), (3000, .visible, updates[2]),
            (4500, .lingering, end), (5499, .lingering, end), (5500, .fading, end), (5850, .gone, end),
        ]
        for check in checks {
            let instant = Duration.milliseconds(check.ms)
            await bed.advance(to: instant)
            for (at, event) in SeedTimeline.events where at == instant {
                if case .update(let text) = event { alert.update(text) } else { alert.succeed(end) }
            }
            await bed.settle()
            #expect(alert.model.snapshot.phase == check.phase, "at \(check.ms) ms")
            #expect(alert.model.snapshot.text == check.text, "at \(check.ms) ms")
        }
        #expect(
            alert.model.completion
                == WaitAlertCompletion(outcome: .success(end), wasShown: true, workDuration: SeedTimeline.end.at))
        #expect(bed.recorder.phases == [.pending, .appearing, .visible, .lingering, .fading, .gone])
        #expect(bed.recorder.texts == SeedTimeline.texts)
        #expect(bed.presenter.alerts.isEmpty)
    }

    /// 1,000,000 updates from 4 tasks while visible: O(1) wake-ups, at most one text per minimum.
    @Test func updateBurstIsCoalesced() async throws {
        let bed = WaitAlertTestBed(timing: try WaitAlertTiming.default.with(grace: .zero, appear: .zero))
        let alert = showWaitAlert("Starting", presenter: bed.presenter)
        await bed.advance(by: .seconds(1))
        let before = bed.presenter.wakeUps(of: alert.model.id)!
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in 0..<250_000 {
                        alert.update("worker \(worker) update \(index)")
                        if index % 10_000 == 0 { await Task.yield() }
                    }
                }
            }
        }
        alert.update("the very last")
        await bed.settle()
        let duringBurst = bed.presenter.wakeUps(of: alert.model.id)! - before
        // The first update may wake the driver; after it shows, the hold disarms the mailbox.
        #expect(duringBurst <= 1)
        let textsDuringBurst = bed.recorder.texts.count
        await bed.advance(by: .milliseconds(400))
        #expect(alert.model.snapshot.text == "the very last")
        #expect(bed.presenter.wakeUps(of: alert.model.id)! - before <= 2)
        #expect(bed.recorder.texts.count <= textsDuringBurst + 1)
        alert.succeed()
        await bed.run()
    }

    @Test func textsAreHeldForTheirMinimumAndTheLatestWins() async {
        let bed = WaitAlertTestBed(timing: try! .default.with(grace: .zero, appear: .zero))
        let alert = showWaitAlert("one", presenter: bed.presenter)
        await bed.advance(to: .milliseconds(100))
        alert.update("two")
        alert.update("three")
        await bed.settle()
        #expect(alert.model.snapshot.text == "one")
        await bed.advance(to: .milliseconds(399))
        #expect(alert.model.snapshot.text == "one")
        await bed.advance(to: .milliseconds(400))
        #expect(alert.model.snapshot.text == "three")
        #expect(!bed.recorder.texts.contains("two"))
        alert.dismiss()
        await bed.run()
    }

    @Test func droppedHandleDismissesItsAlert() async {
        let bed = WaitAlertTestBed()
        var model: WaitAlertModel?
        do {
            let alert = showWaitAlert("Forgotten", presenter: bed.presenter)
            model = alert.model
            await bed.advance(by: .seconds(1))
            #expect(alert.model.snapshot.phase == .visible)
        }
        await bed.run()
        #expect(model?.completion?.outcome == .dismissed)
        #expect(model?.completion?.wasShown == true)
        #expect(bed.recorder.phases.suffix(2) == [.fading, .gone])
        #expect(!bed.recorder.phases.contains(.lingering))
    }

    @Test func handleEndingsAndFirstEndingWins() async {
        let bed = WaitAlertTestBed()
        let alert = showWaitAlert("Syncing…", presenter: bed.presenter)
        await bed.advance(by: .seconds(1))
        alert.fail("Disk full")
        alert.succeed("ignored")
        await bed.settle()
        #expect(alert.model.snapshot.text == "Disk full")
        #expect(alert.model.snapshot.outcome == .failure("Disk full"))
        let completion = await completion(of: alert.model, bed: bed)
        #expect(completion.outcome == .failure("Disk full"))
    }

    @Test func dismissSkipsTheMinimumDisplay() async {
        let bed = WaitAlertTestBed()
        let alert = showWaitAlert("Loading", presenter: bed.presenter)
        await bed.advance(to: .milliseconds(800))
        alert.model.dismiss()
        await bed.settle()
        #expect(alert.model.snapshot.phase == .fading)
        await bed.advance(to: .milliseconds(1150))
        #expect(alert.model.completion?.outcome == .dismissed)
    }

    @Test func toastShowsForItsReadingTimeWithoutSpinner() async {
        let bed = WaitAlertTestBed()
        let toast = showToast("Saved", presenter: bed.presenter)
        await bed.settle()
        #expect(toast.snapshot.kind == .toast)
        #expect(toast.snapshot.phase == .appearing)
        await bed.advance(to: .milliseconds(250))
        #expect(toast.snapshot.phase == .lingering)
        #expect(toast.snapshot.spinnerFrame == nil)
        // "Saved": 0.5 s + 5 × 0.06 s = 0.8 s, clamped up to the 1 s minimum.
        await bed.advance(to: .milliseconds(1249))
        #expect(toast.snapshot.phase == .lingering)
        await bed.advance(to: .milliseconds(1250))
        #expect(toast.snapshot.phase == .fading)
        await bed.run()
        #expect(
            toast.completion == WaitAlertCompletion(outcome: .success("Saved"), wasShown: true, workDuration: .zero))
        #expect(bed.recorder.snapshots.allSatisfy { $0.spinnerFrame == nil })
    }

    @Test func modelIsObservable() async {
        let bed = WaitAlertTestBed()
        let alert = showWaitAlert("Watching", presenter: bed.presenter)
        let changed = TestGate()
        withObservationTracking {
            _ = alert.model.snapshot
        } onChange: {
            changed.open()
        }
        await bed.advance(by: .seconds(1))
        await changed.waitIgnoringCancellation()
        #expect(alert.model.snapshot.phase == .visible)
        #expect(bed.presenter.alerts.map(\.id) == [alert.model.id])
        alert.dismiss()
        await bed.run()
    }

    @Test func framesAreDrawnOnlyWhenARendererWantsThem() async {
        let still = WaitAlertTestBed()
        let animated = WaitAlertTestBed(wantsFrames: true)
        for bed in [still, animated] {
            let alert = showWaitAlert("Spinning", presenter: bed.presenter)
            await bed.advance(by: .seconds(2))
            alert.dismiss()
            await bed.run()
        }
        let stillFrames = Set(still.recorder.snapshots.compactMap(\.spinnerFrame))
        let animatedFrames = animated.recorder.snapshots.compactMap(\.spinnerFrame)
        #expect(stillFrames == [0, 3])  // drawn at 0.5 s (appear) and 0.75 s (visible) only
        // 0.5 s … 2 s on the 80 ms frame grid (0.56 s, 0.64 s, 0.72 s, then 0.75 s as it becomes
        // visible, 0.8 s, …): every frame index, in order.
        #expect(Array(animatedFrames.prefix(12)) == [0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 0])
    }

    /// A deadline centuries away on the system clock arms the presenter's timer (no arithmetic
    /// overflow): the timer wakes at most a century ahead and sleeps again.
    @Test func farDeadlinesOnTheSystemClockAreSimplyFar() throws {
        let centuries = Duration.seconds(300 * 31_557_600)
        let presenter = WaitAlertPresenter(timing: try .default.with(grace: centuries).withTimeout(centuries * 2))
        let alert = showWaitAlert("Far away", presenter: presenter)
        let armed = try #require(presenter.timerDeadline)
        #expect(armed > .seconds(99 * 31_557_600) && armed < centuries)
        #expect(alert.model.snapshot.phase == .pending)
        alert.dismiss()
    }

    /// On a manual clock the same far deadlines are reached a century at a time.
    @Test func farDeadlinesOnAManualClockAreReached() async throws {
        let centuries = Duration.seconds(300 * 31_557_600)
        let bed = WaitAlertTestBed(timing: try .default.withTimeout(centuries))
        let alert = showWaitAlert("Patient", presenter: bed.presenter)
        await bed.advance(by: centuries - .seconds(1))
        #expect(alert.model.snapshot.phase == .visible)
        await bed.run()
        #expect(alert.model.completion?.outcome == .timedOut)
    }

    private func completion(of model: WaitAlertModel, bed: WaitAlertTestBed) async -> WaitAlertCompletion {
        await bed.run()
        return await model.completed()
    }
}

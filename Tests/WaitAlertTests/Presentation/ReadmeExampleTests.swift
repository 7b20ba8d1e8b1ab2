import Testing
import WaitAlert
import WaitAlertTesting

/// The README's test example, kept compiling and passing.
@Suite("README examples")
@MainActor
struct ReadmeExampleTests {
    @Test func showsProgress() async throws {
        let bed = WaitAlertTestBed()
        let alert = showWaitAlert("Loading…", presenter: bed.presenter)
        await bed.advance(to: .milliseconds(750))
        #expect(alert.model.snapshot.phase == .visible)
        alert.succeed("Loaded")
        await bed.run()
        #expect(bed.recorder.texts == ["Loading…", "Loaded"])
    }

    @Test func adjustingATimingPreset() throws {
        let timing = try WaitAlertTiming.default.with(grace: .milliseconds(200))
        #expect(timing.grace == .milliseconds(200))
        #expect(timing.appear == WaitAlertTiming.default.appear)
    }
}

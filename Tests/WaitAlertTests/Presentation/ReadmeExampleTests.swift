import Testing
import WaitAlert
import WaitAlertTesting

/// The README's test example, kept compiling and passing.
@Suite("README examples")
@MainActor
struct ReadmeExampleTests {
    @Test func showsProgress() async throws {
        let bed = WaitAlertTestBed()
        let work = bed.start {
            try await withWaitAlert("Loading…", presenter: bed.presenter) { alert in
                try await bed.clock.sleep(for: .seconds(2))
                alert.update("Almost there…")
                try await bed.clock.sleep(for: .seconds(1))
                return 42
            }
        }
        await bed.advance(by: .seconds(1))
        #expect(bed.recorder.latest?.text == "Loading…")
        await bed.advance(by: .seconds(1))
        #expect(bed.recorder.texts == ["Loading…", "Almost there…"])
        #expect(try await bed.run(until: work) == 42)
    }

    @Test func adjustingATimingPreset() throws {
        let timing = try WaitAlertTiming.default.with(grace: .milliseconds(200))
        #expect(timing.grace == .milliseconds(200))
        #expect(timing.appear == WaitAlertTiming.default.appear)
    }
}

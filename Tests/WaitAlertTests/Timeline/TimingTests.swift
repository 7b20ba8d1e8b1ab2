import Testing
import WaitAlert

@Suite("Timing knobs")
struct TimingTests {
    @Test func defaultsMatchTheClassicWaitAlert() {
        let timing = WaitAlertTiming.default
        #expect(timing.grace == .milliseconds(500))
        #expect(timing.appear == .milliseconds(250))
        #expect(timing.minimumDisplay == .milliseconds(500))
        #expect(timing.minimumPerMessage == .milliseconds(400))
        #expect(timing.fadeOut == .milliseconds(350))
        #expect(timing.timeout == nil)
        #expect(timing.spinner == .brailleDots)
        #expect(Spinner.brailleDots.interval == .milliseconds(80))
    }

    @Test(arguments: [
        ("Done", 1000),  // 0.5 + 0.24 → clamped up to 1 s
        ("Uploaded all twelve pictures", 2180),  // 0.5 + 28 × 0.06
        (String(repeating: "x", count: 200), 4000),  // clamped down to 4 s
    ])
    func readingTimeIsClamped(text: String, milliseconds: Int) {
        #expect(WaitAlertTiming.ReadingTime.default.duration(for: text) == .milliseconds(milliseconds))
    }

    @Test func invalidKnobsAreRejectedAtConstruction() {
        #expect(throws: WaitAlertConfigurationError.negativeDuration("grace", .milliseconds(-1))) {
            try WaitAlertTiming(grace: .milliseconds(-1))
        }
        #expect(throws: WaitAlertConfigurationError.nonPositiveDuration("timeout", .zero)) {
            try WaitAlertTiming(timeout: .zero)
        }
        #expect(throws: WaitAlertConfigurationError.self) {
            try WaitAlertTiming.ReadingTime(minimum: .seconds(5), maximum: .seconds(1))
        }
        #expect(throws: WaitAlertConfigurationError.self) {
            try WaitAlertTiming(minimumDisplay: .seconds(5))  // longer than the 4 s longest reading time
        }
        #expect(throws: WaitAlertConfigurationError.emptySpinner) {
            try Spinner(frames: [], interval: .milliseconds(80))
        }
        #expect(throws: WaitAlertConfigurationError.nonPositiveDuration("spinner.interval", .zero)) {
            try Spinner(frames: ["a"], interval: .zero)
        }
        #expect(throws: WaitAlertConfigurationError.self) {
            try WaitAlertTiming.default.with(fadeOut: .seconds(-2))
        }
    }

    @Test func errorsSayWhatIsWrong() {
        let error = WaitAlertConfigurationError.emptySpinner
        #expect(error.description.contains("at least one frame"))
        #expect(WaitAlertConfigurationError.negativeDuration("grace", .seconds(-1)).description.contains("grace"))
    }

    @Test func presetsAreDistinct() {
        #expect(WaitAlertTiming.toast.spinner == nil)
        #expect(WaitAlertTiming.toast.grace == .zero)
        #expect(WaitAlertTiming.terminal.appear == .zero)
        #expect(WaitAlertTiming.immediate.grace == .zero && WaitAlertTiming.immediate.finalMessage.maximum == .zero)
    }

    @Test func successWithoutTextEndsWithTheTitleWithoutEllipsis() {
        var timeline = WaitAlertTimeline(text: "Uploading picture…", timing: .immediate)
        _ = timeline.send(.finish(.success(nil)), at: .zero)
        #expect(timeline.outcome == .success("Uploading picture"))
    }
}

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

    /// Final messages name the alert: the title without its ellipsis, and for a cancellation or a
    /// timeout how long the work ran.
    @Test func finalTextsSayWhichAlertItWas() {
        var cancelled = WaitAlertTimeline(text: "Fetching files…", timing: .default)
        _ = cancelled.send(.finish(.cancelled), at: .milliseconds(3100))
        #expect(cancelled.finalText == "Fetching files: cancelled after 3.1s")
        var timedOut = WaitAlertTimeline(text: "Fetching files…", timing: try! .default.withTimeout(.seconds(30)))
        _ = timedOut.advance(to: .seconds(40))
        #expect(timedOut.outcome == .timedOut)
        #expect(timedOut.finalText == "Fetching files: timed out after 30.0s")
        #expect(WaitAlertOutcome.failure("Disk full").finalText(title: "Saving…", workDuration: .zero) == "Disk full")
        #expect(WaitAlertOutcome.cancelled.finalText(title: "…", workDuration: .seconds(2)) == "Cancelled after 2.0s")
        #expect(WaitAlertOutcome.dismissed.finalText(title: "Saving", workDuration: .zero) == nil)
        let after = { (duration: Duration) in WaitAlertOutcome.cancelled.finalText(title: "", workDuration: duration) }
        #expect(after(.milliseconds(59_949)) == "Cancelled after 59.9s")
        #expect(after(.milliseconds(59_950)) == "Cancelled after 1m 0s")
        #expect(after(.seconds(125)) == "Cancelled after 2m 5s")
        #expect(after(.seconds(3 * 3600 + 12 * 60 + 29)) == "Cancelled after 3h 12m")
        #expect(WaitAlertOutcome.name(fromTitle: "Syncing ... ") == "Syncing")
        #expect(WaitAlertOutcome.name(fromTitle: "Syncing ...") == "Syncing")
    }

    /// Durations up to ten thousand years are accepted and computed exactly; longer ones are
    /// rejected with an error that says so. No accepted duration can crash.
    @Test func farDurationsAreFarAndTooFarOnesAreRejected() throws {
        let centuries = Duration.seconds(300 * 31_557_600)
        let timing = try WaitAlertTiming(grace: centuries, timeout: centuries + .seconds(1))
        var timeline = WaitAlertTimeline(text: "Waiting", timing: timing, at: .seconds(5))
        #expect(timeline.nextDeadline == .seconds(5) + centuries)
        _ = timeline.advance(to: .seconds(5) + centuries + .seconds(1))
        #expect(timeline.outcome == .timedOut)
        let longest = WaitAlertTiming.longestDuration
        let reading = try WaitAlertTiming.ReadingTime(perCharacter: longest, maximum: longest)
        #expect(reading.duration(for: String(repeating: "x", count: 2_000_000)) == longest)
        #expect(throws: WaitAlertConfigurationError.durationTooLong("timeout", longest + .seconds(1))) {
            try WaitAlertTiming(timeout: longest + .seconds(1))
        }
        #expect(throws: WaitAlertConfigurationError.durationTooLong("finalMessage.base", .seconds(Int64.max))) {
            try WaitAlertTiming.ReadingTime(base: .seconds(Int64.max))
        }
        let message = WaitAlertConfigurationError.durationTooLong("timeout", longest * 2).description
        #expect(message.contains("10,000 years") && message.contains("timeout: nil"))
    }
}

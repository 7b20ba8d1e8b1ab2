import Testing

@testable import WaitAlert

/// What an ended alert leaves behind, as one pure function of its snapshot.
@Suite("Final line")
struct FinalLineTests {
    /// The snapshot of an alert titled "Fetching files…" that ended with `outcome` after 3.1 s.
    static func ended(_ outcome: WaitAlertOutcome, kind: WaitAlertKind = .waitAlert) -> WaitAlertSnapshot {
        var timeline = WaitAlertTimeline(text: "Fetching files…", timing: .immediate, kind: kind)
        _ = timeline.send(.finish(outcome), at: .milliseconds(3100))
        return timeline.snapshot(at: .milliseconds(3100))
    }

    @Test(arguments: [
        (WaitAlertOutcome.success(nil), "✔ Fetching files (3.1s)", FinalLine.Tone.success),
        (.success("Fetched 12 files"), "✔ Fetched 12 files (3.1s)", .success),
        (.failure("Fetching files: could not fetch x.json"), "✖ Fetching files: could not fetch x.json", .failure),
        (.cancelled, "⚠ Fetching files: cancelled after 3.1s", .warning),
        (.timedOut, "⚠ Fetching files: timed out after 3.1s", .warning),
    ])
    func endings(outcome: WaitAlertOutcome, line: String, tone: FinalLine.Tone) throws {
        let final = try #require(FinalLine.of(Self.ended(outcome)))
        #expect(final.plain == line)
        #expect(final.tone == tone)
    }

    @Test func aDismissalLeavesNothing() {
        #expect(FinalLine.of(Self.ended(.dismissed)) == nil)
    }

    @Test func aToastLeavesItsTextAlone() throws {
        let final = try #require(FinalLine.of(Self.ended(.success("Saved"), kind: .toast)))
        #expect(final.plain == "Saved")
        #expect(final.icon == nil && final.elapsed == nil && final.tone == .neutral)
    }

    @Test func anAlertStillRunningHasNone() {
        let running = WaitAlertTimeline(text: "Working", timing: .default).snapshot(at: .seconds(1))
        #expect(FinalLine.of(running) == nil)
    }
}

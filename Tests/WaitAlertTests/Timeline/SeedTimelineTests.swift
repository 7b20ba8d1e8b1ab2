import Testing
import WaitAlert
import WaitAlertTesting

/// The seed timeline, the classic wait alert demo: "Doing Something", then three progress texts,
/// then "Done", lingering and fading out.
@Suite("Seed timeline")
struct SeedTimelineTests {
    let events = SeedTimeline.events

    /// The timeline replayed and sampled every 100 ms, as marbles, one character per sample from
    /// 0 to 6 s. Legend — reports: 1, 2, 3 the progress texts, D "Done", · nothing; phases:
    /// p pending, a appearing, v visible, l lingering, f fading, g gone.
    @Test func phaseDiagram() {
        let reports = "··········1·········2·········3··············D···············"
        let phases = "pppppaaavvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvllllllllllffffgg"
        let instants = reports.enumerated().filter { $0.element != "·" }.map { Duration.milliseconds($0.offset * 100) }
        #expect(instants == events.map(\.at), "the reports marble shows the fixture's instants")
        let diagram = sample(every: .milliseconds(100), until: .milliseconds(6000)).map { Self.symbol($0.phase) }
        #expect(String(diagram) == phases)
    }

    @Test func exactPhasesAndTextsAtEachInstant() {
        let expected: [(ms: Int, phase: WaitAlertPhase, text: String)] = [
            (0, .pending, "Doing Something"),
            (499, .pending, "Doing Something"),
            (500, .appearing, "Doing Something"),
            (749, .appearing, "Doing Something"),
            (750, .visible, "Doing Something"),
            (999, .visible, "Doing Something"),
            (1000, .visible, "Getting there…"),
            (2000, .visible, "Really…"),
            (3000, .visible, "Just about there…"),
            (4499, .visible, "Just about there…"),
            (4500, .lingering, "Done"),
            (5499, .lingering, "Done"),
            (5500, .fading, "Done"),
            (5849, .fading, "Done"),
            (5850, .gone, "Done"),
        ]
        let samples = Dictionary(
            uniqueKeysWithValues: sample(at: expected.map { .milliseconds($0.ms) }).map { ($0.instant, $0) })
        for (ms, phase, text) in expected {
            let snapshot = samples[.milliseconds(ms)]!.snapshot
            #expect(snapshot.phase == phase, "at \(ms) ms")
            #expect(snapshot.text == text, "at \(ms) ms")
        }
    }

    @Test func animationValues() {
        let samples = sample(at: [
            .milliseconds(500), .milliseconds(600), .milliseconds(650), .milliseconds(700), .milliseconds(750),
            .milliseconds(5675),
        ])
        let opacity = samples.map(\.snapshot.opacity)
        let scale = samples.map(\.snapshot.scale)
        #expect(opacity[0] == 0)
        #expect(abs(opacity[1] - 0.4) < 1e-9)
        #expect(opacity[4] == 1)
        #expect(abs(opacity[5] - 0.5) < 1e-9)
        #expect(abs(scale[0] - 0.6) < 1e-9)  // 0 of the pop-in
        #expect(abs(scale[2] - 1.1) < 1e-9)  // 0.6 of it
        #expect(abs(scale[3] - 0.9) < 1e-9)  // 0.8 of it
        #expect(scale[4] == 1)
    }

    @Test func completionFiresOnceAfterRemoval() {
        var timeline = WaitAlertTimeline(text: SeedTimeline.title, timing: .default, at: .zero)
        var actions: [WaitAlertTimeline.Action] = []
        for (instant, event) in events { actions += timeline.send(event, at: instant) }
        #expect(!actions.contains { if case .completed = $0 { true } else { false } })
        actions += timeline.advance(to: .seconds(10))
        #expect(
            actions == [.completed(.init(outcome: .success("Done"), wasShown: true, workDuration: .milliseconds(4500)))]
        )
        #expect(timeline.advance(to: .seconds(20)).isEmpty)
    }

    /// Frames turn on the 80 ms grid of the timeline's clock (so every alert turns together): the
    /// alert appears at 0.5 s with frame 0, which turns to frame 1 at 0.56 s.
    @Test func spinnerFramesFollowTheFrameGrid() {
        let samples = sample(at: [.milliseconds(500), .milliseconds(559), .milliseconds(560), .milliseconds(1280)])
        #expect(samples.map(\.snapshot.spinnerFrame) == [0, 0, 1, 0])  // 800 ms = 10 frames: back to frame 0
        #expect(samples[2].snapshot.spinnerGlyph == "⠙")
    }

    private func sample(every step: Duration, until end: Duration) -> [(
        instant: Duration, snapshot: WaitAlertSnapshot, phase: WaitAlertPhase
    )] {
        sample(
            at: Array(
                stride(from: 0, through: Int(end.milliseconds), by: Int(step.milliseconds)).map {
                    Duration.milliseconds($0)
                }))
    }

    /// Replays the events and takes a snapshot at each instant (in increasing order).
    private func sample(at instants: [Duration]) -> [(
        instant: Duration, snapshot: WaitAlertSnapshot, phase: WaitAlertPhase
    )] {
        var timeline = WaitAlertTimeline(text: SeedTimeline.title, timing: .default, at: .zero)
        var pending = events[...]
        return instants.map { instant in
            while let next = pending.first, next.0 <= instant {
                _ = timeline.send(next.1, at: next.0)
                pending = pending.dropFirst()
            }
            _ = timeline.advance(to: instant)
            let snapshot = timeline.snapshot(at: instant)
            return (instant, snapshot, snapshot.phase)
        }
    }

    static func symbol(_ phase: WaitAlertPhase) -> Character {
        switch phase {
        case .pending: "p"
        case .appearing: "a"
        case .visible: "v"
        case .lingering: "l"
        case .fading: "f"
        case .gone: "g"
        }
    }
}

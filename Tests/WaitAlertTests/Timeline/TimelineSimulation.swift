@testable import WaitAlert

/// One random scenario: a timing and events at increasing instants, replayed into a trace of every
/// state the timeline goes through.
struct TimelineScenario: CustomStringConvertible {
    var seed: UInt64
    var timing: WaitAlertTiming
    var start: Duration
    var events: [(at: Duration, event: WaitAlertTimeline.Event)]

    init(seed: UInt64, start: Duration = .zero) {
        var rng = SplitMix64(seed: seed)
        self.seed = seed
        self.start = start
        self.timing = Self.randomTiming(using: &rng)
        var now = start
        var events: [(Duration, WaitAlertTimeline.Event)] = []
        let count = Int.random(in: 0...12, using: &rng)
        for index in 0..<count {
            now += .randomMilliseconds(in: 0...900, using: &rng)
            let roll = Int.random(in: 0..<100, using: &rng)
            switch roll {
            case 0..<60: events.append((now, .update("text \(index) \(String(repeating: "x", count: roll % 7))")))
            case 60..<75: events.append((now, .log("line \(index)")))
            case 75..<80: events.append((now, .finish(.dismissed)))
            default: events.append((now, .finish(Self.randomOutcome(using: &rng))))
            }
        }
        if Bool.random(using: &rng) {
            now += .randomMilliseconds(in: 0...1500, using: &rng)
            events.append((now, .finish(Self.randomOutcome(using: &rng))))
        }
        self.events = events
    }

    var description: String { "seed \(seed): \(timing) \(events)" }

    static func randomTiming(using rng: inout SplitMix64) -> WaitAlertTiming {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .default
        case 1: return .terminal
        case 2: return .toast
        case 3: return .immediate
        default:
            let readingMinimum = Duration.randomMilliseconds(in: 0...1500, using: &rng)
            let readingMaximum = readingMinimum + .randomMilliseconds(in: 0...3000, using: &rng)
            return try! WaitAlertTiming(
                grace: .randomMilliseconds(in: 0...800, using: &rng),
                appear: .randomMilliseconds(in: 0...400, using: &rng),
                minimumDisplay: .randomMilliseconds(in: 0...Int(readingMaximum.milliseconds), using: &rng),
                minimumPerMessage: .randomMilliseconds(in: 0...600, using: &rng),
                finalMessage: try! .init(
                    base: .randomMilliseconds(in: 0...800, using: &rng),
                    perCharacter: .randomMilliseconds(in: 0...100, using: &rng),
                    minimum: readingMinimum,
                    maximum: readingMaximum
                ),
                fadeOut: .randomMilliseconds(in: 0...500, using: &rng),
                timeout: Int.random(in: 0..<4, using: &rng) == 0 ? .randomMilliseconds(in: 1...5000, using: &rng) : nil
            )
        }
    }

    static func randomOutcome(using rng: inout SplitMix64) -> WaitAlertOutcome {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: .success(nil)
        case 1: .success("Done")
        case 2: .failure(String(repeating: "failure ", count: Int.random(in: 1...20, using: &rng)))
        case 3: .cancelled
        default: .timedOut
        }
    }

    /// Replays the scenario, recording the state after every event and every single deadline,
    /// then lets the remaining deadlines pass.
    func run() -> TimelineTrace {
        var timeline = WaitAlertTimeline(text: "Doing Something", timing: timing, at: start)
        var trace = TimelineTrace(start: start)
        trace.record(timeline, at: start, actions: [])
        func advance(to target: Duration) {
            var actions: [WaitAlertTimeline.Action] = []
            while timeline.fireNextDeadline(notAfter: target, actions: &actions) {
                trace.record(timeline, at: timeline.now, actions: actions)
                actions = []
            }
            _ = timeline.advance(to: target)  // nothing is due any more: only moves `now`
        }
        for (instant, event) in events {
            advance(to: instant)
            trace.reports.append((instant, event))
            var actions: [WaitAlertTimeline.Action] = []
            timeline.apply(event, actions: &actions)
            trace.record(timeline, at: instant, actions: actions)
        }
        advance(to: .seconds(1_000_000))
        return trace
    }
}

/// Every state a timeline went through, with the instant it was reached and what it asked for.
struct TimelineTrace {
    struct Step: Equatable {
        var instant: Duration
        var phase: WaitAlertPhase
        var text: String
        var actions: [WaitAlertTimeline.Action]
        var snapshot: WaitAlertSnapshot
    }

    var start: Duration
    var steps: [Step] = []
    var reports: [(at: Duration, event: WaitAlertTimeline.Event)] = []

    mutating func record(_ timeline: WaitAlertTimeline, at instant: Duration, actions: [WaitAlertTimeline.Action]) {
        steps.append(
            Step(
                instant: instant, phase: timeline.phase, text: timeline.text, actions: actions,
                snapshot: timeline.snapshot(at: instant)))
    }

    var completions: [WaitAlertCompletion] {
        steps.flatMap(\.actions).compactMap { if case .completed(let c) = $0 { c } else { nil } }
    }

    /// The first instant the alert was in `phase`, if ever.
    func firstInstant(in phase: WaitAlertPhase) -> Duration? {
        steps.first { $0.phase == phase }?.instant
    }

    /// The state in force at `instant`: the last step recorded at or before it.
    func state(at instant: Duration) -> Step {
        steps.last { $0.instant <= instant } ?? steps[0]
    }

    var wasDismissed: Bool {
        reports.contains {
            if case .finish(.dismissed) = $0.event { true } else { false }
        }
    }

    /// The instant of the first ending event (finish or dismiss), if any.
    var firstEnding: (at: Duration, event: WaitAlertTimeline.Event)? {
        reports.first { if case .update = $0.event { false } else if case .log = $0.event { false } else { true } }
    }
}

extension Duration {
    var milliseconds: Int64 { Int64(attoseconds / 1_000_000_000_000_000) }
}

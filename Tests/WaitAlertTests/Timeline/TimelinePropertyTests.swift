import Testing
import WaitAlert

/// The timeline's invariants, each checked over 10,000 seeded random scenarios (1,000 unless the
/// full sweep runs: ``PropertyRuns``). A failure names
/// its seed; `TimelineScenario(seed:)` replays it exactly. The loops yield now and then so the
/// end-to-end tests running alongside keep their timing.
@Suite("Timeline invariants")
struct TimelinePropertyTests {
    static let seeds = PropertyRuns.seeds(of: 10_000)

    /// Runs `check` on every seeded scenario and its trace, yielding now and then so the end-to-end
    /// tests running alongside keep their timing.
    static func forEachScenario(_ check: (TimelineScenario, TimelineTrace) -> Void) async {
        for seed in seeds {
            if seed % 200 == 0 { await Task.yield() }
            let scenario = TimelineScenario(seed: seed)
            check(scenario, scenario.run())
        }
    }

    @Test("1. work ending within the grace delay shows nothing")
    func nothingVisibleWithinGrace() async {
        var checked = 0
        await Self.forEachScenario { scenario, trace in
            guard
                let ending = scenario.events.first(where: {
                    if case .update = $0.event { false } else if case .log = $0.event { false } else { true }
                }),
                ending.at < scenario.start + scenario.timing.grace
            else { return }
            checked += 1
            #expect(!trace.steps.contains { $0.phase.isOnScreen || $0.snapshot.opacity > 0 }, "\(scenario)")
            #expect(trace.completions.map(\.wasShown) == [false], "\(scenario)")
        }
        #expect(checked > PropertyRuns.count(of: 1_000))
    }

    @Test("2. once visible, fully visible for the minimum display before fading")
    func minimumDisplay() async {
        await Self.forEachScenario { scenario, trace in
            guard !trace.wasDismissed, let fading = trace.firstInstant(in: .fading) else { return }
            let visible = trace.firstInstant(in: .visible)
            #expect(visible != nil, "\(scenario)")
            #expect(fading - (visible ?? fading) >= scenario.timing.minimumDisplay, "\(scenario)")
        }
    }

    @Test("3. the completion fires exactly once, with an accurate 'was shown'")
    func completionExactlyOnce() async {
        await Self.forEachScenario { scenario, trace in
            let ended = trace.firstEnding != nil || scenario.timing.timeout != nil
            #expect(trace.completions.count == (ended ? 1 : 0), "\(scenario)")
            if let completion = trace.completions.first {
                #expect(completion.wasShown == trace.steps.contains { $0.phase.isOnScreen }, "\(scenario)")
                #expect(trace.steps.last?.phase == .gone, "\(scenario)")
            }
        }
    }

    @Test("4. texts stay their minimum, lag at most that, and the last one is never lost")
    func textHolds() async {
        await Self.forEachScenario { scenario, trace in
            let minimum = scenario.timing.minimumPerMessage
            let shown = trace.steps.filter { $0.phase == .appearing || $0.phase == .visible }
            // Each intermediate text, once on screen, stays at least its minimum (unless cut by a dismissal
            // or a timeout, which skip every minimum).
            var segments: [(text: String, from: Duration, to: Duration)] = []
            for step in shown {
                if segments.last?.text == step.text { continue }
                if !segments.isEmpty { segments[segments.count - 1].to = step.instant }
                segments.append((step.text, step.instant, step.instant))
            }
            let cut = trace.wasDismissed || trace.steps.flatMap(\.actions).contains(.timedOut)
            if let end = trace.firstInstant(in: .lingering), !segments.isEmpty, !cut {
                segments[segments.count - 1].to = end
            } else if !segments.isEmpty {
                segments.removeLast()
            }
            for segment in segments {
                #expect(segment.to - segment.from >= minimum, "\(segment) in \(scenario)")
            }
            // The latest report is on screen within the minimum.
            // Reports after the work ended (finish, dismissal or timeout) are ignored by design.
            let endedAt =
                [trace.firstEnding?.at, trace.steps.first { $0.actions.contains(.timedOut) }?.instant]
                .compactMap { $0 }.min() ?? .seconds(1_000_000)
            let updates = trace.reports.compactMap { report -> (Duration, String)? in
                if case .update(let text) = report.event, report.at < endedAt { (report.at, text) } else { nil }
            }
            for (index, (at, text)) in updates.enumerated() {
                let deadline = at + minimum
                if index + 1 < updates.count, updates[index + 1].0 <= deadline { continue }
                let state = trace.state(at: deadline)
                guard state.phase == .appearing || state.phase == .visible else { continue }
                #expect(state.text == text, "report at \(at) in \(scenario)")
            }
            // The last text reported before finishing is shown before the final message.
            if let lingering = trace.firstInstant(in: .lingering), !cut,
                let ending = trace.firstEnding, let last = updates.last(where: { $0.0 <= ending.at }),
                trace.state(at: last.0).phase != .pending || scenario.timing.grace <= ending.at - scenario.start
            {
                #expect(
                    shown.contains { $0.text == last.1 && $0.instant < lingering }
                        || trace.state(at: ending.at).phase == .pending,
                    "\(scenario)")
            }
        }
    }

    @Test("5. the final message shows within its reading time's minimum and maximum")
    func finalMessageReadingTime() async {
        await Self.forEachScenario { scenario, trace in
            guard !trace.wasDismissed, let lingering = trace.firstInstant(in: .lingering),
                let fading = trace.firstInstant(in: .fading)
            else { return }
            let reading = scenario.timing.finalMessage
            #expect(fading - lingering >= reading.minimum, "\(scenario)")
            #expect(fading - lingering <= reading.maximum, "\(scenario)")
            #expect(fading - lingering >= reading.duration(for: trace.state(at: lingering).text), "\(scenario)")
        }
    }

    @Test("6. phases follow allowed transitions; deadlines depend only on event instants")
    func transitionsAndPurity() async {
        let allowed: Set<[WaitAlertPhase]> = [
            [.pending, .appearing], [.pending, .gone], [.appearing, .visible], [.appearing, .fading],
            [.visible, .lingering], [.visible, .fading], [.lingering, .fading], [.fading, .gone],
        ]
        await Self.forEachScenario { scenario, trace in
            for (a, b) in zip(trace.steps, trace.steps.dropFirst()) where a.phase != b.phase {
                #expect(allowed.contains([a.phase, b.phase]), "\(a.phase) → \(b.phase) in \(scenario)")
                #expect(a.instant <= b.instant, "\(scenario)")
            }
            // The same events shifted to another origin give the same trace, shifted.
            let shift = Duration.seconds(1_000) + .milliseconds(Int(scenario.seed % 997))
            var shifted = scenario
            shifted.start += shift
            shifted.events = scenario.events.map { ($0.at + shift, $0.event) }
            let other = shifted.run()
            #expect(other.steps.map(\.phase) == trace.steps.map(\.phase), "\(scenario)")
            #expect(other.steps.map(\.text) == trace.steps.map(\.text), "\(scenario)")
            #expect(other.steps.map { $0.instant - shift } == trace.steps.map(\.instant), "\(scenario)")
        }
    }

    @Test("7. the alert appears showing the latest text reported before it appeared")
    func appearsWithTheLatestText() async {
        var checked = 0
        await Self.forEachScenario { scenario, trace in
            guard let appeared = trace.steps.first(where: { $0.phase.isOnScreen }) else { return }
            let endedAt = trace.firstEnding?.at ?? .seconds(1_000_000)
            let latest = trace.reports.last { report in
                guard case .update = report.event else { return false }
                return report.at < appeared.instant && report.at < endedAt
            }
            guard case .update(let text) = latest?.event else {
                #expect(appeared.text == "Doing Something", "\(scenario)")
                return
            }
            checked += 1
            #expect(appeared.text == text, "appeared at \(appeared.instant) in \(scenario)")
        }
        #expect(checked > PropertyRuns.count(of: 1_000))
    }
}

import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Progress values a caller may pass, however odd, read the same in every renderer: a total of
/// zero or less is unknown, a count never goes below zero or past its total, and the time left
/// never reads like the elapsed time.
@Suite("Progress values")
@MainActor
struct ProgressValuesTests {
    /// What the timeline keeps of `completed` of `total`.
    static func kept(_ completed: Int, _ total: Int?) -> WaitAlertProgress? {
        var timeline = WaitAlertTimeline(text: "Counting", timing: .terminal, at: .zero)
        _ = timeline.send(.progress(completed: completed, total: total, unit: .count), at: .seconds(1))
        return timeline.snapshot(at: .seconds(1)).progress
    }

    @Test func aTotalOfZeroOrLessIsUnknownAndCountsStayInRange() {
        #expect(Self.kept(5, 0).map { ($0.completed, $0.total) } ?? (0, 0) == (5, nil))
        #expect(Self.kept(5, -10).map { ($0.completed, $0.total) } ?? (0, 0) == (5, nil))
        #expect(Self.kept(-5, 10).map { ($0.completed, $0.total) } ?? (0, 0) == (0, 10))
        #expect(
            Self.kept(12, 10).map { ($0.completed, $0.total) } ?? (0, 0) == (12, 12), "the total grows to the count")
        #expect(Self.kept(.min, .min).map { ($0.completed, $0.total) } ?? (1, 1) == (0, nil))
    }

    /// A progress value made by hand (a preview, a custom renderer's test) reads the same way.
    @Test func textsTreatATotalOfZeroOrLessAsUnknown() {
        for total in [0, -10, Int.min] {
            let progress = WaitAlertProgress(completed: 5, total: total, rate: 10, remaining: .about(.seconds(1)))
            #expect(ProgressText.count(progress) == "5")
            #expect(ProgressText.percent(progress) == nil)
            #expect(ProgressText.remaining(progress) == nil, "no time left without a total")
            let row = ProgressText.row(progress, room: 60, barWidth: 10, unicode: true)
            #expect(row == " 5 · 10/s", "\(row)")
            #expect(ProgressText.summary(progress) == "5, 10/s")
        }
    }

    @Test func theTimeLeftSaysSo() {
        let progress = WaitAlertProgress(
            completed: 40, total: 100, unit: .named("files"), rate: 2, remaining: .about(.seconds(30)))
        #expect(ProgressText.remaining(progress) == "30s left")
        #expect(
            ProgressText.row(progress, room: 80, barWidth: 8, unicode: false)
                == " [###-----] 40% · 30s left · 40/100 files · 2.0 files/s")
        #expect(ProgressText.summary(progress) == "40% (40/100 files, 2.0 files/s, 30s left)")
        var stalled = progress
        stalled.remaining = .stalled
        #expect(ProgressText.remaining(stalled) == "stalled")
    }

    /// A row's time left and its elapsed time are told apart in the region.
    @Test func aRowsTimeLeftAndElapsedTimeAreToldApart() async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 10)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Downloading", presenter: bed.presenter) { group in
                try await group.task("file.bin") { row in
                    row.progress(completed: 0, total: 10_000_000, unit: .bytes)
                    for _ in 0..<40 {
                        try await bed.clock.sleep(for: .milliseconds(250))
                        row.advance(by: 200_000)
                    }
                }
            }
        }
        // A frame later: a change of progress, the group's too, shows at most once a frame.
        await bed.advance(to: .seconds(3) + .milliseconds(80))
        let row = try #require(terminal.lines.first { $0.contains("file.bin") }, "\(terminal)")
        #expect(row.contains(#/ · \d+s left · /#), "\(row)")
        #expect(row.hasSuffix(" · 3s"), "the elapsed time ends the row: \(row)")
        try await bed.run(until: work)
    }

    /// A total of zero, in a terminal and on a pipe: a count, never `/0` nor a time left.
    @Test(arguments: [true, false])
    func aTotalOfZeroShowsTheCountAlone(interactive: Bool) async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 10, isInteractive: interactive)
        let renderer: any WaitAlertRenderer =
            interactive
            ? TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
            : LineRenderer(terminal: terminal, heartbeatInterval: .seconds(1))
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [renderer])
        let work = bed.start {
            try await withWaitAlert("Counting", presenter: bed.presenter) { alert in
                for step in 1...30 {
                    alert.progress(completed: step * 5, total: step % 2 == 0 ? 0 : -10)
                    try await bed.clock.sleep(for: .milliseconds(100))
                }
            }
        }
        await bed.advance(to: .milliseconds(2_500))
        let shown = terminal.lines.filter { $0.contains("Counting") }
        #expect(!shown.isEmpty, "\(terminal)")
        #expect(
            shown.allSatisfy { !$0.contains(#/\d\/-?\d/#) && !$0.contains("left") && !$0.contains("%") }, "\(shown)")
        try await bed.run(until: work)
        #expect(!terminal.transcript.contains { $0.contains("/0") || $0.contains("left") }, "\(terminal)")
        if !interactive {
            #expect(terminal.transcript.contains { $0.hasPrefix("… still running: Counting (") }, "\(terminal)")
        }
    }
}

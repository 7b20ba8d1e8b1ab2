import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Determinate progress: reported from the work as cheaply as a text, carried on snapshots with
/// its rate and time left, and printed by plain lines only at quarters and now and then.
@Suite("Progress")
@MainActor
struct ProgressTests {
    @Test func reportsReachTheSnapshotWithARateAndTimeLeft() async throws {
        let bed = WaitAlertTestBed(timing: .terminal, wantsFrames: true)
        let work = bed.start {
            try await withWaitAlert("Downloading", presenter: bed.presenter) { alert in
                alert.progress(completed: 0, total: 10_000_000, unit: .bytes)
                for _ in 0..<10 {
                    try await bed.clock.sleep(for: .seconds(1))
                    alert.advance(by: 250_000)
                }
                alert.advance(by: 0, totalBy: 1_000_000)  // found more to do
                try await bed.clock.sleep(for: .seconds(10))
            }
        }
        await bed.advance(to: .milliseconds(5_100))
        let progress = try #require(bed.presenter.alerts.first?.snapshot.progress)
        #expect(progress.completed == 1_250_000 && progress.total == 10_000_000 && progress.unit == .bytes)
        #expect(progress.fraction == 0.125)
        let rate = try #require(progress.rate)
        #expect(abs(rate - 250_000) < 1, "\(rate)")
        guard case .about(let left) = progress.remaining else {
            Issue.record("\(progress.remaining)")
            return
        }
        #expect(left > .seconds(34) && left < .seconds(35), "35 s less the 0.1 s since the last report: \(left)")
        await bed.advance(to: .milliseconds(10_100))
        #expect(bed.presenter.alerts.first?.snapshot.progress?.total == 11_000_000, "the total grew")
        await bed.advance(to: .milliseconds(15_200))
        #expect(bed.presenter.alerts.first?.snapshot.progress?.remaining == .stalled)
        try await bed.run(until: work)
    }

    @Test func progressCanBecomeUnknownAgain() async throws {
        let bed = WaitAlertTestBed(timing: .terminal, wantsFrames: true)
        let work = bed.start {
            try await withWaitAlert("Working", presenter: bed.presenter) { alert in
                alert.progress(completed: 3, total: nil, unit: .named("files"))
                try await bed.clock.sleep(for: .seconds(1))
                alert.progressUnknown()
                try await bed.clock.sleep(for: .seconds(1))
            }
        }
        await bed.advance(to: .milliseconds(900))
        let progress = try #require(bed.presenter.alerts.first?.snapshot.progress)
        #expect(progress.fraction == nil && ProgressText.count(progress) == "3 files")
        await bed.advance(to: .milliseconds(1_500))
        #expect(bed.presenter.alerts.first?.snapshot.progress == nil)
        try await bed.run(until: work)
    }

    @Test func plainLinesPrintQuartersAndNowAndThenNeverEveryReport() async throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [TerminalOverlay(terminal: terminal)])
        let work = bed.start {
            try await withWaitAlert("Copying", presenter: bed.presenter) { alert in
                alert.progress(completed: 0, total: 1000, unit: .named("files"))
                for _ in 0..<1000 {
                    try await bed.clock.sleep(for: .milliseconds(20))
                    alert.advance()
                }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let lines = terminal.transcript.filter { $0.hasPrefix("Copying: ") }
        // Taken once a second: each quarter is printed as soon as it is seen passed.
        let percents = lines.compactMap { Int($0.dropFirst(9).prefix { $0.isNumber }) }
        #expect(percents.count == lines.count && percents == percents.sorted(), "\(lines)")
        for quarter in [25, 50, 75] {
            #expect(percents.filter { $0 >= quarter && $0 < quarter + 6 }.count == 1, "\(quarter): \(lines)")
        }
        #expect(lines.last == "Copying: 100% (1000/1000 files)", "\(lines)")
        #expect(lines.count <= 8, "now and then, never per report: \(lines)")
        #expect(lines.contains { $0.contains("files, 50 files/s, ") && $0.contains("s left)") }, "\(lines)")
        #expect(!terminal.output.contains(0x1B))
    }

    @Test func plainLinesPrintAGroupsSumWhenItHasNoProgressOfItsOwn() async throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [TerminalOverlay(terminal: terminal)])
        let work = bed.start {
            try await withWaitAlert("Fetching", presenter: bed.presenter) { group in
                try await group.tasks(for: [1, 3], title: { "part\($0)" }) { part, row in
                    row.progress(completed: 0, total: part * 100, unit: .named("kB"))
                    for _ in 0..<100 {
                        try await bed.clock.sleep(for: .milliseconds(100))
                        row.advance(by: part)
                    }
                }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let lines = terminal.transcript.filter { $0.hasPrefix("Fetching: ") }
        #expect(lines.count >= 3 && lines.count <= 8, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("Fetching: 5") && $0.contains("/400 kB") }, "weighted by totals: \(lines)")
        #expect(lines.last?.hasPrefix("Fetching: 100% (400/400 kB") == true, "\(lines)")
    }

    @Test(arguments: [
        (WaitAlertProgress(completed: 12, total: 40), "12/40", "30%"),
        (WaitAlertProgress(completed: 1_234_567, total: 4_000_000, unit: .bytes), "1.2 MB / 4.0 MB", "30%"),
        (WaitAlertProgress(completed: 1536, total: 1 << 30, unit: .binaryBytes), "1.5 KiB / 1.0 GiB", "0%"),
        (WaitAlertProgress(completed: 999, unit: .bytes), "999 B", nil),
        (WaitAlertProgress(completed: 7, total: 7, unit: .named("tests")), "7/7 tests", "100%"),
    ])
    func counts(progress: WaitAlertProgress, count: String, percent: String?) {
        #expect(ProgressText.count(progress) == count)
        #expect(ProgressText.percent(progress) == percent)
    }

    /// Whole seconds to the nearest (a reading is never more than half a second off the
    /// estimate), never `0s` while work is left.
    @Test func timeLeftIsCoarse() {
        #expect(ProgressText.remaining(.zero) == "1s")
        #expect(ProgressText.remaining(.milliseconds(400)) == "1s")
        #expect(ProgressText.remaining(.milliseconds(11_200)) == "11s")
        #expect(ProgressText.remaining(.milliseconds(11_499)) == "11s")
        #expect(ProgressText.remaining(.milliseconds(11_500)) == "12s")
        #expect(ProgressText.remaining(.seconds(59)) == "59s")
        #expect(ProgressText.remaining(.milliseconds(59_500)) == "~1m")
        #expect(ProgressText.remaining(.seconds(185)) == "~3m")
        #expect(ProgressText.remaining(.seconds(3599)) == "~60m")
        #expect(ProgressText.remaining(.seconds(3600)) == ">1h")
    }

    @Test func barsUseEighthsOrAscii() {
        #expect(ProgressText.bar(0.5, width: 10, unicode: true) == "█████     ")
        #expect(ProgressText.bar(0.5625, width: 10, unicode: true) == "█████▋    ")
        #expect(ProgressText.bar(1, width: 4, unicode: true) == "████")
        #expect(ProgressText.bar(0.5, width: 10, unicode: false) == "#####-----")
        #expect(ProgressText.bar(.nan, width: 3, unicode: true) == "   ")
        for width in 0...30 {
            for step in 0...64 {
                #expect(DisplayWidth.of(ProgressText.bar(Double(step) / 64, width: width, unicode: true)) == width)
            }
        }
    }
}

/// Progress in the terminal region: a bar, the percentage, the time left, the count and the rate
/// as room allows, and a group header that adds up its child tasks.
@Suite("Progress in the region")
@MainActor
struct RegionProgressTests {
    static func run(columns: Int) async throws -> (lines: [String], header: String, terminal: InMemoryTerminal) {
        let terminal = InMemoryTerminal(columns: columns, rows: 12)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Downloading", presenter: bed.presenter) { group in
                try await group.tasks(for: [1, 3], title: { "Fetching part\($0).bin" }) { part, row in
                    row.progress(completed: 0, total: part * 4_000_000, unit: .bytes)
                    for _ in 0..<40 {
                        try await bed.clock.sleep(for: .milliseconds(250))
                        row.advance(by: 100_000)
                    }
                }
            }
        }
        // A frame later: a change of progress, the group's too, shows at most once a frame.
        await bed.advance(to: .seconds(5) + .milliseconds(80))
        let lines = terminal.lines.filter { $0.contains("Fetching") }
        let header = terminal.lines.first { $0.contains("Downloading") } ?? ""
        try await bed.run(until: work)
        await bed.run()
        return (lines, header, terminal)
    }

    @Test func aRowShowsABarAndWhatFits() async throws {
        let (lines, header, _) = try await Self.run(columns: 100)
        let part1 = try #require(lines.first { $0.contains("part1") })
        #expect(part1.contains("Fetching part1.bin ▕"), "\(part1)")
        // Drawn at 5 s, with the report made then: 20 reports of 100 kB, 400 kB/s, 5 s left.
        #expect(part1.hasSuffix("▏ 50% · 5s left · 2.0 MB / 4.0 MB · 400.0 kB/s · 5s"), "\(part1)")
        #expect(
            header.hasSuffix("▏ 25% · 15s left · 4.0 MB / 16.0 MB · 800.0 kB/s · 0/2 · 5s"),
            "the group adds up its parts: \(header)")
    }

    @Test func narrowTerminalsKeepTheTextAndThePercentage() async throws {
        let (lines, _, terminal) = try await Self.run(columns: 40)
        for line in lines {
            #expect(DisplayWidth.of(line) < 40, "\(line)")
            #expect(line.contains("%"), "\(line)")
            #expect(line.contains("Fetching"), "\(line)")
        }
        #expect(terminal.transcript.filter { $0.hasPrefix("✔ Fetching part") }.count == 2)
    }

    @Test func barsFallBackToAsciiOutsideUTF8Locales() {
        #expect(InteractiveOverlay.localeIsUTF8(["LANG": "en_US.UTF-8"]))
        #expect(InteractiveOverlay.localeIsUTF8(["LC_ALL": "C.utf8", "LANG": "C"]))
        #expect(!InteractiveOverlay.localeIsUTF8(["LC_ALL": "C"]))
        #expect(!InteractiveOverlay.localeIsUTF8(["LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"]))
        #expect(InteractiveOverlay.localeIsUTF8([:]))
        let row = ProgressText.row(WaitAlertProgress(completed: 1, total: 4), room: 40, barWidth: 8, unicode: false)
        #expect(row == " [##------] 25% · 1/4", "\(row)")
    }
}

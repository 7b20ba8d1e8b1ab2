import Testing
import WaitAlertTesting

@testable import WaitAlert

/// No progress value a caller can pass crashes the program: sums and counts saturate, durations
/// are clamped, and texts of huge values are plain numbers.
@Suite("Extreme progress values")
@MainActor
struct ExtremeProgressTests {
    /// `advance` past `Int.max` (or below `Int.min`) saturates instead of wrapping around.
    @Test func advanceAndTotalBySaturate() {
        let mailbox = ReportMailbox()
        mailbox.progress(completed: .max - 1, total: nil, unit: nil)
        mailbox.advance(by: 10, growingTotalBy: 0)
        #expect(mailbox.drain(byWake: false).progress?.completed == .max)
        mailbox.progress(completed: 1, total: .max - 1, unit: .bytes)
        mailbox.advance(by: 1, growingTotalBy: .max)
        let grown = mailbox.drain(byWake: false).progress
        #expect(grown?.completed == 2 && grown?.total == .max && grown?.unit == .bytes)
        mailbox.progress(completed: .min + 1, total: .min + 1, unit: nil)
        mailbox.advance(by: -10, growingTotalBy: -10)
        let low = mailbox.drain(byWake: false).progress
        #expect(low?.completed == .min && low?.total == .min)
    }

    /// A huge count, then a report 400 s later: the time left is long, not a crash; so is a gap
    /// of 10²⁰ seconds between two reports.
    @Test func theEstimatorClampsWhatItComputes() throws {
        var estimator = WaitAlertRateEstimator()
        estimator.record(completed: 1e17, at: .zero)
        estimator.record(completed: 1e17 + 16, at: .seconds(400))
        let estimate = estimator.estimate(total: Double(Int.max), at: .seconds(400))
        guard case .about(let left) = estimate.remaining else {
            Issue.record("\(estimate)")
            return
        }
        #expect(left > .seconds(3600 * 24 * 365) && left <= WaitAlertTiming.longestDuration)
        #expect(ProgressText.remaining(left) == ">1h")

        var far = WaitAlertRateEstimator()
        far.record(completed: 0, at: .zero)
        far.record(completed: 1, at: .seconds(1e20))
        far.record(completed: 2, at: .seconds(1.5e20))
        #expect(far.stallsAt != nil)
        #expect(far.estimate(total: 10, at: .seconds(1.6e20)).rate != nil)
    }

    @Test func textsOfHugeValues() {
        let huge = WaitAlertProgress(completed: .max, rate: 9.3e18)
        #expect(ProgressText.rate(huge) == "9223372036854775807/s")
        #expect(ProgressText.rate(WaitAlertProgress(completed: 1, unit: .named("files"), rate: 1e300)) != nil)
        #expect(ProgressText.rate(WaitAlertProgress(completed: 1, unit: .bytes, rate: 1e300)) == "9.2 EB/s")
        #expect(ProgressText.decimal(1e300) == "9223372036854775807")
        #expect(ProgressText.decimal(-1e300) == "0.0" && ProgressText.decimal(.nan) == "0.0")
        #expect(ProgressText.remaining(Duration(attoseconds: .max)) == ">1h")
        #expect(ProgressText.bytes(.min, unit: .bytes) == "0 B")
        #expect(
            ProgressText.bytes(.max, unit: .bytes) == "9.2 EB"
                && ProgressText.bytes(.max, unit: .binaryBytes) == "8.0 EiB")
    }

    /// `Int.max` units without a total, in a terminal: the count and its rate, as numbers.
    @Test func aCountOfIntMaxWithoutATotal() async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 10)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
        let work = bed.start {
            try await withWaitAlert("Counting", presenter: bed.presenter) { alert in
                alert.progress(completed: 0, total: nil)
                try await bed.clock.sleep(for: .milliseconds(600))
                alert.progress(completed: .max, total: nil)
                try await bed.clock.sleep(for: .seconds(3))
            }
        }
        await bed.advance(to: .seconds(2))
        let row = try #require(terminal.lines.first { $0.contains("Counting") }, "\(terminal)")
        #expect(row.hasSuffix("Counting 9223372036854775807 · 9223372036854775807/s"), "\(row)")
        try await bed.run(until: work)
    }

    /// Two child tasks of totals `Int.max` and 1: the group's sum does not overflow, in a terminal
    /// and on a pipe.
    @Test(arguments: [true, false])
    func childTasksOfTotalIntMax(interactive: Bool) async throws {
        let terminal = InMemoryTerminal(columns: 100, rows: 10, isInteractive: interactive)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none, taskbar: .on)])
        let work = bed.start {
            try await withWaitAlert("Summing", presenter: bed.presenter) { group in
                try await group.tasks(for: [Int.max, 1], title: { "total \($0)" }) { total, row in
                    row.progress(completed: 0, total: total)
                    for _ in 0..<10 {
                        try await bed.clock.sleep(for: .milliseconds(200))
                        row.advance(by: total / 10 + 1)
                    }
                }
            }
        }
        await bed.advance(to: .seconds(1))
        let group = try #require(bed.presenter.alerts.first?.snapshot.groupProgress)
        #expect(group.units?.total == .max && group.fraction > 0 && group.fraction < 1, "\(group)")
        try await bed.run(until: work)
        await bed.run()
        #expect(terminal.transcript.last?.hasPrefix("✔ Summing") == true, "\(terminal)")
    }
}

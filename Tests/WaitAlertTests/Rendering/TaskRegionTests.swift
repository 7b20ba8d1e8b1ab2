import Testing
import WaitAlertTesting

@testable import WaitAlert

/// What a terminal region does with child tasks: planned and skipped steps, record lines in the
/// order tasks ended, retention, the group header, the failure recap, frames that wake only what
/// is on screen, and plain lines when the output is not a terminal.
@Suite("Task region behaviour")
@MainActor
struct TaskRegionTests {
    struct Failed: Error, CustomStringConvertible {
        var description: String { "exit code 1" }
    }

    /// A test bed drawing on an in-memory terminal of `columns` × `rows`.
    static func bed(columns: Int = 80, rows: Int = 24, interactive: Bool = true, failureLogLines: Int = 5)
        -> (WaitAlertTestBed, InMemoryTerminal)
    {
        let terminal = InMemoryTerminal(columns: columns, rows: rows, isInteractive: interactive)
        let overlay = TerminalOverlay(
            terminal: terminal, colors: .never, integration: .none, failureLogLines: failureLogLines)
        return (WaitAlertTestBed(timing: .terminal, renderers: [overlay]), terminal)
    }

    static func index(of prefix: String, in lines: [String]) -> Int? {
        lines.firstIndex { $0.hasPrefix(prefix) }
    }

    @Test func plannedStepsShowAsPendingAndTheOnesThatNeverRanAreListed() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Deploying", presenter: bed.presenter) { deploy in
                await deploy.plan(["Building", "Uploading", "Testing"])
                try await deploy.step("Building") { _ in try await bed.clock.sleep(for: .seconds(2)) }
                await deploy.skipStep("Testing", reason: "no test target")
            }
        }
        await bed.advance(by: .seconds(1))
        #expect(terminal.lines.contains { $0.contains("○ Uploading") }, "\(terminal)")
        #expect(terminal.lines.contains { $0.contains("○ Testing") })
        #expect(!terminal.lines.contains { $0.contains("○ Building") }, "the running step took its pending row")
        #expect(terminal.lines.first { $0.contains("Deploying") }?.contains("0/3") == true, "\(terminal)")
        try await bed.run(until: work)
        await bed.run()
        let transcript = terminal.transcript
        let skipped = try #require(Self.index(of: "↷ Testing: skipped (no test target)", in: transcript), "\(terminal)")
        let notRun = try #require(Self.index(of: "○ Uploading: not run", in: transcript))
        let done = try #require(Self.index(of: "✔ Deploying", in: transcript))
        #expect(skipped < notRun && notRun < done)
        #expect(transcript.filter { $0.contains("Testing") }.count == 1, "the skipped step is recorded once")
        #expect(!transcript.contains { $0.hasPrefix("○ Building") })
    }

    /// A planned step that has begun but not shown yet (within its grace) counts once in the
    /// header, as planned.
    @Test func aStepWithinItsGraceCountsOnce() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Deploying", presenter: bed.presenter) { deploy in
                await deploy.plan(["Building", "Uploading"])
                try await deploy.step("Building") { _ in try await bed.clock.sleep(for: .seconds(1)) }
                try await deploy.step("Uploading") { _ in try await bed.clock.sleep(for: .seconds(2)) }
            }
        }
        for instant in [Duration.milliseconds(900), .milliseconds(1_200), .milliseconds(1_600)] {
            await bed.advance(to: instant)
            let header = terminal.lines.first { $0.contains("Deploying") }
            #expect(header?.contains(" · \(instant < .seconds(1) ? 0 : 1)/2") == true, "\(instant): \(terminal)")
        }
        try await bed.run(until: work)
    }

    @Test func recordLinesComeOnceInTheOrderTheTasksEnded() async throws {
        let (bed, terminal) = Self.bed()
        let durations = ["Alpha": 5, "Bravo": 2, "Charlie": 3, "Delta": 1]
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: durations.keys.sorted(), title: { "Compiling \($0)" }) { name, _ in
                    try await bed.clock.sleep(for: .seconds(durations[name]!))
                }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let records = terminal.transcript.filter { $0.hasPrefix("✔ ") }
        #expect(
            records == [
                "✔ Compiling Delta (1.0s)", "✔ Compiling Bravo (2.0s)", "✔ Compiling Charlie (3.0s)",
                "✔ Compiling Alpha (5.0s)", "✔ Building (5.0s)",
            ], "\(terminal)")
        #expect(terminal.isCursorVisible)
    }

    @Test func aFinishedRowBecomesARecordOnceItsFinalMessageHasBeenRead() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                async let quick: Void = build.task("Compiling Quick") { _ in
                    try await bed.clock.sleep(for: .seconds(1))
                }
                try await bed.clock.sleep(for: .seconds(10))
                try await quick
            }
        }
        await bed.advance(to: .milliseconds(1050))
        let row = terminal.lines.last { $0.contains("Compiling Quick") }
        #expect(row?.hasPrefix("  ✔ Compiling Quick") == true, "its final shows, indented under its group")
        #expect(!terminal.scrollback.contains { $0.contains("Compiling Quick") })
        await bed.advance(to: .seconds(6))
        let records = terminal.transcript.filter { $0.hasPrefix("✔ Compiling Quick") }
        #expect(records.count == 1, "\(terminal)")
        let region = terminal.lines.drop { !$0.contains("Building") }
        #expect(!region.contains { $0.contains("Quick") }, "its row was freed:\n\(terminal)")
        try await bed.run(until: work)
    }

    @Test func keptRowsStayInTheRegionUntilTheGroupEnds() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.task("Compiling Kept", retention: .keepUntilGroupEnds) { _ in
                    try await bed.clock.sleep(for: .seconds(1))
                }
                try await bed.clock.sleep(for: .seconds(10))
            }
        }
        await bed.advance(to: .seconds(8))
        let kept = terminal.lines.filter { $0.contains("Compiling Kept") }
        #expect(kept.count == 1 && kept[0].hasPrefix("  ✔"), "\(terminal)")
        try await bed.run(until: work)
        await bed.run()
        let transcript = terminal.transcript
        #expect(transcript.filter { $0.hasPrefix("✔ Compiling Kept") }.count == 1, "\(terminal)")
        #expect(Self.index(of: "✔ Compiling Kept", in: transcript)! < Self.index(of: "✔ Building", in: transcript)!)
    }

    /// Work that goes on past its alert's timeout begins a child task once the alert is gone: the
    /// group has ended, so the task is recorded as it ends, as one that ends while the ended
    /// group's alert is still there — a row kept until its group ends does not stay in the region
    /// until the program's work is over, and its record line is printed once.
    @Test(arguments: [WaitAlertRowRetention.keepUntilGroupEnds, .record])
    func aTaskThatEndsAfterItsGroupIsGoneIsRecordedAtOnce(retention: WaitAlertRowRetention) async throws {
        let (bed, terminal) = Self.bed()
        let clock = bed.clock
        let work = bed.start {
            try await withWaitAlert("Building", timeout: .seconds(2), presenter: bed.presenter) { build in
                // Sleeps the timeout does not cancel.
                await Task { try? await clock.sleep(for: .seconds(8)) }.value
                try await build.task("Linking", retention: retention) { _ in
                    await Task { try? await clock.sleep(for: .seconds(1)) }.value
                }
            }
        }
        await bed.advance(to: .milliseconds(8_500))
        #expect(terminal.lines.contains { $0.hasPrefix("  ⠋ Linking") }, "it runs under its ended group: \(terminal)")
        await bed.advance(to: .milliseconds(9_100))
        #expect(!terminal.lines.contains { $0.hasPrefix("  ✔ Linking") }, "its row is freed: \(terminal)")
        #expect(terminal.transcript.filter { $0 == "✔ Linking (1.0s)" }.count == 1, "\(terminal)")
        await #expect(throws: WaitAlertTimeoutError.self) { try await bed.run(until: work) }
        await bed.run()
        #expect(terminal.transcript.filter { $0.hasPrefix("✔ Linking") }.count == 1, "\(terminal)")
    }

    @Test func transientRowsLeaveOnlyWhatWentWrong() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(
                    for: ["A", "B", "C"], policy: .keepGoing, retention: .transient, title: { "Compiling \($0)" }
                ) { name, _ in
                    try await bed.clock.sleep(for: .seconds(2))
                    if name == "B" { throw Failed() }
                }
            }
        }
        await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: work) }
        await bed.run()
        let transcript = terminal.transcript
        #expect(!transcript.contains { $0.hasPrefix("✔ Compiling") }, "\(terminal)")
        #expect(transcript.filter { $0.hasPrefix("✖ Compiling B: exit code 1") }.count == 1)
        #expect(transcript.contains { $0.hasPrefix("✖ Building") })
    }

    @Test func theHeaderCountsTheGroupAndRowsShowHowLongTheyRan() async throws {
        let (bed, terminal) = Self.bed()
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(1...5), policy: .keepGoing, title: { "Compiling M\($0)" }) {
                    index, _ in
                    try await bed.clock.sleep(for: .seconds(index == 1 ? 1 : index * 10))
                    if index == 1 { throw Failed() }
                }
            }
        }
        await bed.advance(to: .milliseconds(23_100))
        let header = try #require(terminal.lines.first { $0.contains("Building") }, "\(terminal)")
        #expect(header.hasSuffix("Building · 2/5 · 1 failed · 23s"), "\(header)")
        let row = try #require(terminal.lines.first { $0.contains("Compiling M3") })
        #expect(row.hasSuffix("Compiling M3 · 23s"), "\(row)")
        await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: work) }
        await bed.run()
    }

    @Test func aFailedTasksLastLogLinesAreRecappedWhenTheGroupEnds() async throws {
        let (bed, terminal) = Self.bed(failureLogLines: 3)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: ["Core", "UI"], policy: .keepGoing, title: { "Compiling \($0)" }) {
                    name, row in
                    for line in 1...6 { row.log("\(name) line \(line)") }
                    try await bed.clock.sleep(for: .seconds(name == "Core" ? 1 : 3))
                    if name == "Core" { throw Failed() }
                }
            }
        }
        await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: work) }
        await bed.run()
        let transcript = terminal.transcript
        let heading = try #require(
            Self.index(of: "Compiling Core: exit code 1 — last log lines:", in: transcript), "\(terminal)")
        #expect(
            Array(transcript[(heading + 1)...(heading + 3)]) == [
                "    Core line 4", "    Core line 5", "    Core line 6",
            ])
        #expect(heading > Self.index(of: "✔ Compiling UI", in: transcript)!, "after the group's records")
        #expect(heading < Self.index(of: "✖ Building", in: transcript)!, "before the group's own line")
        #expect(!transcript.contains { $0.hasPrefix("Compiling UI") }, "only failed tasks are recapped")
    }

    @Test func aCountAtTheEndOfACutRowSurvives() async throws {
        let (bed, terminal) = Self.bed(columns: 36)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.task("Compiling") { row in
                    row.update("Compiling AVeryLongModuleNameIndeed: 12/40")
                    try await bed.clock.sleep(for: .seconds(3))
                }
            }
        }
        await bed.advance(to: .milliseconds(700))
        let row = try #require(terminal.lines.first { $0.contains("Compiling") && !$0.contains("Building") })
        #expect(row.hasSuffix("… 12/40"), "\(row)")
        #expect(DisplayWidth.of(row) < 36)
        try await bed.run(until: work)
    }

    /// Rows the region leaves out are not woken for spinner frames: wake-ups follow what is on
    /// screen, not what runs.
    @Test func rowsLeftOutAreNotWokenForFrames() async throws {
        let (bed, terminal) = Self.bed(rows: 8)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<30), title: { "Compiling M\($0)" }) { _, _ in
                    try await bed.clock.sleep(for: .seconds(20))
                }
            }
        }
        await bed.advance(to: .seconds(1))
        let children = try #require(bed.presenter.alerts.first?.children)
        #expect(terminal.lines.filter { !$0.isEmpty }.count == 7, "the header, 5 rows, the summary:\n\(terminal)")
        let before = children.map { bed.presenter.wakeUps(of: $0.id) ?? 0 }
        await bed.advance(to: .seconds(11))
        let woken = zip(children, before).map { (bed.presenter.wakeUps(of: $0.id) ?? 0) - $1 }
        #expect(woken.prefix(5).allSatisfy { $0 >= 100 }, "shown rows spin: \(woken)")
        #expect(woken.suffix(20).allSatisfy { $0 <= 12 }, "rows left out wake about once a second at most: \(woken)")
        try await bed.run(until: work)
    }

    /// The summary line counts the rows left out, also while left-out rows end one after another
    /// (the layout is not made again for them).
    @Test func theSummaryCountsWhatIsLeftOut() async throws {
        let (bed, terminal) = Self.bed(rows: 8)
        let ends = (0..<40).map { 3_000 + ($0 * 7919) % 9_000 }
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<40), title: { "Compiling M\($0)" }) { index, _ in
                    try await bed.clock.sleep(for: .milliseconds(ends[index]))
                }
            }
        }
        for second in stride(from: 2, through: 11, by: 1) {
            // A child row's change is drawn within a frame (80 ms): look 100 ms after the last end.
            var check = second * 1000
            while let last = ends.filter({ $0 <= check }).max(), check - last < 100 { check = last + 100 }
            await bed.advance(to: .milliseconds(check))
            let children = try #require(bed.presenter.alerts.first?.children)
            let running = children.filter { $0.snapshot.outcome == nil }.count
            let region = terminal.lines.filter { !$0.isEmpty }.suffix(7)
            let shownRunning = region.filter { $0.hasPrefix("  ") && !$0.contains("✔") }.count
            let summary = try #require(region.last { $0.hasPrefix("… ") }, "\(terminal)")
            let hiddenRunning = Int(summary.dropFirst(2).prefix { $0.isNumber }) ?? 0
            #expect(
                shownRunning + (summary.contains("more running") ? hiddenRunning : 0) == running,
                "\(second) s: \(summary)\n\(terminal)")
        }
        try await bed.run(until: work)
    }

    /// Every batch of changes is one write, whatever the number of rows that changed.
    @Test func eachFrameIsOneWrite() async throws {
        let (bed, terminal) = Self.bed(rows: 50)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<20), title: { "Compiling M\($0)" }) { index, row in
                    // Rows that begin at scattered instants.
                    try await bed.clock.sleep(for: .milliseconds(index * 37))
                    try await row.task("Linking M\(index)") { _ in try await bed.clock.sleep(for: .seconds(8)) }
                }
            }
        }
        await bed.advance(to: .seconds(2))
        terminal.resetCounters()
        await bed.advance(to: .seconds(4))
        // 41 rows spin on screen; one frame every 80 ms, each one write.
        #expect(terminal.lines.filter { $0.contains("Linking") }.count == 20, "\(terminal)")
        #expect(terminal.lines.filter { !$0.isEmpty }.count == 41)
        #expect(terminal.writeCount <= 26, "\(terminal.writeCount) writes in 2 s")
        #expect(terminal.writeCount >= 24)
        try await bed.run(until: work)
    }

    /// Rows below the first are reached and left with a saved cursor, never by counting rows back
    /// up (a window made shorter meanwhile, which may delete the rows below the cursor, would send
    /// the cursor above the region, over record lines); and the region is never erased with an
    /// erase-below from its first row (at the top-left corner tmux takes that for a clear screen
    /// and copies the screen into its history).
    @Test func framesNeverCountBackUpNorEraseFromTheFirstRow() async throws {
        let (bed, terminal) = Self.bed(rows: 12)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<20), title: { "Compiling M\($0)" }) { index, row in
                    try await bed.clock.sleep(for: .milliseconds(700 + index * 300))
                    row.update("Compiling M\(index): 2/3 files")
                    try await bed.clock.sleep(for: .seconds(1))
                }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let output = terminal.output
        let saves = output.ranges(of: [0x1B, 0x37])
        #expect(saves.count > 20, "rows below the first were drawn")
        for save in saves {
            let rest = output[save.upperBound...]
            let leg = rest[..<(rest.firstRange(of: [0x1B, 0x38])?.lowerBound ?? rest.endIndex)]
            #expect(!Self.movesUp(leg), "no cursor-up between save and restore")
        }
        for erase in output.ranges(of: [0x1B, 0x5B, 0x4A]) {  // CSI J
            #expect(
                output[..<erase.lowerBound].suffix(3).elementsEqual([0x1B, 0x5B, 0x42]), "only from the second row")
        }
        #expect(terminal.transcript.filter { $0.hasPrefix("✔ Compiling M") }.count == 20)
    }

    /// A frame that changes several lines is one synchronized update (`CSI ?2026h … CSI ?2026l`),
    /// so a terminal that supports it never shows a half-drawn region; a frame that turns one
    /// spinner is not; every block is closed.
    @Test func framesOfSeveralLinesAreSynchronized() async throws {
        let (bed, terminal) = Self.bed(rows: 12)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<6), title: { "Compiling M\($0)" }) { index, _ in
                    try await bed.clock.sleep(for: .milliseconds(900 + index * 400))
                }
            }
        }
        await bed.advance(to: .milliseconds(700))
        let before = terminal.synchronizedUpdates
        #expect(before >= 1, "the region's first frame")
        terminal.resetCounters()
        await bed.advance(to: .milliseconds(780))
        #expect(terminal.synchronizedUpdates == before + 1, "seven spinners turning: one update")
        try await bed.run(until: work)
        await bed.run()
        #expect(!terminal.isInSynchronizedUpdate)

        let single = InMemoryTerminal()
        let alone = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: single, colors: .never, integration: .none)])
        let one = alone.start {
            try await withWaitAlert("Alone", presenter: alone.presenter) { _ in
                try await alone.clock.sleep(for: .seconds(2))
            }
        }
        try await alone.run(until: one)
        await alone.run()
        #expect(single.synchronizedUpdates == 0, "one line at a time needs none")
    }

    /// Whether `bytes` hold a cursor-up (`CSI n A`).
    static func movesUp(_ bytes: ArraySlice<UInt8>) -> Bool {
        for start in bytes.ranges(of: [0x1B, 0x5B]) {
            let parameters = bytes[start.upperBound...].prefix { (0x30...0x39).contains($0) }
            if parameters.endIndex < bytes.endIndex, bytes[parameters.endIndex] == 0x41 { return true }
        }
        return false
    }

    // MARK: - Plain lines

    @Test func plainLinesSayWhenATaskStartsAndEndsAndNothingElse() async throws {
        let (bed, terminal) = Self.bed(interactive: false)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: ["Core", "UI", "Quick"], policy: .keepGoing, title: { "Compiling \($0)" }) {
                    name, row in
                    if name == "Quick" { return }
                    for step in 1...20 {
                        row.update("Compiling \(name): \(step)/20")
                        try await bed.clock.sleep(for: .milliseconds(100))
                    }
                    row.log("\(name) warning")
                    if name == "UI" { throw Failed() }
                }
            }
        }
        await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: work) }
        await bed.run()
        #expect(!terminal.output.contains(0x1B), "not one escape byte")
        let lines = terminal.transcript.filter { !$0.isEmpty }
        #expect(
            lines == [
                "Building",
                "▸ Compiling Core",
                "▸ Compiling UI",
                "Core warning",
                "✔ Compiling Core (2.0s)",
                "UI warning",
                "✖ Compiling UI: exit code 1",
                "Compiling UI: exit code 1 — last log lines:",
                "    UI warning",
                "✖ Building: 1 task failed: Compiling UI (exit code 1)",
            ], "\(lines)")
    }

    @Test func aLongTaskGetsAHeartbeatLineWhenNothingElseIsPrinted() async throws {
        let (bed, terminal) = Self.bed(interactive: false)
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.task("Linking") { _ in try await bed.clock.sleep(for: .seconds(75)) }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let beats = terminal.transcript.filter { $0.hasPrefix("… still running") }
        #expect(
            beats == [
                "… still running: Building (30s), Linking (30s)", "… still running: Building (1m00s), Linking (1m00s)",
            ], "\(terminal)")
    }
}

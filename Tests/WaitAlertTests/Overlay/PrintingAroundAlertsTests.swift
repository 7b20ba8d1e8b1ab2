import Testing
import WaitAlert
import WaitAlertTesting

/// Lines printed around the alerts and suspended alerts, on the screen of an in-memory terminal.
@Suite("Printing around alerts")
@MainActor
struct PrintingAroundAlertsTests {
    let terminal: InMemoryTerminal
    let bed: WaitAlertTestBed

    init() {
        terminal = InMemoryTerminal(columns: 40, rows: 10)
        bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
    }

    /// A line printed through the presenter goes above the alert, which stays whole under it.
    @Test func aPrintedLineGoesAboveTheAlert() async {
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        bed.presenter.print("3 files changed\nall synced", to: .standardError)
        #expect(terminal.lines.count == 3)
        #expect(terminal.lines.prefix(2) == ["3 files changed", "all synced"])
        #expect(terminal.lines.last?.hasSuffix(" Working") == true, "\(terminal)")
        alert.succeed("Done")
        await bed.run()
        #expect(terminal.lines == ["3 files changed", "all synced", "✔ Done (1.0s)"])
        #expect(terminal.unknownSequences.isEmpty)
    }

    /// A line printed after child tasks ended comes after their record lines, although their
    /// final lines were still waiting out their reading time in the region: lines above the
    /// region keep the order things happened in.
    @Test func aLinePrintedAfterTasksEndedComesAfterTheirRecordLines() async throws {
        let work = bed.start {
            try await withWaitAlert("Hashing") { alert in
                _ = try await alert.tasks(for: [1, 2]) {
                    "File \($0)"
                } operation: { _, _ in
                    try await bed.clock.sleep(for: .seconds(1))
                }
                await WaitAlertPresenter.current.print("hashed 2 files", to: .standardError)
                alert.log("a log line after them")
                try await bed.clock.sleep(for: .seconds(2))
            }
        }
        await bed.advance(to: .milliseconds(1100))
        let lines = terminal.lines
        let printed = try #require(lines.firstIndex(of: "hashed 2 files"), "\(terminal)")
        for file in ["File 1", "File 2"] {
            let record = try #require(lines.firstIndex { $0.hasPrefix("✔ \(file) (") }, "\(terminal)")
            #expect(record < printed, "\(terminal)")
        }
        #expect(lines.firstIndex(of: "a log line after them") == printed + 1, "\(terminal)")
        try await bed.run(until: work)
        await bed.run()
        #expect(terminal.lines.filter { $0.hasPrefix("✔ File") }.count == 2, "each record once\n\(terminal)")
    }

    /// Escape sequences in a printed line never reach the screen (colours are off here).
    @Test func aPrintedLineIsSanitized() async {
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        bed.presenter.print("evil\u{1B}[2J\u{1B}]0;title\u{07} text", to: .standardError)
        #expect(terminal.lines.first == "evil text")
        alert.dismiss()
        await bed.run()
    }

    /// While suspended nothing is drawn; the alert comes back after, with what was reported.
    @Test func suspendedAlertsComeBackWithWhatWasReported() async {
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        #expect(terminal.lines.count == 1)
        let answer = await bed.presenter.withAlertsSuspended {
            #expect(terminal.lines.isEmpty, "the region is cleared\n\(terminal)")
            #expect(terminal.isCursorVisible)
            alert.update("Still working")
            await bed.advance(by: .seconds(1))
            #expect(terminal.lines.isEmpty, "nothing drawn while suspended\n\(terminal)")
            return "yes"
        }
        #expect(answer == "yes")
        await bed.settle()
        #expect(terminal.lines.count == 1)
        #expect(terminal.lines.first?.hasSuffix(" Still working") == true, "\(terminal)")
        #expect(!terminal.isCursorVisible)
        alert.dismiss()
        await bed.run()
        #expect(terminal.lines.isEmpty)
        #expect(terminal.isCursorVisible)
    }

    /// Suspensions nest: the alert comes back when the outermost ends.
    @Test func suspensionsNest() async {
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        await bed.presenter.withAlertsSuspended {
            await bed.presenter.withAlertsSuspended {}
            await bed.settle()
            #expect(terminal.lines.isEmpty, "\(terminal)")
        }
        await bed.settle()
        #expect(terminal.lines.count == 1)
        alert.dismiss()
        await bed.run()
    }

    /// A followed source that fails prints its last lines above the failure.
    @Test func aFailingSourcePrintsItsLastLines() async {
        struct SourceFailed: Error {}
        let lines = AsyncThrowingStream<String, any Error> { continuation in
            for index in 1...5 { continuation.yield("output \(index)") }
            continuation.finish(throwing: SourceFailed())
        }
        await #expect(throws: SourceFailed.self) {
            try await withWaitAlert("Running", presenter: bed.presenter) { alert in
                try await alert.follow(lines: lines, keeping: 2)
            }
        }
        await bed.run()
        #expect(terminal.lines == ["output 4", "output 5", "✖ Running: SourceFailed()"], "\(terminal)")
    }

    /// Lines kept from a source that ended print only if the alert then fails; the text follows
    /// the latest line that is not blank.
    @Test func keptLinesPrintOnlyOnFailure() async throws {
        let recorder = RecordingRenderer()
        let bed = WaitAlertTestBed(timing: .immediate, renderers: [recorder])
        let source = {
            AsyncStream<String> {
                for line in ["a", "b", "  ", "c"] { $0.yield(line) }
                $0.finish()
            }
        }
        let tail = try await withWaitAlert("Quiet", presenter: bed.presenter) { alert in
            try await alert.follow(lines: source(), keeping: 3)
        }
        #expect(tail == ["b", "  ", "c"])
        #expect(recorder.logs.isEmpty)
        #expect(recorder.texts.contains("c") && !recorder.texts.contains("  "))
        struct Failed: Error {}
        await #expect(throws: Failed.self) {
            try await withWaitAlert("Loud", presenter: bed.presenter) { alert in
                try await alert.follow(lines: source(), keeping: 2)
                throw Failed()
            }
        }
        #expect(recorder.logs == ["  ", "c"])
    }

    /// Cancelling the work while it follows an `AsyncStream` ends the stream's iteration without
    /// an error: `follow` throws `CancellationError` all the same, and the alert ends as
    /// cancelled, not done.
    @Test func cancellingWhileFollowingAStreamThrowsCancellation() async {
        let recorder = RecordingRenderer()
        let bed = WaitAlertTestBed(timing: .immediate, renderers: [recorder])
        let (lines, output) = AsyncStream.makeStream(of: String.self)
        let work = Task {
            try await withWaitAlert("Following", presenter: bed.presenter) { alert in
                try await alert.follow(lines: lines)
            }
        }
        work.cancel()
        await #expect(throws: CancellationError.self) { try await work.value }
        await bed.run()
        #expect(recorder.latest?.outcome == .cancelled)
        output.finish()
    }

    /// A sequence that goes on yielding after its task was cancelled, or ends with an error of
    /// its own: `follow` throws `CancellationError` either way.
    @Test func cancellationWinsWhateverTheSequenceDoes() async {
        struct Closed: Error {}
        let bed = WaitAlertTestBed(timing: .immediate)
        let failing = AsyncThrowingStream<String, any Error> { $0.finish(throwing: Closed()) }
        let failed = Task {
            try await withWaitAlert("Following", presenter: bed.presenter) { alert in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await alert.follow(lines: failing)
            }
        }
        await #expect(throws: CancellationError.self) { try await failed.value }
        let ended = AsyncStream<String> { $0.finish() }
        let finished = Task {
            try await withWaitAlert("Following", presenter: bed.presenter) { alert in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await alert.follow(lines: ended)
            }
        }
        await #expect(throws: CancellationError.self) { try await finished.value }
        await bed.run()
    }

    /// A line made only of escape sequences (a colour reset written alone) would show nothing: the
    /// text stays the last line that shows something.
    @Test func aLineOfOnlyEscapeSequencesLeavesTheText() async throws {
        let recorder = RecordingRenderer()
        let bed = WaitAlertTestBed(timing: .immediate, renderers: [recorder])
        let source = AsyncStream<String> {
            for line in ["compiling", "\u{1B}[0m", "\u{1B}]0;title\u{07}\u{1B}[K"] { $0.yield(line) }
            $0.finish()
        }
        try await withWaitAlert("Building", presenter: bed.presenter) { alert in
            try await alert.follow(lines: source)
        }
        await bed.run()
        #expect(recorder.texts.last == "compiling", "\(recorder.texts)")
    }
}

/// Colours kept in a program's own output, everything else removed.
struct KeepingColorsTests {
    @Test func colorsAreKeptAndReset() {
        #expect(TextSanitizer.keepingColors("\u{1B}[31mred\u{1B}[0m") == "\u{1B}[31mred\u{1B}[0m\u{1B}[0m")
        #expect(TextSanitizer.keepingColors("\u{1B}[1;38;5;208mbold") == "\u{1B}[1;38;5;208mbold\u{1B}[0m")
    }

    @Test func everythingElseIsRemoved() {
        #expect(TextSanitizer.keepingColors("a\u{1B}[2Jb\u{1B}[Hc\u{1B}]0;x\u{07}d\u{8}e") == "abcde")
        #expect(TextSanitizer.keepingColors("plain") == "plain")
        #expect(TextSanitizer.keepingColors("\u{1B}[31") == "", "an unfinished sequence is dropped")
    }
}

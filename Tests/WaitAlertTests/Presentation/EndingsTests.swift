import Testing
import WaitAlertTesting

@testable import WaitAlert

/// The warning and information endings: how work chooses them, what each renderer makes of them,
/// and that a failure wins over them.
@Suite("Warning and information endings")
@MainActor
struct EndingsTests {
    /// Runs work that ends with `ending` said by the work, through an overlay on an interactive
    /// terminal with colours, one on a pipe, and the event stream.
    static func run(
        _ ending: @escaping @Sendable (WaitAlertReporter) -> Void, throwing: Bool = false
    ) async throws -> (bed: WaitAlertTestBed, screen: InMemoryTerminal, pipe: InMemoryTerminal, json: InMemoryTerminal)
    {
        let screen = InMemoryTerminal(columns: 60, rows: 8)
        let pipe = InMemoryTerminal(isInteractive: false)
        let json = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [
                TerminalOverlay(terminal: screen, colors: .always, integration: .none),
                TerminalOverlay(terminal: pipe, colors: .never, integration: .none),
                EventStreamRenderer(terminal: json),
            ])
        struct Broken: Error, CustomStringConvertible {
            var description: String { "broken" }
        }
        let work = bed.start {
            try await withWaitAlert("Migrating…") { alert in
                try await bed.clock.sleep(for: .seconds(2))
                ending(alert)
                if throwing { throw Broken() }
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        return (bed, screen, pipe, json)
    }

    @Test func aWarningEndsWithItsTextAndTime() async throws {
        let (bed, screen, pipe, json) = try await Self.run { $0.warn("Migrated with 3 warnings") }
        #expect(bed.recorder.latest?.outcome == .warning("Migrated with 3 warnings"))
        #expect(screen.lines == ["⚠ Migrated with 3 warnings (2.0s)"])
        #expect(String(decoding: screen.output, as: UTF8.self).contains("\u{1B}[33m⚠ Migrated with 3 warnings"))
        #expect(pipe.lines.last == "⚠ Migrated with 3 warnings (2.0s)")
        let end = try #require(try EventStreamTests.events(json).last)
        #expect(end["outcome"] as? String == "warning" && end["text"] as? String == "Migrated with 3 warnings")
    }

    @Test func informationEndsWithItsTextInCyan() async throws {
        let (bed, screen, pipe, json) = try await Self.run { $0.inform("Nothing to do") }
        #expect(bed.recorder.latest?.outcome == .info("Nothing to do"))
        #expect(screen.lines == ["ℹ Nothing to do"])
        #expect(String(decoding: screen.output, as: UTF8.self).contains("\u{1B}[36mℹ Nothing to do"))
        #expect(pipe.lines.last == "ℹ Nothing to do")
        let end = try #require(try EventStreamTests.events(json).last)
        #expect(end["outcome"] as? String == "info" && end["text"] as? String == "Nothing to do")
    }

    @Test func aFailureWinsOverAWarning() async throws {
        let (bed, screen, _, _) = try await Self.run({ $0.warn("Migrated with 3 warnings") }, throwing: true)
        #expect(bed.recorder.latest?.outcome == .failure("Migrating: broken"))
        #expect(screen.lines == ["✖ Migrating: broken"])
    }

    @Test func theLatestWordWins() async throws {
        let (bed, _, _, _) = try await Self.run { alert in
            alert.warn("first")
            alert.inform("Already up to date")
        }
        #expect(bed.recorder.latest?.outcome == .info("Already up to date"))
    }

    @Test func aHandleEndsWithAWarningOrInformationAtOnce() async {
        let bed = WaitAlertTestBed(timing: .terminal)
        let syncing = showWaitAlert("Syncing…", presenter: bed.presenter)
        let checking = showWaitAlert("Checking…", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        syncing.warn("Synced with 2 conflicts")
        checking.inform("Already up to date")
        await bed.run()
        #expect(bed.recorder.finalText(of: syncing.model.id) == "Synced with 2 conflicts")
        #expect(syncing.model.completion?.outcome == .warning("Synced with 2 conflicts"))
        #expect(checking.model.completion?.outcome == .info("Already up to date"))
    }

    /// A group's header counts its warnings beside its failures while it runs.
    @Test func aGroupsHeaderCountsWarnings() async throws {
        let screen = InMemoryTerminal(columns: 70, rows: 10)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: screen, colors: .never, integration: .none)])
        let work = bed.start {
            try await withWaitAlert("Migrating") { alert in
                try await alert.task("Users") { $0.warn("Users: 3 rows skipped") }
                try await alert.task("Orders") { $0.warn("Orders: 1 row skipped") }
                try await alert.task("Index") { _ in try await bed.clock.sleep(for: .seconds(5)) }
            }
        }
        await bed.advance(to: .seconds(2))
        let header = try #require(screen.lines.first { $0.contains("Migrating") }, "\(screen.lines)")
        #expect(header.contains(" · 2/3 · 2 warnings"), "\(header)")
        try await bed.run(until: work)
        await bed.run()
    }

    /// Child tasks that end within their grace delay leave a record when they have something to
    /// say — a warning, information — and none when they simply succeed.
    @Test func quickTasksWithSomethingToSayLeaveRecords() async throws {
        let screen = InMemoryTerminal(columns: 60, rows: 10)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: screen, colors: .never, integration: .none)])
        screen.checkInvariants()
        let work = bed.start {
            try await withWaitAlert("Building…", success: "Built") { alert in
                try await alert.task("Lint") { $0.warn("Lint: 2 warnings") }
                try await alert.task("Docs") { $0.inform("Docs: nothing to do") }
                try await alert.task("Core") { _ in }
                try await bed.clock.sleep(for: .seconds(1))
            }
        }
        try await bed.run(until: work)
        await bed.run()
        screen.markEnd()
        let lines = screen.committedLines
        #expect(lines.contains { $0.hasPrefix("⚠ Lint: 2 warnings (") }, "\(lines)")
        #expect(lines.contains("ℹ Docs: nothing to do"), "\(lines)")
        #expect(!lines.contains { $0.contains("Core") }, "\(lines)")
        #expect(lines.last?.hasPrefix("✔ Built (") == true, "\(lines)")
    }

    /// An empty warning or information — an `info` event without a text — says the alert's name
    /// rather than nothing.
    @Test func anEmptyWordFallsBackToTheName() {
        #expect(WaitAlertOutcome.info("").finalText(title: "Syncing…", workDuration: .seconds(1)) == "Syncing")
        #expect(WaitAlertOutcome.warning("").finalText(title: "Syncing…", workDuration: .seconds(1)) == "Syncing")
        #expect(WaitAlertOutcome.info("Up to date").finalText(title: "Syncing…", workDuration: .zero) == "Up to date")
    }

    /// The event stream's outcomes read back, as a recording or a child process sends them.
    @Test func warningAndInformationReadBack() throws {
        let warning = try #require(
            WaitAlertEvent.received(#"{"v":1,"event":"end","id":1,"outcome":"warning","text":"3 warnings"}"#))
        #expect(warning.kind == .end(outcome: .warning("3 warnings"), text: "3 warnings", elapsed: .zero))
        let info = try #require(
            WaitAlertEvent.received(#"{"v":1,"event":"end","id":1,"outcome":"info","text":"Nothing to do"}"#))
        #expect(info.kind == .end(outcome: .info("Nothing to do"), text: "Nothing to do", elapsed: .zero))
    }
}

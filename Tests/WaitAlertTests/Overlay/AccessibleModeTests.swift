import Testing
import WaitAlertTesting

@testable import WaitAlert

/// The accessible mode: lines without motion on an interactive terminal, paced for a listener.
@Suite("Accessible mode")
@MainActor
struct AccessibleModeTests {
    @Test func theEnvironmentChoosesIt() {
        func mode(_ variables: [String: String]) -> TerminalOverlay.Mode {
            TerminalOverlay.Mode.chosen(by: variables).mode
        }
        #expect(mode([:]) == .auto)
        #expect(mode(["ACCESSIBLE": "1"]) == .accessible)
        #expect(mode(["ACCESSIBLE": "true"]) == .accessible)
        #expect(mode(["ACCESSIBLE": "0"]) == .auto)
        #expect(mode(["ACCESSIBLE": ""]) == .auto)
        #expect(mode(["WAIT_ALERT_PROGRESS": "accessible"]) == .accessible)
        #expect(mode(["WAIT_ALERT_PROGRESS": "Accessible"]) == .accessible)
        #expect(mode(["WAIT_ALERT_PROGRESS": "auto", "ACCESSIBLE": "1"]) == .accessible, "auto gives way")
        #expect(mode(["WAIT_ALERT_PROGRESS": "json", "ACCESSIBLE": "1"]) == .json, "a named mode wins")
        let unknown = TerminalOverlay.Mode.chosen(by: ["WAIT_ALERT_PROGRESS": "fancy", "ACCESSIBLE": "yes"])
        #expect(unknown.mode == .accessible && unknown.unknown == "fancy")
        #expect(TerminalOverlay.Mode.chosen(by: ["WAIT_ALERT_PROGRESS": "plain"]).unknown == nil)
    }

    /// Work that changes its text every half second and reports progress by the percent for
    /// 12 s, on an interactive terminal: no escape byte without colours, a text line at most
    /// every 3 s (the latest), progress at the quarters only, the final line.
    @Test func linesArePacedForAListener() async throws {
        let terminal = InMemoryTerminal(columns: 60, rows: 10)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none, mode: .accessible)])
        let work = bed.start {
            try await withWaitAlert("Importing…", success: "Imported 24 files") { alert in
                alert.progress(completed: 0, total: 24, unit: .named("files"))
                for file in 1...24 {
                    try await bed.clock.sleep(for: .milliseconds(500))
                    alert.update("Importing file \(file)…")
                    alert.progress(completed: file, total: 24, unit: .named("files"))
                }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        #expect(!terminal.output.contains(0x1B), "\(String(decoding: terminal.output, as: UTF8.self).debugDescription)")
        let lines = terminal.transcript.filter { !$0.isEmpty }
        let texts = lines.filter { $0.hasPrefix("Importing") && !$0.contains("%") }
        #expect(texts.count >= 4 && texts.count <= 6, "one text line per 3 s of 12: \(lines)")
        let percents = lines.compactMap { line in line.firstRange(of: "%").map { _ in line } }
        #expect(percents.count == 4, "25, 50, 75 and 100 %: \(lines)")
        #expect(
            percents.map { $0.contains("25%") || $0.contains("50%") || $0.contains("75%") || $0.contains("100%") }
                .allSatisfy { $0 }, "\(percents)")
        #expect(lines.last?.hasPrefix("✔ Imported 24 files (") == true, "\(lines)")
    }

    /// A long silence gets a line saying what still runs; final lines are coloured when colours
    /// are on, and nothing else is.
    @Test func aHeartbeatAndColouredFinalLines() async throws {
        let terminal = InMemoryTerminal(columns: 60, rows: 10)
        let bed = WaitAlertTestBed(
            timing: .terminal,
            renderers: [TerminalOverlay(terminal: terminal, colors: .always, integration: .none, mode: .accessible)])
        struct Unreachable: Error, CustomStringConvertible {
            var description: String { "host unreachable" }
        }
        let work = bed.start {
            try await withWaitAlert("Waiting for the server…") { _ in
                try await bed.clock.sleep(for: .seconds(65))
                throw Unreachable()
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        let written = String(decoding: terminal.output, as: UTF8.self)
        let escapes = written.split(separator: "\u{1B}", omittingEmptySubsequences: false).dropFirst().map {
            $0.prefix(4)
        }
        #expect(escapes.allSatisfy { $0.hasPrefix("[31m") || $0.hasPrefix("[0m") }, "\(escapes)")
        let lines = terminal.transcript.filter { !$0.isEmpty }
        #expect(lines.count { $0.hasPrefix("… still running: Waiting for the server… (") } == 2, "\(lines)")
        #expect(lines.last == "✖ Waiting for the server: host unreachable", "\(lines)")
        #expect(written.contains("\u{1B}[31m✖ Waiting for the server: host unreachable\u{1B}[0m"))
    }
}

extension AccessibleModeTests {
    /// Lines written while a question asked on the terminal waits for its line go below it, and
    /// the question is asked again after them; once it is answered, lines are plain again. (Synchronous
    /// from start to end: the question is the process's, and no other test may see it.)
    @Test func linesWhileAQuestionWaitsGoBelowIt() {
        let terminal = InMemoryTerminal(columns: 60, rows: 10)
        let renderer = LineRenderer(
            terminal: terminal, minimumInterval: .seconds(3), heartbeatInterval: .seconds(30),
            progressInterval: LineRenderer.quartersOnly, failureLogLines: 5, colors: false)
        let alert = WaitAlertID()
        _ = terminal.write(Array("? Overwrite 3 files? (y/N) ".utf8))
        StandardInputPrompt.questionOnLine = "? Overwrite 3 files? (y/N) "
        renderer.log("copied a.txt", from: alert)
        renderer.log("copied b.txt", from: alert)
        StandardInputPrompt.questionOnLine = nil
        _ = terminal.write(Array("y\n".utf8))  // the answer, as the terminal echoes it
        renderer.log("done", from: alert)
        #expect(
            terminal.lines == [
                "? Overwrite 3 files? (y/N)", "copied a.txt", "? Overwrite 3 files? (y/N)", "copied b.txt",
                "? Overwrite 3 files? (y/N) y", "done",
            ], "\(terminal.lines)")
    }
}

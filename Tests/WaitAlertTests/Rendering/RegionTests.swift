import Testing
import WaitAlert
import WaitAlertTesting

/// Many child tasks in one region: it never grows taller than the window allows, finished rows
/// become record lines above it (each exactly once), and nothing stale is left behind.
@Suite("Task region")
@MainActor
struct RegionTests {
    struct BuildError: Error, CustomStringConvertible {
        var description: String { "does not compile" }
    }

    static let spinner = Set(Spinner.brailleDots.frames.flatMap(\.unicodeScalars))

    static func spinnerLines(_ lines: [String]) -> [String] {
        lines.filter { $0.unicodeScalars.contains { spinner.contains($0) } }
    }

    @Test func fortyTasksInTwelveRows() async throws {
        let terminal = InMemoryTerminal(columns: 80, rows: 12)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<40), policy: .keepGoing, title: { "Compiling Module\($0)" }) {
                    index, row in
                    row.update("Compiling Module\(index): 1/4 files")
                    try await bed.clock.sleep(for: .milliseconds(600 + index * 173 % 2500))
                    if index == 13 { throw BuildError() }
                }
            }
        }
        var tallest = 0
        for _ in 0..<40 {
            await bed.advance(by: .milliseconds(100))
            tallest = max(
                tallest, Self.spinnerLines(terminal.lines).count + terminal.lines.filter { $0.hasPrefix("… ") }.count)
        }
        #expect(tallest <= 11, "the region fits 12 rows less one")
        #expect(tallest >= 8, "and uses them")
        await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: work) }
        await bed.run()
        let transcript = terminal.transcript
        #expect(Self.spinnerLines(transcript).isEmpty, "no stale spinner line\n\(terminal)")
        for index in 0..<40 where index != 13 {
            let records = transcript.filter { $0.hasPrefix("✔ Compiling Module\(index) ") }
            #expect(records.count == 1, "Module\(index): \(records)")
        }
        #expect(transcript.filter { $0.hasPrefix("✖ Compiling Module13: does not compile") }.count == 1)
        #expect(transcript.last?.hasPrefix("✖ Building: 1 task failed") == true, "\(terminal)")
        #expect(terminal.isCursorVisible)
    }
}

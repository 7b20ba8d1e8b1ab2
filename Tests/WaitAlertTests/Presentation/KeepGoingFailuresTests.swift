import Testing
import WaitAlertTesting

@testable import WaitAlert

/// The failures a group that kept going throws together: one line of bounded length, whatever
/// their number (each failed row already showed its own error).
@Suite("Keep-going failures")
@MainActor
struct KeepGoingFailuresTests {
    struct Unreadable: Error, CustomStringConvertible {
        var file: String
        var description: String { "\(file): permission denied" }
    }

    /// 69 files of 100 cannot be read: the final line says how many, and names the first three.
    @Test func manyFailuresEndOnOneShortLine() async throws {
        let terminal = InMemoryTerminal(columns: 80, rows: 24, isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [TerminalOverlay(terminal: terminal)])
        let files = (0..<100).map { "file\($0).txt" }
        let work = bed.start {
            try await withWaitAlert("Hashing", presenter: bed.presenter) { hashing in
                try await hashing.tasks(for: files, policy: .keepGoing, maxConcurrency: 8, title: { $0 }) { file, _ in
                    try await bed.clock.sleep(for: .milliseconds(20))
                    if let number = Int(file.dropFirst(4).prefix { $0.isNumber }), number % 10 < 7 {
                        throw Unreadable(file: file)
                    }
                }
            }
        }
        let failures = await #expect(throws: WaitAlertTaskFailures.self) { try await bed.run(until: work) }
        await bed.run()
        #expect(failures?.failures.count == 70)
        #expect(failures?.description == "70 tasks failed: file0.txt, file1.txt, file2.txt and 67 more")
        let lines = terminal.transcript.filter { !$0.isEmpty }
        #expect(lines.last == "✖ Hashing: 70 tasks failed: file0.txt, file1.txt, file2.txt and 67 more", "\(lines)")
        #expect(lines.filter { $0.hasPrefix("✖ file") }.count == 70, "every failure has its record line")
    }

    /// Up to three failures are named with their errors; an error or a title that goes on for
    /// lines and lines counts with its first line, cut.
    @Test func aFewFailuresKeepTheirErrorsBounded() {
        struct Long: Error, CustomStringConvertible {
            var description: String { String(repeating: "x", count: 500) + "\nsecond line" }
        }
        let few = WaitAlertTaskFailures(failures: [
            .init(title: "Compiling B…", error: Unreadable(file: "B")), .init(title: "Compiling C", error: Long()),
        ])
        let cut = String(repeating: "x", count: WaitAlertTaskFailures.longestPart) + "…"
        #expect(few.description == "2 tasks failed: Compiling B (B: permission denied); Compiling C (\(cut))")
        let long = String(repeating: "t", count: 1_000)
        let many = WaitAlertTaskFailures(failures: (0..<10_000).map { _ in .init(title: long, error: Long()) })
        #expect(many.description.count < 500, "\(many.description.count) characters")
        #expect(!many.description.contains("\n"))
        #expect(WaitAlertTaskFailures(failures: []).description == "0 tasks failed")
    }
}

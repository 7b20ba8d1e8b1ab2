import Testing
import WaitAlertTesting

@testable import WaitAlert

/// In a narrow window a row's own text keeps a readable share: its figures give way first, the
/// least important first (the elapsed time, the rate, the count, the time left, the bar), and
/// the percentage stays.
@Suite("Rows in a narrow window")
@MainActor
struct NarrowRowTests {
    static let text = "Worker 1: hashing /usr/share/doc/libfoo/changelog.Debian.gz"

    /// The row of a worker hashing a large file, 4 s in, at `columns`.
    static func row(columns: Int) async throws -> String {
        let terminal = InMemoryTerminal(columns: columns, rows: 10)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
        let work = bed.start {
            try await withWaitAlert("Hashing", presenter: bed.presenter) { hashing in
                try await hashing.task(text) { row in
                    row.progress(completed: 0, total: 27_600_000, unit: .bytes)
                    for _ in 0..<40 {
                        try await bed.clock.sleep(for: .milliseconds(100))
                        row.advance(by: 682_500)
                    }
                    try await bed.clock.sleep(for: .seconds(5))
                }
            }
        }
        await bed.advance(to: .seconds(4))
        let row = try #require(terminal.lines.first { $0.hasPrefix("  ") && $0.contains("Worker 1") }, "\(terminal)")
        try await bed.run(until: work)
        return row
    }

    @Test(arguments: [40, 60, 80, 100])
    func theTextKeepsAReadableShare(columns: Int) async throws {
        let row = try await Self.row(columns: columns)
        let room = columns - 1 - 2 - 2
        let kept = TaskRegion.readableTextWidth(room: room)
        #expect(row.contains(Self.text.prefix(kept - 1)), "\(kept) cells of the text: \(row)")
        #expect(row.contains("%"), "the percentage stays: \(row)")
        #expect(DisplayWidth.of(row) < columns)
    }

    /// At 60 columns: two fifths of the row for the text, then the bar, the percentage and the
    /// time left; the count gives way.
    @Test func atSixtyColumns() async throws {
        let row = try await Self.row(columns: 60)
        #expect(row.dropFirst(4).hasPrefix("Worker 1: hashing /usr/sha"), "\(row)")
        #expect(row.contains("▏ 98% · 1s left"), "\(row)")
        #expect(!row.contains(" MB / "), "the count gave way: \(row)")
    }
}

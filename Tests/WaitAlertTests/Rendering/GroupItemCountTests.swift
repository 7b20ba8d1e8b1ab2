import Testing
import WaitAlertTesting

@testable import WaitAlert

/// A group of many items counts its items, from its first frame to its last: tasks within their
/// grace delay count, and titles that repeat (a tree of files has many a `README`) do not make
/// one task take another's place.
@Suite("The item count of a group")
@MainActor
struct GroupItemCountTests {
    /// `count` files, four at a time, named after their folder's `README`, `copyright` and
    /// `changelog` in turn; most are hashed within the grace delay, every seventh takes longer.
    static func hashing(_ bed: WaitAlertTestBed, count: Int, progress: Bool) -> Task<Void, any Error> {
        let names = ["README", "copyright", "changelog"]
        return bed.start {
            try await withWaitAlert("Hashing", presenter: bed.presenter) { hashing in
                _ = try await hashing.tasks(
                    for: Array(0..<count), maxConcurrency: 4, title: { "Hashing \(names[$0 % names.count])" }
                ) { index, row in
                    if progress { row.progress(completed: 0, total: 1000, unit: .bytes) }
                    try await bed.clock.sleep(for: .milliseconds(index % 7 == 0 ? 900 : 30))
                    if progress { row.progress(completed: 1000, total: 1000, unit: .bytes) }
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func theHeaderCountsEveryItem(progress: Bool) async throws {
        let count = 120
        let terminal = InMemoryTerminal(columns: 100, rows: 12)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
        let work = Self.hashing(bed, count: count, progress: progress)
        var headers: [String] = []
        var instant = Duration.zero
        while !bed.presenter.alerts.isEmpty || instant == .zero {
            instant += .milliseconds(10)
            await bed.advance(to: instant)
            // The header is the one line with counts: `⠹ Hashing · 12/120 · 2s`.
            if let header = terminal.lines.first(where: { $0.contains(#/ · \d+\/\d+/#) }) { headers.append(header) }
            if let group = bed.presenter.alerts.first?.snapshot.groupProgress {
                #expect(group.tasks == count, "\(bed.now): \(group)")
            }
            if instant > .seconds(120) { break }
        }
        try await bed.run(until: work)
        let totals = headers.compactMap { $0.firstMatch(of: #/ · (\d+)\/(\d+)/#).flatMap { Int($0.2) } }
        #expect(totals.count > 100, "\(headers.suffix(5))")
        let wrong = headers.filter { !$0.contains("/\(count)") }
        #expect(wrong.isEmpty, "\(wrong.count) headers count other than \(count) items: \(wrong.prefix(5))")
    }
}

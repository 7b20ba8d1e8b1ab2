import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Sequences and asynchronous sequences that report their iteration's progress, and progress on
/// a fire-and-forget handle.
@Suite("Progress of a sequence")
@MainActor
struct ProgressSequenceTests {
    /// The progress `bed` shows now, as `completed/total`.
    static func shown(_ bed: WaitAlertTestBed) -> String {
        guard let progress = bed.recorder.latest?.progress else { return "none" }
        return "\(progress.completed)/\(progress.total.map(String.init) ?? "?")"
    }

    /// An element counts once the loop asks for the next: while the second is worked on, one is
    /// done; when the loop ends, all are.
    @Test func aCollectionCountsElementsDone() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Resizing…") { alert in
                var seen: [String] = []
                for picture in ["a", "b", "c", "d"].reportingProgress(to: alert) {
                    seen.append(picture)
                    try await bed.clock.sleep(for: .seconds(1))
                }
                try await bed.clock.sleep(for: .seconds(1))
                return seen
            }
        }
        await bed.advance(to: .milliseconds(1500))
        #expect(Self.shown(bed) == "1/4")
        await bed.advance(to: .milliseconds(3500))
        #expect(Self.shown(bed) == "3/4")
        await bed.advance(to: .milliseconds(4500))
        #expect(Self.shown(bed) == "4/4")
        #expect(try await bed.run(until: work) == ["a", "b", "c", "d"])
    }

    /// A sequence that is not a collection has the total given, or none; leaving the loop early
    /// counts only the elements done.
    @Test func aSequenceHasTheTotalGivenAndABreakCountsWhatWasDone() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Walking…") { alert in
                for step in sequence(first: 1, next: { $0 < 100 ? $0 + 1 : nil }).reportingProgress(to: alert) {
                    if step == 3 { break }
                }
                alert.update("Counting…")
                try await bed.clock.sleep(for: .seconds(1))
                for _ in stride(from: 0, to: 10, by: 2).reportingProgress(to: alert, total: 5) {}
                try await bed.clock.sleep(for: .seconds(1))
            }
        }
        await bed.advance(to: .milliseconds(900))
        #expect(Self.shown(bed) == "2/?")
        await bed.advance(to: .milliseconds(1900))
        #expect(Self.shown(bed) == "5/5")
        try await bed.run(until: work)
    }

    /// Bytes count as they are read, in bytes, the last ones when the sequence ends; chunks
    /// count their size; other elements count as done; what the base throws comes through.
    @Test func asyncSequencesCountBytesChunksOrElements() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        struct Cut: Error {}
        let work = bed.start {
            try await withWaitAlert("Reading…") { alert in
                let bytes = AsyncStream<UInt8> { continuation in
                    for byte in 0..<1000 { continuation.yield(UInt8(byte % 256)) }
                    continuation.finish()
                }
                var sum = 0
                for await byte in bytes.reportingProgress(to: alert, total: 1000) { sum += Int(byte) }
                let afterBytes = alert.progressSeen()
                let chunks = AsyncStream<[UInt8]> { continuation in
                    for size in [100, 200, 300] { continuation.yield([UInt8](repeating: 1, count: size)) }
                    continuation.finish()
                }
                for await _ in chunks.reportingProgress(to: alert) {}
                let afterChunks = alert.progressSeen()
                let names = AsyncThrowingStream<String, any Error> { continuation in
                    continuation.yield("a")
                    continuation.yield("b")
                    continuation.finish(throwing: Cut())
                }
                var read: [String] = []
                do {
                    for try await name in names.reportingProgress(to: alert, total: 3) { read.append(name) }
                } catch is Cut {}
                let afterNames = alert.progressSeen()
                return (sum, afterBytes, afterChunks, read, afterNames)
            }
        }
        let (sum, afterBytes, afterChunks, read, afterNames) = try await bed.run(until: work)
        #expect(sum == (0..<1000).reduce(0) { $0 + $1 % 256 })
        #expect(afterBytes == .init(completed: 1000, total: 1000, unit: .bytes))
        #expect(afterChunks == .init(completed: 600, total: nil, unit: .bytes))
        #expect(read == ["a", "b"])
        #expect(afterNames == .init(completed: 2, total: 3, unit: .count), "b was done when the next was asked for")
    }

    /// A fire-and-forget handle reports progress, and a sequence reporting to it keeps its alert
    /// while it lives, also when the handle itself is gone.
    @Test func aHandleReportsProgressAndASequenceKeepsItsAlert() async {
        let bed = WaitAlertTestBed(timing: .terminal)
        let syncing = showWaitAlert("Syncing…", presenter: bed.presenter)
        syncing.progress(completed: 3, total: 10, unit: .named("files"))
        syncing.advance(by: 2)
        await bed.advance(to: .seconds(1))
        #expect(Self.shown(bed) == "5/10")
        syncing.progressUnknown()
        await bed.advance(to: .seconds(2))
        #expect(Self.shown(bed) == "none")
        syncing.succeed()

        var files: WaitAlertProgressSequence<[Int]>? = [1, 2, 3].reportingProgress(
            to: showWaitAlert("Copying…", presenter: bed.presenter))
        let copying = bed.presenter.liveModels.last
        await bed.advance(to: .seconds(3))
        #expect(copying?.completion == nil, "the sequence keeps the alert")
        #expect(files.map { Array($0) } == [1, 2, 3])
        files = nil
        await bed.run()
        #expect(copying?.completion?.outcome == .dismissed)
    }

    /// Iterating on another thread, outside any actor, reports all the same.
    @Test func fromAnyIsolation() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Hashing…") { alert in
                try await Self.hash(Array(0..<10_000), reportingTo: alert)
            }
        }
        let total = try await bed.run(until: work)
        #expect(total == (0..<10_000).reduce(0, +))
        #expect(bed.recorder.snapshots.last { $0.progress != nil }?.progress?.completed == 10_000)
    }

    @concurrent
    nonisolated static func hash(_ numbers: [Int], reportingTo alert: WaitAlertReporter) async throws -> Int {
        var total = 0
        for number in numbers.reportingProgress(to: alert) { total += number }
        return total
    }
}

extension WaitAlertReporter {
    /// The progress the alert holds now, once every report made so far has reached it.
    fileprivate func progressSeen() -> ReportMailbox.Progress? {
        mailbox.withState { $0.progress }
    }
}

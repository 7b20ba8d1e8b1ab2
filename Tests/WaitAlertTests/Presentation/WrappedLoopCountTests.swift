import Testing
import WaitAlertTesting

@testable import WaitAlert

/// A wrapped loop counts on its own and hands its count over when the display can use it; the
/// count the alert ends with is exact however the loop ends, on whatever thread it ran.
@Suite("Wrapped loops count exactly")
@MainActor
struct WrappedLoopCountTests {
    static func shown(_ bed: WaitAlertTestBed) -> String {
        guard let progress = bed.recorder.latest?.progress else { return "none" }
        return "\(progress.completed)/\(progress.total.map(String.init) ?? "?")"
    }

    @Test func aLoopThatEndsCountsEveryElement() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Summing…") { alert in
                var total = 0
                for number in Array(0..<100_000).reportingProgress(to: alert) { total &+= number }
                return total
            }
        }
        #expect(try await bed.run(until: work) == 4_999_950_000)
        #expect(Self.shown(bed) == "100000/100000")
    }

    @Test func aLoopLeftEarlyCountsWhatWasDoneWhenTheAlertEndsRightAfter() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Searching…") { alert in
                for number in Array(0..<10_000).reportingProgress(to: alert) where number == 6_000 { break }
            }
        }
        try await bed.run(until: work)
        #expect(Self.shown(bed) == "6000/10000")
    }

    struct Stop: Error {}

    @Test func aLoopThatThrowsCountsWhatWasDone() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Checking…") { alert in
                for number in Array(0..<1_000).reportingProgress(to: alert) where number == 500 { throw Stop() }
            }
        }
        await #expect(throws: Stop.self) { try await bed.run(until: work) }
        #expect(Self.shown(bed) == "500/1000")
    }

    @Test func aLoopOnAnotherThreadCountsEveryElement() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Hashing…") { alert in
                await Task.detached {
                    var total = 0
                    for number in Array(0..<1_000_000).reportingProgress(to: alert) { total &+= number }
                    return total
                }.value
            }
        }
        #expect(try await bed.run(until: work) == 499_999_500_000)
        #expect(Self.shown(bed) == "1000000/1000000")
    }

    /// Bytes count as they are read, each one, also when the loop stops between two.
    @Test func bytesReadCountExactlyWhenTheLoopStops() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Reading…") { alert in
                for await byte in Bytes(count: 1_000).reportingProgress(to: alert, total: 1_000) where byte == 70 {
                    break
                }
            }
        }
        try await bed.run(until: work)
        #expect(Self.shown(bed) == "701/1000")
    }

    /// A loop left early hands its count over as its iterator goes away: the alert, which goes
    /// on, shows it.
    @Test func aLoopLeftEarlyShowsWhatWasDoneWhileTheAlertGoesOn() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Searching…") { alert in
                for number in Array(0..<10_000).reportingProgress(to: alert) where number == 6_000 { break }
                try await bed.clock.sleep(for: .seconds(5))
            }
        }
        await bed.advance(to: .seconds(2))
        #expect(Self.shown(bed) == "6000/10000")
        try await bed.run(until: work)
    }

    /// An asynchronous loop on a thread of its own hands its exact count over when it ends, when
    /// it is left early and when its sequence throws, before the alert ends.
    @Test func anAsynchronousLoopOnAnotherThreadCountsExactlyHoweverItEnds() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Reading…") { alert in
                try await Task.detached { try await Self.readThreeWays(alert) }.value
            }
        }
        let (toTheEnd, leftEarly, thrown) = try await bed.run(until: work)
        #expect(toTheEnd == .init(completed: 20_000, total: 20_000, unit: .count))
        #expect(leftEarly == .init(completed: 701, total: nil, unit: .bytes), "the byte read is counted")
        #expect(thrown == .init(completed: 12_000, total: nil, unit: .bytes))
    }

    /// Reads a stream of elements to its end, bytes until one, and chunks until the stream
    /// throws; returns what the alert held after each loop, before any drain.
    nonisolated static func readThreeWays(
        _ alert: WaitAlertReporter
    ) async throws -> (ReportMailbox.Progress?, ReportMailbox.Progress?, ReportMailbox.Progress?) {
        let elements = AsyncStream<Int> { continuation in
            for element in 0..<20_000 { continuation.yield(element) }
            continuation.finish()
        }
        for await _ in elements.reportingProgress(to: alert, total: 20_000) {}
        let toTheEnd = alert.handedOver()
        for await byte in Bytes(count: 1_000).reportingProgress(to: alert) where byte == 70 { break }
        let leftEarly = alert.handedOver()
        let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
            for size in [3_000, 4_000, 5_000] { continuation.yield([UInt8](repeating: 1, count: size)) }
            continuation.finish(throwing: Stop())
        }
        do {
            for try await _ in chunks.reportingProgress(to: alert) {}
        } catch is Stop {}
        return (toTheEnd, leftEarly, alert.handedOver())
    }

    /// A hand-over that finds nothing new — a loop that looked just before the drainer took its
    /// count — leaves the loop's next count handed over too: the drainer, armed for progress,
    /// shows it at once instead of at a later frame.
    @Test func aCountAfterAHandOverThatFoundNothingStillReachesTheDrainer() async {
        let bed = WaitAlertTestBed(timing: .terminal)
        let alert = showWaitAlert("Scanning…", presenter: bed.presenter)
        var items = Array(0..<100).reportingProgress(to: alert).makeIterator()
        _ = items.next()
        await bed.advance(to: .seconds(2))
        #expect(Self.shown(bed) == "0/100")
        alert.owner.mailbox.publishCounts()
        _ = items.next()
        await bed.settle()
        #expect(Self.shown(bed) == "1/100")
        while items.next() != nil {}
        alert.succeed()
        await bed.run()
        #expect(Self.shown(bed) == "100/100")
    }

    /// `count` bytes, the byte at index `i` being `i % 256`.
    struct Bytes: AsyncSequence, Sendable {
        typealias Element = UInt8
        typealias Failure = Never
        var count: Int
        func makeAsyncIterator() -> Iterator { Iterator(count: count) }
        struct Iterator: AsyncIteratorProtocol {
            var count: Int
            var index = 0
            mutating func next() async -> UInt8? {
                guard index < count else { return nil }
                defer { index += 1 }
                return index == 700 ? 70 : (index == 70 ? 71 : UInt8(truncatingIfNeeded: index % 60))
            }
        }
    }
}

extension WaitAlertReporter {
    /// The progress the alert holds now, without taking what loops have not handed over.
    fileprivate func handedOver() -> ReportMailbox.Progress? {
        mailbox.withState { $0.progress }
    }
}

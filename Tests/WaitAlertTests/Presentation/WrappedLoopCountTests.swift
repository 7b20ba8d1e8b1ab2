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

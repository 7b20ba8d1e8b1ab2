import Synchronization
import WaitAlert
import WaitAlertTesting

extension Figures {
    var iterationElements: Int { quick ? 2_000_000 : 10_000_000 }

    /// A loop reporting its progress with `reportingProgress(to:)`, next to the bare loop (held to
    /// 2 ns an element above it); the same loop calling `advance()` itself, next to the loop adding
    /// to a shared atomic counter (held to half of it: less than any count threads share); a
    /// sequence of bytes the same way; and `advance()` from four threads at once on one alert,
    /// next to `advance` with a total that grows (which takes the mailbox's lock: held to half of
    /// it) and the shared atomic counter, under the same contention.
    func iterationCost() async -> [Figure] {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: try! .terminal.with(grace: .zero))
        let numbers = Array(0..<iterationElements)
        let window = Duration.milliseconds(quick ? 200 : 500)
        let counter = SharedCounter()
        var bare = Double.infinity
        var atomic = Double.infinity
        var advancing = Double.infinity
        var wrapped = Double.infinity
        var bareBytes = Double.infinity
        var advancingBytes = Double.infinity
        var wrappedBytes = Double.infinity
        var threads = Double.infinity
        var lockedThreads = Double.infinity
        var atomicThreads = Double.infinity
        for _ in 0..<3 {  // interleaved, the best of each, against noise
            bare = min(bare, Self.perElement(numbers.count) { Self.sum(numbers) })
            atomic = min(atomic, Self.perElement(numbers.count) { Self.sumCounting(numbers, counter) })
            atomicThreads = min(
                atomicThreads, Threads.nanosecondsPerCall(threads: 4, for: window) { _ in counter.add() })
            let (manual, loop, bytes, bytesBare, bytesManual, fromThreads, locked) = try! await withWaitAlert(
                "Iterating", presenter: presenter
            ) { alert in
                let manual = Self.perElement(numbers.count) { Self.sumAdvancing(numbers, alert) }
                let loop = Self.perElement(numbers.count) { Self.sum(numbers.reportingProgress(to: alert)) }
                let bytes = await Self.perElement(numbers.count) {
                    await Self.sum(CountingBytes(count: numbers.count).reportingProgress(to: alert))
                }
                let bytesBare = await Self.perElement(numbers.count) {
                    await Self.sum(CountingBytes(count: numbers.count))
                }
                let bytesManual = await Self.perElement(numbers.count) {
                    await Self.sumAdvancing(CountingBytes(count: numbers.count), alert)
                }
                let (fromThreads, locked) = await Task.detached {
                    (
                        Threads.nanosecondsPerCall(threads: 4, for: window) { _ in alert.advance() },
                        Threads.nanosecondsPerCall(threads: 4, for: window) { _ in alert.advance(by: 1, totalBy: 1) }
                    )
                }.value
                return (manual, loop, bytes, bytesBare, bytesManual, fromThreads, locked)
            }
            advancing = min(advancing, manual)
            wrapped = min(wrapped, loop)
            wrappedBytes = min(wrappedBytes, bytes)
            bareBytes = min(bareBytes, bytesBare)
            advancingBytes = min(advancingBytes, bytesManual)
            threads = min(threads, fromThreads)
            lockedThreads = min(lockedThreads, locked)
        }
        return [
            Figure(
                name: "for x in items.reportingProgress(to:)",
                measured: "\(format(wrapped)) ns/element", baseline: "bare \(format(bare, 2)) ns",
                budget: "≤ bare + 2 ns (+\(format(wrapped - bare, 2)) ns)", passed: wrapped <= bare + 2),
            Figure(
                name: "advance() each element", measured: "\(format(advancing)) ns/element",
                baseline:
                    "bare \(format(bare, 2)) ns (+\(format(advancing - bare, 2))); atomic add \(format(atomic)) ns",
                budget: "≤ 0.5× atomic add (\(format(advancing / atomic, 2))×)", passed: advancing <= 0.5 * atomic),
            Figure(
                name: "for await byte in bytes.reportingProgress(to:)",
                measured: "\(format(wrappedBytes)) ns/byte", baseline: "bare \(format(bareBytes, 2)) ns",
                budget: "≤ bare + 2 ns (+\(format(wrappedBytes - bareBytes, 2)) ns)",
                passed: wrappedBytes <= bareBytes + 2),
            Figure(
                name: "advance() each byte", measured: "\(format(advancingBytes)) ns/byte",
                baseline:
                    "bare \(format(bareBytes, 2)) ns (+\(format(advancingBytes - bareBytes, 2))); atomic add \(format(atomic)) ns",
                budget: "≤ 0.5× atomic add (\(format(advancingBytes / atomic, 2))×)",
                passed: advancingBytes <= 0.5 * atomic),
            Figure(
                name: "advance() cost, 4 threads", measured: "\(format(threads)) ns/call",
                baseline:
                    "advance(by: 1, totalBy: 1) \(format(lockedThreads)) ns; atomic add \(format(atomicThreads)) ns",
                budget: "≤ 0.5× totalBy (\(format(threads / lockedThreads, 2))×)",
                passed: threads <= 0.5 * lockedThreads),
        ]
    }

    private static func perElement(_ count: Int, _ body: () -> Int) -> Double {
        let start = ContinuousClock.now
        blackHole(body())
        return (ContinuousClock.now - start).nanoseconds / Double(count)
    }

    private static func perElement(_ count: Int, _ body: () async -> Int) async -> Double {
        let start = ContinuousClock.now
        blackHole(await body())
        return (ContinuousClock.now - start).nanoseconds / Double(count)
    }

    @inline(never)
    nonisolated private static func sum(_ numbers: some Sequence<Int>) -> Int {
        var total = 0
        for number in numbers { total &+= number &* 31 }
        return total
    }

    /// The loop adding each element to a shared atomic counter: the least a count that threads
    /// share costs.
    @inline(never)
    nonisolated private static func sumCounting(_ numbers: [Int], _ counter: SharedCounter) -> Int {
        var total = 0
        for number in numbers {
            total &+= number &* 31
            counter.add()
        }
        return total
    }

    @inline(never)
    nonisolated private static func sumAdvancing(_ numbers: [Int], _ alert: WaitAlertReporter) -> Int {
        var total = 0
        for number in numbers {
            total &+= number &* 31
            alert.advance()
        }
        return total
    }

    @inline(never)
    nonisolated private static func sumAdvancing<Bytes: AsyncSequence<UInt8, Never>>(
        _ bytes: Bytes, _ alert: WaitAlertReporter
    ) async -> Int {
        var total = 0
        for await byte in bytes {
            total &+= Int(byte)
            alert.advance()
        }
        return total
    }

    @inline(never)
    nonisolated private static func sum<Bytes: AsyncSequence<UInt8, Never>>(_ bytes: Bytes) async -> Int {
        var total = 0
        for await byte in bytes { total &+= Int(byte) }
        return total
    }
}

/// One count shared by every thread, added to atomically: the least a count that threads share
/// costs.
final class SharedCounter: Sendable {
    private let count = Atomic<Int>(0)

    func add() {
        count.wrappingAdd(1, ordering: .relaxed)
    }
}

/// `count` bytes that never suspend: the cost of iterating alone, as of a buffered file's bytes.
struct CountingBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    typealias Failure = Never
    var count: Int

    func makeAsyncIterator() -> Iterator { Iterator(left: count) }

    struct Iterator: AsyncIteratorProtocol {
        var left: Int
        mutating func next() async -> UInt8? {
            guard left > 0 else { return nil }
            left -= 1
            return UInt8(truncatingIfNeeded: left)
        }
    }
}

@inline(never)
func blackHole(_ value: Int) {
    if value == 0x5EED_F00D { print("") }
}

import WaitAlert
import WaitAlertTesting

extension Figures {
    var iterationElements: Int { quick ? 2_000_000 : 10_000_000 }

    /// A loop reporting its progress with `reportingProgress(to:)`, next to the bare loop (the
    /// wrapper is held to 2 ns an element above it) and the same loop calling `advance()` itself;
    /// and a sequence of bytes reporting the bytes read, next to the bare one.
    func iterationCost() async -> [Figure] {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: try! .terminal.with(grace: .zero))
        let numbers = Array(0..<iterationElements)
        var bare = Double.infinity
        var advancing = Double.infinity
        var wrapped = Double.infinity
        var bareBytes = Double.infinity
        var advancingBytes = Double.infinity
        var wrappedBytes = Double.infinity
        for _ in 0..<2 {  // interleaved, the best of each, against noise
            bare = min(bare, Self.perElement(numbers.count) { Self.sum(numbers) })
            let (manual, loop, bytes, bytesBare, bytesManual) = try! await withWaitAlert(
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
                return (manual, loop, bytes, bytesBare, bytesManual)
            }
            advancing = min(advancing, manual)
            wrapped = min(wrapped, loop)
            wrappedBytes = min(wrappedBytes, bytes)
            bareBytes = min(bareBytes, bytesBare)
            advancingBytes = min(advancingBytes, bytesManual)
        }
        return [
            Figure(
                name: "for x in items.reportingProgress(to:)",
                measured: "\(format(wrapped)) ns/element",
                baseline: "advance() each \(format(advancing)) ns; bare \(format(bare, 2)) ns",
                budget: "≤ bare + 2 ns (+\(format(wrapped - bare, 2)) ns)", passed: wrapped <= bare + 2),
            Figure(
                name: "for await byte in bytes.reportingProgress(to:)",
                measured: "\(format(wrappedBytes)) ns/byte",
                baseline: "advance() each \(format(advancingBytes)) ns; bare \(format(bareBytes, 2)) ns",
                budget: "≤ bare + 2 ns (+\(format(wrappedBytes - bareBytes, 2)) ns)",
                passed: wrappedBytes <= bareBytes + 2),
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

    nonisolated private static func sum(_ numbers: some Sequence<Int>) -> Int {
        var total = 0
        for number in numbers { total &+= number &* 31 }
        return total
    }

    nonisolated private static func sumAdvancing(_ numbers: [Int], _ alert: WaitAlertReporter) -> Int {
        var total = 0
        for number in numbers {
            total &+= number &* 31
            alert.advance()
        }
        return total
    }

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

    nonisolated private static func sum<Bytes: AsyncSequence<UInt8, Never>>(_ bytes: Bytes) async -> Int {
        var total = 0
        for await byte in bytes { total &+= Int(byte) }
        return total
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

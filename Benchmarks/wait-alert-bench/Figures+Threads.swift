import Synchronization
import WaitAlert
import WaitAlertTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare atomic counter: the least any shared write from many threads can cost. The floor under
/// the `Mutex` baseline.
final class AtomicSink: TextSink {
    private let count = Atomic<Int>(0)

    func update(_ newText: String) {
        count.wrappingAdd(newText.utf8.count, ordering: .relaxed)
    }
}

/// OS threads of their own (not the cooperative pool), as programs that report from worker
/// threads make them: each calls `body` in a loop until the time is up.
enum Threads {
    private final class Run: Sendable {
        let ready = Atomic<Int>(0)
        let go = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        let calls = Atomic<Int>(0)
        let body: @Sendable (Int) -> Void
        init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }

        func thread(_ index: Int) {
            ready.add(1, ordering: .relaxed)
            while !go.load(ordering: .acquiring) { sched_yield() }
            var made = 0
            // The clock is looked at between rounds of calls, not on each one.
            while !stop.load(ordering: .relaxed) {
                for call in 0..<256 { body(index &* 256 &+ call) }
                made += 256
            }
            calls.add(made, ordering: .relaxed)
        }
    }

    /// Nanoseconds per call: `threads` threads call `body(callIndex)` as fast as they can for
    /// `duration`, started together; the wall time divided by the calls of all of them.
    static func nanosecondsPerCall(
        threads: Int, for duration: Duration, _ body: @escaping @Sendable (Int) -> Void
    ) -> Double {
        let run = Run(body)
        var handles: [pthread_t] = []
        for index in 0..<threads {
            let start = Unmanaged.passRetained(Start { run.thread(index) }).toOpaque()
            #if canImport(Glibc)
                var handle = pthread_t()
            #else
                var handle: pthread_t?
            #endif
            _ = pthread_create(
                &handle, nil,
                { raw in
                    Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
                    return nil
                }, start)
            #if canImport(Glibc)
                handles.append(handle)
            #else
                handles.append(handle!)
            #endif
        }
        while run.ready.load(ordering: .relaxed) < threads { sched_yield() }
        let began = ContinuousClock.now
        run.go.store(true, ordering: .releasing)
        usleep(UInt32(duration.nanoseconds / 1_000))
        run.stop.store(true, ordering: .relaxed)
        for handle in handles { pthread_join(handle, nil) }
        let elapsed = ContinuousClock.now - began
        return elapsed.nanoseconds / Double(max(1, run.calls.load(ordering: .relaxed)))
    }

    private final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}

extension Figures {
    /// indicatif's cost per update with four threads on this machine (566–656 ns in runs beside
    /// WaitAlert's); the budget with many threads is a tenth of its lower end.
    static let indicatifFourThreads = 566.0

    /// `update` from real OS threads — 1, 4 and 16 — on one visible alert, the way programs call
    /// progress libraries from worker threads, against a bare `Mutex<String>` store and an atomic
    /// counter under the same contention, interleaved.
    func threadUpdates() async -> [Figure] {
        let terminal = InMemoryTerminal(columns: 80, rows: 24)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: try! .terminal.with(grace: .zero))
        let texts = (0..<64).map { "update \($0)" }
        let store = Store()
        let atomic = AtomicSink()
        let window = Duration.milliseconds(quick ? 300 : 1_000)
        var figures: [Figure] = []
        for threads in [1, 4, 16] {
            var bare = Double.infinity
            var floor = Double.infinity
            var subject = Double.infinity
            for _ in 0..<3 {
                bare = min(
                    bare, Threads.nanosecondsPerCall(threads: threads, for: window) { store.update(texts[$0 & 63]) })
                floor = min(
                    floor, Threads.nanosecondsPerCall(threads: threads, for: window) { atomic.update(texts[$0 & 63]) })
                let cost = try! await withWaitAlert("Measuring", presenter: presenter) { alert in
                    await Task.detached {
                        Threads.nanosecondsPerCall(threads: threads, for: window) { alert.update(texts[$0 & 63]) }
                    }.value
                }
                subject = min(subject, cost)
            }
            let baseline = "Mutex<String> \(format(bare)) ns; atomic \(format(floor)) ns"
            let name = "update() cost, \(threads) thread\(threads == 1 ? "" : "s")"
            if threads == 1 {
                figures.append(
                    Figure(
                        name: name, measured: "\(format(subject)) ns/call", baseline: baseline,
                        budget: "≤ 1.5× Mutex (\(format(subject / bare, 2))×)", passed: subject <= 1.5 * bare))
            } else {
                let budget = Self.indicatifFourThreads / 10
                figures.append(
                    Figure(
                        name: name, measured: "\(format(subject)) ns/call", baseline: baseline,
                        budget: "≤ 0.1× indicatif, \(format(budget, 0)) ns (\(format(subject / floor, 1))× atomic)",
                        passed: subject <= budget))
            }
        }
        return figures
    }
}

import Synchronization
import Testing

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Many OS threads — more than the machine has cores — report to one mailbox at once, as worker
/// threads of a program do: the lock between them keeps every report.
@Suite("Many threads on one alert")
struct ManyThreadsTests {
    static let threads = 16

    @Test func countsAddedFromSixteenThreadsAreAllKept() {
        let mailbox = ReportMailbox()
        let perThread = 20_000
        onThreads(Self.threads) { _ in
            for _ in 0..<perThread { mailbox.advance(by: 1, growingTotalBy: 1) }
        }
        let progress = mailbox.withState { $0.progress }
        #expect(progress?.completed == Self.threads * perThread)
        #expect(progress?.total == Self.threads * perThread)
    }

    /// Forty threads add counts — at most 32 on counts of their own, the others under the lock —
    /// while another drains again and again: each drain sees a count no lower than the last, and
    /// the last drain every count.
    @Test func countsFromFortyThreadsWhileTheDrainerDrainsAreAllKept() {
        let threads = 40
        let perThread = 10_000
        let mailbox = ReportMailbox()
        mailbox.progress(completed: 0, total: nil, unit: nil)
        let finished = Atomic<Int>(0)
        let inOrder = Mutex<Bool>(true)
        onThreads(threads + 1) { thread in
            guard thread == threads else {
                for _ in 0..<perThread { mailbox.advance(by: 1, growingTotalBy: 0) }
                finished.add(1, ordering: .releasing)
                return
            }
            var last = 0
            while finished.load(ordering: .acquiring) < threads {
                guard let completed = mailbox.drain(byWake: false).progress?.completed else { continue }
                if completed < last { inOrder.withLock { $0 = false } }
                last = completed
                sched_yield()
            }
        }
        _ = mailbox.drain(byWake: false)
        #expect(mailbox.withState { $0.progress?.completed } == threads * perThread)
        #expect(inOrder.withLock { $0 })
        let owned = mailbox.threadCounts.load(ordering: .acquiring).map { counts in
            (0..<ReportMailbox.threadSlots).filter {
                counts[$0].takeUnretainedValue().owner.load(ordering: .relaxed) != 0
            }
        }
        #expect(owned?.isEmpty == false, "threads counted on their own")
    }

    @Test func theTextLeftIsTheLastTextOfAThread() {
        let mailbox = ReportMailbox()
        onThreads(Self.threads) { thread in
            for step in 0..<5_000 { mailbox.update("thread \(thread) step \(step)") }
            mailbox.update("thread \(thread) done")
        }
        let text = mailbox.drain(byWake: false).text
        let lastTexts = Set((0..<Self.threads).map { "thread \($0) done" })
        #expect(text.map(lastTexts.contains) == true, "left \(text ?? "nothing")")
    }

    @Test func logLinesFromSixteenThreadsAreAllKeptInEachThreadsOrder() {
        let mailbox = ReportMailbox()
        let perThread = 2_000
        onThreads(Self.threads) { thread in
            for line in 0..<perThread { mailbox.log("\(thread) \(line)") }
        }
        let logs = mailbox.drain(byWake: false).logs
        #expect(logs.count == Self.threads * perThread)
        var next = [Int](repeating: 0, count: Self.threads)
        var inOrder = true
        for line in logs {
            let parts = line.split(separator: " ").compactMap { Int($0) }
            if parts[1] != next[parts[0]] { inOrder = false }
            next[parts[0]] += 1
        }
        #expect(inOrder)
    }
}

/// Runs `body(index)` on `count` OS threads started together, and returns when all have ended.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Start: Sendable {
        let go = Atomic<Bool>(false)
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let shared = Start {}
    var handles: [pthread_t] = []
    for index in 0..<count {
        let start = Start {
            while !shared.go.load(ordering: .acquiring) { sched_yield() }
            body(index)
        }
        #if canImport(Glibc)
            var handle = pthread_t()
        #else
            var handle: pthread_t?
        #endif
        let created = pthread_create(
            &handle, nil,
            { raw in
                Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, Unmanaged.passRetained(start).toOpaque())
        precondition(created == 0)
        #if canImport(Glibc)
            handles.append(handle)
        #else
            handles.append(handle!)
        #endif
    }
    shared.go.store(true, ordering: .releasing)
    for handle in handles { pthread_join(handle, nil) }
}

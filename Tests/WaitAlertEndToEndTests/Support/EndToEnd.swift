import Dispatch
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the whole end-to-end suite runs: with `WAIT_ALERT_END_TO_END=full` (which `.ci/run`
/// sets). Without it, `swift test` runs ``QuickEndToEndTests``, a sample of it that keeps the
/// command a newcomer runs first under a minute.
enum EndToEndRuns {
    static let isFull: Bool = getenv("WAIT_ALERT_END_TO_END").map { String(cString: $0) == "full" } ?? false

    /// Whether the programs under test are built with a sanitizer (`.ci/sanitize`), which makes
    /// them several times slower, unevenly: their times are not compared then.
    static let isSanitized: Bool = ["__tsan_init", "__asan_init"].contains { (name: String) in
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != nil
    }
}

/// Every end-to-end suite, one test at a time: each runs real programs on pseudo-terminals with
/// real time, and several at once on a small machine starve each other of the frames they wait
/// for. About four minutes on two cores.
@Suite(
    .serialized,
    .onAThreadOfItsOwn,
    .enabled(
        if: EndToEndRuns.isFull,
        "the whole end-to-end suite runs with WAIT_ALERT_END_TO_END=full (.ci/run sets it); swift test runs a sample of it"
    ))
enum EndToEnd {}

/// Runs each test of a suite on a thread of its own rather than on the shared pool of the
/// concurrency runtime: a test that watches a program in real time must poll while the program
/// shows what it looks for. Under `swift test`, tests of other suites that compute for seconds
/// can hold every thread of that pool (one per core) meanwhile; a test polling from the pool
/// would then first look once the program had ended.
struct OnAThreadOfItsOwn: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(WatchingExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OnAThreadOfItsOwn {
    /// Runs the tests on a thread of their own (see ``OnAThreadOfItsOwn``).
    static var onAThreadOfItsOwn: Self { Self() }
}

/// A task executor on a serial dispatch queue: its jobs run on a thread that dispatch adds when
/// the others are busy (an overcommitting queue), not on the concurrency runtime's shared pool.
final class WatchingExecutor: TaskExecutor {
    static let shared = WatchingExecutor()

    private let queue = DispatchQueue(label: "WaitAlertEndToEndTests.watching")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

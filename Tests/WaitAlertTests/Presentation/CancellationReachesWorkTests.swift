import Synchronization
import Testing
import WaitAlert
import WaitAlertTesting

/// Cancellation reaches work that never suspends — CPU-bound work checking `Task.isCancelled` in
/// its loop — whatever cancels it (the caller, a sibling's failure, Ctrl-C, a timeout) and
/// wherever it was started from, even while it still runs inline in the code that started it.
///
/// The work here spins on `Task.isCancelled` and never suspends. Should cancellation not reach
/// it, it gives up after ``CPUWork/limit`` of real time and reports that it was not cancelled,
/// so a regression fails the test instead of hanging it. At most one work spins at a time, and the
/// suite runs its tests one by one: spinning work holds a thread of the cooperative pool, which
/// has as many as the machine has cores.
@Suite("Cancellation reaches work that never suspends", .serialized)
@MainActor
struct CancellationReachesWorkTests {
    /// CPU-bound work: spins until its task is cancelled, never suspending.
    final class CPUWork: Sendable {
        static let limit = Duration.seconds(20)
        private let state = Mutex((spinning: 0, cancelled: 0, notCancelled: 0))

        /// Spins until cancelled (or the limit); throws `CancellationError` when cancelled.
        nonisolated func spin() throws {
            state.withLock { $0.spinning += 1 }
            let end = ContinuousClock.now + Self.limit
            while !Task.isCancelled, ContinuousClock.now < end {}
            let cancelled = Task.isCancelled
            state.withLock { state in
                if cancelled { state.cancelled += 1 } else { state.notCancelled += 1 }
            }
            try Task.checkCancellation()
        }

        /// How many runs spin now or have spun, were cancelled, ran to the limit.
        var counts: (spinning: Int, cancelled: Int, notCancelled: Int) { state.withLock { $0 } }

        /// Waits (in real time, yielding) until `count` runs have started spinning.
        nonisolated func waitUntilSpinning(_ count: Int = 1) async {
            while counts.spinning < count { await Task.yield() }
        }
    }

    struct Boom: Error {}

    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    /// Never suspends: called from a nonisolated `async` context, it runs on the caller's thread.
    @concurrent nonisolated static func cpuBound(_ work: CPUWork) async throws { try work.spin() }

    @Test func aSiblingsFailureCancelsWorkThatNeverSuspends() async throws {
        let presenter = WaitAlertPresenter(clock: ManualClock())
        let work = CPUWork()
        await #expect(throws: Boom.self) {
            try await withWaitAlert("Hashing", presenter: presenter) { alert in
                _ = try await alert.tasks(for: [0, 1], policy: .failFast) {
                    "Task \($0)"
                } operation: { index, _ in
                    if index == 1 {
                        await work.waitUntilSpinning()
                        throw Boom()
                    }
                    try await Self.cpuBound(work)
                }
            }
        }
        #expect(work.counts.cancelled == 1 && work.counts.notCancelled == 0)
    }

    /// The failing task cancels its siblings itself: here the group's owner runs on the main
    /// actor, which the test holds meanwhile, so it cannot.
    @Test func aFailureCancelsItsSiblingsWhileTheGroupsOwnerCannotRun() async throws {
        let presenter = WaitAlertPresenter(clock: ManualClock())
        let work = CPUWork()
        let go = Shared(false)
        let failing = Shared(false)
        let group = Task { @MainActor in
            try await withWaitAlert("Hashing", presenter: presenter) { alert in
                _ = try await alert.tasks(for: [0, 1], policy: .failFast) {
                    "Task \($0)"
                } operation: { index, _ in
                    guard index == 1 else { return try await Self.cpuBound(work) }
                    failing.value.withLock { $0 = true }
                    while !go.value.withLock({ $0 }) { await Task.yield() }
                    throw Boom()
                }
            }
        }
        await work.waitUntilSpinning()
        while !failing.value.withLock({ $0 }) { await Task.yield() }
        // Holds the main actor from here until the sibling has stopped (or the limit).
        go.value.withLock { $0 = true }
        let end = ContinuousClock.now + CPUWork.limit
        while work.counts.cancelled + work.counts.notCancelled == 0, ContinuousClock.now < end {}
        #expect(work.counts.cancelled == 1 && work.counts.notCancelled == 0)
        await #expect(throws: Boom.self) { try await group.value }
    }

    @Test func cancellingTheCallerCancelsWorkThatNeverSuspendedFromNonisolatedCode() async throws {
        let presenter = WaitAlertPresenter(clock: ManualClock())
        let work = CPUWork()
        let caller = Task { @concurrent in
            try await withWaitAlert("Hashing", presenter: presenter) { _ in try work.spin() }
        }
        await work.waitUntilSpinning()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(work.counts.cancelled == 1 && work.counts.notCancelled == 0)
    }

    @Test func cancellingTheCallerCancelsANestedChildThatNeverSuspended() async throws {
        let presenter = WaitAlertPresenter(clock: ManualClock())
        let work = CPUWork()
        let caller = Task { @concurrent in
            try await withWaitAlert("Build", presenter: presenter) { build in
                try await build.task("Compile") { compile in
                    try await compile.task("Parser.swift") { _ in try work.spin() }
                }
            }
        }
        await work.waitUntilSpinning()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(work.counts.cancelled == 1)
    }

    @Test func cancelAllReachesWorkThatNeverSuspendedFromNonisolatedCode() async throws {
        // What Ctrl-C does: the overlay asks the presenter to cancel every work.
        let presenter = WaitAlertPresenter(clock: ManualClock())
        let work = CPUWork()
        let caller = Task { @concurrent in
            try await withWaitAlert("Nonisolated", presenter: presenter) { _ in try work.spin() }
        }
        await work.waitUntilSpinning()
        #expect(presenter.cancelAll(), "there was work to cancel")
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(work.counts.cancelled == 1 && work.counts.notCancelled == 0)
    }

    @Test func cancelAllReachesAChildTaskThatNeverSuspended() async throws {
        let presenter = WaitAlertPresenter(clock: ManualClock())
        let work = CPUWork()
        let caller = Task {
            try await withWaitAlert("Group", presenter: presenter) { alert in
                _ = try await alert.tasks(for: [0, 1], maxConcurrency: 1) {
                    "Task \($0)"
                } operation: { _, _ in
                    try await Self.cpuBound(work)
                }
            }
        }
        await work.waitUntilSpinning()
        #expect(presenter.cancelAll(), "there was work to cancel")
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(work.counts.spinning == 1, "the task waiting its turn never started")
        #expect(work.counts.cancelled == 1 && work.counts.notCancelled == 0)
    }

    @Test func aTimeoutCancelsWorkThatNeverSuspends() async throws {
        let clock = ManualClock()
        let presenter = WaitAlertPresenter(clock: clock)
        let work = CPUWork()
        let caller = Task { @concurrent in
            try await withWaitAlert("Hashing", timeout: .seconds(2), presenter: presenter) { _ in try work.spin() }
        }
        await work.waitUntilSpinning()
        await clock.sleepers(atLeast: 1)  // the presenter's timer
        _ = clock.advance(by: .seconds(2))
        await #expect(throws: WaitAlertTimeoutError.self) { try await caller.value }
        #expect(work.counts.cancelled == 1)
    }

    @Test func workStartedByAnAlreadyCancelledCallerSeesItCancelledFromItsFirstInstruction() async throws {
        let presenter = WaitAlertPresenter(clock: ManualClock())
        let seen = Shared<Bool?>(nil)
        let caller = Task { @concurrent in
            withUnsafeCurrentTask { $0?.cancel() }
            try await withWaitAlert("Hashing", presenter: presenter) { _ in
                seen.value.withLock { $0 = Task.isCancelled }
            }
        }
        try await caller.value
        #expect(seen.value.withLock { $0 } == true)
    }

    @Test func noTaskWaitingItsTurnStartsOnceTheGroupIsCancelled() async throws {
        let presenter = WaitAlertPresenter(renderers: [RecordingRenderer()], clock: ManualClock())
        let work = CPUWork()
        let started = Shared<[Int]>([])
        let caller = Task { @concurrent in
            try await withWaitAlert("Hashing", presenter: presenter) { alert in
                _ = try await alert.tasks(for: Array(0..<4), policy: .keepGoing, maxConcurrency: 1) {
                    "File \($0)"
                } operation: { index, _ in
                    started.value.withLock { $0.append(index) }
                    try work.spin()
                }
            }
        }
        await work.waitUntilSpinning()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(started.value.withLock { $0 } == [0], "the pending rows never start")
        #expect(work.counts.cancelled == 1)
    }
}

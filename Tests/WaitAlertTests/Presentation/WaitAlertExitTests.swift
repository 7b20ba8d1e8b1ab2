import Testing
import WaitAlert
import WaitAlertTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `WaitAlertExit.status(for:)`: the status a program exits with after an error its alerts have
/// shown, and `nil` for one they have not.
@Suite("Exit status after an alert's error")
@MainActor
struct WaitAlertExitTests {
    struct DiskFull: Error, CustomStringConvertible {
        var id: Int
        var description: String { "disk \(id) is full" }
    }

    @Test func anErrorAnAlertEndedWithExitsWithOneWithoutBeingPrintedAgain() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let error = DiskFull(id: 1)
        do {
            try await withWaitAlert("Hashing", presenter: bed.presenter) { _ in throw error }
            Issue.record("the error was rethrown")
        } catch {
            #expect(WaitAlertExit.status(for: error) == 1)
        }
        #expect(bed.recorder.snapshots.contains { $0.outcome == .failure("Hashing: disk 1 is full") })
    }

    @Test func anErrorNoAlertShowedIsLeftToTheProgram() {
        #expect(WaitAlertExit.status(for: DiskFull(id: 2)) == nil)
    }

    @Test func anErrorOnAPresenterWithoutRenderersWasNotShown() async throws {
        let presenter = WaitAlertPresenter(clock: ManualClock())
        await #expect(throws: DiskFull.self) {
            try await withWaitAlert("Hashing", presenter: presenter) { _ in throw DiskFull(id: 3) }
        }
        #expect(WaitAlertExit.status(for: DiskFull(id: 3)) == nil)
    }

    @Test func aFailedChildTaskRethrownByItsGroupCountsAsShown() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        do {
            try await withWaitAlert("Hashing", presenter: bed.presenter) { alert in
                _ = try await alert.tasks(for: [4, 5], policy: .keepGoing) {
                    "File \($0)"
                } operation: { id, _ in
                    throw DiskFull(id: id)
                }
            }
            Issue.record("the failures were rethrown")
        } catch {
            #expect(error is WaitAlertTaskFailures)
            #expect(WaitAlertExit.status(for: error) == 1)
            #expect(WaitAlertExit.status(for: DiskFull(id: 4)) == 1, "the child's own line showed it")
        }
    }

    @Test func aTimeoutExitsWith124() async throws {
        let bed = WaitAlertTestBed(timing: try WaitAlertTiming.immediate.withTimeout(.seconds(1)))
        let work = bed.start {
            try await withWaitAlert("Hashing") { _ in try await bed.clock.sleep(for: .seconds(60)) }
        }
        await bed.advance(by: .seconds(1))
        do {
            try await bed.run(until: work)
            Issue.record("the timeout was thrown")
        } catch {
            #expect(error is WaitAlertTimeoutError)
            #expect(WaitAlertExit.status(for: error) == 124)
        }
    }
}

/// The signal an exit status reports is the one recorded with the error, not whatever signal
/// cancelled some earlier work.
struct ShownErrorsTests {
    struct Failure: Error, CustomStringConvertible {
        var id: Int
        var description: String { "failure \(id)" }
    }

    @Test func eachErrorKeepsTheSignalThatCancelledItsWork() {
        ShownErrors.record(Failure(id: 100), signal: SIGINT)
        ShownErrors.record(Failure(id: 101), signal: 0)
        #expect(WaitAlertExit.status(for: Failure(id: 100)) == 130)
        #expect(WaitAlertExit.status(for: Failure(id: 101)) == 1, "a later failure no signal caused")
    }

    @Test func aNewerRecordOfAnEqualErrorReplacesTheOlder() {
        ShownErrors.record(Failure(id: 102), signal: SIGTERM)
        ShownErrors.record(Failure(id: 102), signal: 0)
        #expect(WaitAlertExit.status(for: Failure(id: 102)) == 1)
    }
}

import Testing
import WaitAlertTesting

/// `ManualClock.sleepers(within:where:)`: a wait for the clock's sleepers that ends after a bound of
/// real time when nothing changes on the clock (the test bed's wait for a presenter timer that may
/// go away before it ever sleeps).
@Suite("ManualClock bounded waits")
struct ManualClockBoundedWaitTests {
    @Test func returnsAtOnceWhenTheConditionHolds() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.sleepers(atLeast: 1)
        await clock.sleepers(within: .seconds(60)) { $0.count == 1 }
        #expect(clock.sleeperDeadlines == [.init(offset: .seconds(1))])
        clock.advance(by: .seconds(1))
        try await sleeper.value
    }

    @Test func returnsWhenASleepMakesTheConditionHold() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(2)) }
        await clock.sleepers(within: .seconds(60)) { $0.contains(.init(offset: .seconds(2))) }
        #expect(clock.sleeperDeadlines == [.init(offset: .seconds(2))])
        clock.advance(by: .seconds(2))
        try await sleeper.value
    }

    @Test func returnsAfterTheBoundWhenNothingChanges() async {
        let clock = ManualClock()
        await clock.sleepers(within: .milliseconds(1)) { !$0.isEmpty }
        #expect(clock.sleeperDeadlines.isEmpty)
        // The waiter it left behind is gone: a later sleep resumes nothing twice.
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        #expect((try? await sleeper.value) != nil)
    }
}

import Testing
import WaitAlertTesting

@Suite("ManualClock")
struct ManualClockTests {
    @Test func advanceResumesDueSleepersUpToTheNewTime() async throws {
        let clock = ManualClock()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for seconds in [3, 1, 2] {
                group.addTask {
                    try await clock.sleep(until: .init(offset: .seconds(seconds)))
                    return seconds
                }
            }
            await clock.sleepers(atLeast: 3)
            #expect(clock.nextDeadline == .init(offset: .seconds(1)))
            #expect(clock.advance(by: .milliseconds(1500)) == 1)
            #expect(try await group.next() == 1)
            #expect(clock.sleeperCount == 2)
            #expect(clock.run() == 2)
            let rest = try await [group.next(), group.next()].compactMap { $0 }
            #expect(rest.sorted() == [2, 3])
        }
        #expect(clock.now == .init(offset: .seconds(3)))
    }

    @Test func pastDeadlineResumesAtOnce() async throws {
        let clock = ManualClock(now: .init(offset: .seconds(10)))
        try await clock.sleep(until: .init(offset: .seconds(5)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellationResumesExactlyOnce() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.sleepers(atLeast: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        // Advancing afterwards must not resume the cancelled sleeper a second time.
        #expect(clock.advance(by: .seconds(2)) == 0)
    }

    @Test func cancelledBeforeSleepingThrowsAtOnce() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepersRendezvousWaitsForTheCondition() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.sleepers { $0.contains(.init(offset: .seconds(5))) }
        #expect(clock.sleeperDeadlines == [.init(offset: .seconds(5))])
        clock.advance(by: .seconds(5))
        try await sleeper.value
    }

    /// Going back in time is a misuse: an issue says what to do instead, at the caller's line.
    @Test func goingBackRecordsAnIssueThatSaysWhatToDo() {
        let clock = ManualClock(now: .init(offset: .seconds(2)))
        let capture = TestIssues.Capture()
        let line = #line + 2
        TestIssues.$capture.withValue(capture) {
            clock.advance(by: .seconds(-1))
            clock.advance(to: .init(offset: .seconds(1)))
        }
        #expect(capture.messages.count == 2)
        #expect(capture.messages.allSatisfy { $0.contains("time only moves forward") })
        #expect(capture.issues.map(\.sourceLocation.line) == [line, line + 1])
        #expect(clock.now == .init(offset: .seconds(2)))
    }
}

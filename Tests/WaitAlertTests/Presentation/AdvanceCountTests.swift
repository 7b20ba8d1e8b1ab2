import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Once progress is noted for the drainer's next look, `advance` adds to a count of the calling
/// thread's own, without the mailbox's lock, as a wrapped loop does; the count stays exact, and a
/// progress set or cleared later replaces what was counted before it.
@Suite("Counts added on their own")
struct AdvanceCountTests {
    /// What a drain takes now, as `completed/total`.
    static func drained(_ mailbox: ReportMailbox) -> String {
        guard let progress = mailbox.drain(byWake: false).progress else { return "none" }
        return "\(progress.completed)/\(progress.total.map(String.init) ?? "?")"
    }

    /// The count the mailbox holds, without what threads and loops counted on their own.
    static func held(_ mailbox: ReportMailbox) -> Int? {
        mailbox.withState { $0.progress?.completed }
    }

    @Test func countsAfterTheFirstSinceADrainReachTheNextDrain() {
        let mailbox = ReportMailbox()
        mailbox.progress(completed: 0, total: 10, unit: nil)
        for _ in 0..<3 { mailbox.advance(by: 1, growingTotalBy: 0) }
        #expect(Self.held(mailbox) == 1, "the first took the lock, the others counted on their own")
        #expect(Self.drained(mailbox) == "3/10")
        mailbox.advance(by: 2, growingTotalBy: 0)
        mailbox.advance(by: 2, growingTotalBy: 0)
        #expect(Self.held(mailbox) == 5)
        #expect(Self.drained(mailbox) == "7/10")
        mailbox.advance(by: 1, growingTotalBy: 1)
        mailbox.advance(by: 1, growingTotalBy: 1)
        #expect(Self.held(mailbox) == 9, "a total that grows takes the lock")
        #expect(Self.drained(mailbox) == "9/12")
    }

    @Test func aProgressSetOrClearedReplacesWhatWasCountedBefore() {
        let mailbox = ReportMailbox()
        mailbox.progress(completed: 0, total: 10, unit: nil)
        for _ in 0..<4 { mailbox.advance(by: 1, growingTotalBy: 0) }
        mailbox.progress(completed: 1, total: 5, unit: nil)
        #expect(Self.drained(mailbox) == "1/5")
        mailbox.progress(completed: 0, total: 10, unit: nil)
        for _ in 0..<4 { mailbox.advance(by: 1, growingTotalBy: 0) }
        mailbox.indeterminate()
        #expect(Self.drained(mailbox) == "none")
        mailbox.advance(by: 1, growingTotalBy: 0)
        mailbox.advance(by: 1, growingTotalBy: 0)
        #expect(Self.drained(mailbox) == "2/?")
    }

    @Test func aProgressSetReplacesWhatALoopCountedBefore() {
        let mailbox = ReportMailbox()
        mailbox.progress(completed: 0, total: 10, unit: nil)
        let loop = ReportMailbox.LoopCount(mailbox: mailbox)
        for _ in 0..<3 { loop.count(1) }
        #expect(Self.held(mailbox) == 0, "the loop counted on its own")
        mailbox.progress(completed: 1, total: 5, unit: nil)
        #expect(Self.drained(mailbox) == "1/5")
        loop.count(1)
        #expect(Self.drained(mailbox) == "2/5")
    }

    @Test func theAlertEndsWithEveryCountAndIgnoresLaterOnes() {
        let mailbox = ReportMailbox()
        mailbox.progress(completed: 0, total: nil, unit: nil)
        for _ in 0..<1_000 { mailbox.advance(by: 1, growingTotalBy: 0) }
        #expect(Self.held(mailbox) == 1)
        mailbox.finish(.success(nil))
        mailbox.advance(by: 1, growingTotalBy: 0)
        let batch = mailbox.drain(byWake: false)
        #expect(batch.outcome == .success(nil))
        #expect(batch.progress?.completed == 1_000)
    }

    /// Four threads advance one shown alert while it draws: it shows their counts as they go and
    /// ends with every one.
    @Test @MainActor func threadsAdvancingAShownAlertEndWithEveryCount() async throws {
        let bed = WaitAlertTestBed(timing: .terminal)
        let work = bed.start {
            try await withWaitAlert("Hashing…") { alert in
                alert.progress(completed: 0, total: 400_000)
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask { @concurrent in
                            for _ in 0..<100_000 { alert.advance() }
                        }
                    }
                }
            }
        }
        try await bed.run(until: work)
        #expect(bed.recorder.latest?.progress?.completed == 400_000)
    }

    /// Counts too large to add on a thread's own, or below zero, take the lock and saturate.
    @Test func largeAndNegativeCountsTakeTheLock() {
        let mailbox = ReportMailbox()
        mailbox.progress(completed: 0, total: nil, unit: nil)
        mailbox.advance(by: 1, growingTotalBy: 0)
        mailbox.advance(by: .max / 2, growingTotalBy: 0)
        mailbox.advance(by: .max / 2, growingTotalBy: 0)
        mailbox.advance(by: 5, growingTotalBy: 0)
        #expect(Self.held(mailbox) == .max)
        #expect(Self.drained(mailbox) == "\(Int.max)/?")
        mailbox.progress(completed: 10, total: nil, unit: nil)
        mailbox.advance(by: 1, growingTotalBy: 0)
        mailbox.advance(by: -4, growingTotalBy: 0)
        #expect(Self.held(mailbox) == 6)
        #expect(Self.drained(mailbox) == "7/?")
    }
}

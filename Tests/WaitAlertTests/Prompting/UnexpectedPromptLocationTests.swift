import Testing
import WaitAlert

@testable import WaitAlertTesting

/// A prompt the test did not script is reported where the test is: at the call of the bed that
/// was running the work when it came, else at the `start` of the work — never inside the
/// testing library.
@Suite("Where an unexpected prompt is reported")
@MainActor
struct UnexpectedPromptLocationTests {
    @Test func atTheCallThatRanTheWork() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let capture = TestIssues.Capture()
        let work = bed.start {
            try await TestIssues.$capture.withValue(capture) { try await askText("Surprise?") }
        }
        let line = #line + 1
        await #expect(throws: CancellationError.self) { try await bed.run(until: work) }
        let issue = try #require(capture.issues.first)
        #expect(issue.message.contains("did not expect: \"Surprise?\""))
        #expect(issue.sourceLocation.fileID == #fileID, "\(issue.sourceLocation)")
        #expect(issue.sourceLocation.line == line, "\(issue.sourceLocation)")
    }

    /// Work the test awaits by itself: the issue points at the work's `start`.
    @Test func atTheStartOfTheWork() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let capture = TestIssues.Capture()
        let line = #line + 1
        let work = bed.start {
            try await TestIssues.$capture.withValue(capture) { try await confirm("Sure?") }
        }
        await #expect(throws: CancellationError.self) { try await work.value }
        let issue = try #require(capture.issues.first)
        #expect(issue.sourceLocation.fileID == #fileID, "\(issue.sourceLocation)")
        #expect(issue.sourceLocation.line == line, "\(issue.sourceLocation)")
    }
}

import Synchronization
public import Testing

/// Attaches what each ``WaitAlertTestBed`` of a test showed when the test fails: the event
/// stream of its alerts, what its recorder saw, and the screen of the ``InMemoryTerminal`` it
/// draws on.
///
/// Put it on a suite — every test in it, and in the suites it holds, is covered — or on one test;
/// the tests themselves stay as they are:
///
/// ```swift
/// @Suite(.testBedAttachments)
/// @MainActor
/// struct UploadTests {
///     @Test func theFinalLineStays() async throws {
///         let terminal = InMemoryTerminal(columns: 40, rows: 10)
///         let bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, integration: .none)])
///         // …
///     }
/// }
/// ```
///
/// When a test under it records a failing issue (a failed `#expect` or `#require`, a thrown
/// error, an issue a bed records), each bed the test made attaches three files, named after the
/// test, at the line that made the bed:
///
/// | file | what it holds |
/// |---|---|
/// | `theFinalLineStays.wait-alert-events.ndjson` | the event stream of the bed's alerts, as `WAIT_ALERT_PROGRESS=json` writes it |
/// | `theFinalLineStays.wait-alert-recorded.txt` | each change the recorder saw — phase, text, progress, ending, log and printed lines — at its time on the bed's clock |
/// | `theFinalLineStays.wait-alert-screen.txt` | the screen, cursor and transcript of each `InMemoryTerminal` a renderer of the bed draws on (when there is one) |
///
/// `swift test --attachments-path DIR` writes them to `DIR`; Xcode shows them in the test's
/// report. A test that passes, or whose issues are all known (`withKnownIssue`), attaches nothing.
///
/// A bed attaches the same files by itself, without this trait, when it records an issue of its
/// own: work that cannot finish, a prompt the test did not script. A test's own expectations
/// need the trait: Swift Testing tells code inside a test of the test's issues only through a
/// trait around it.
public struct TestBedAttachmentsTrait: TestTrait, SuiteTrait, TestScoping {
    /// Covers the tests of the suites a suite holds, too.
    public var isRecursive: Bool { true }

    /// Runs `function`, one test case, and when it fails has each bed it made attach what it
    /// showed.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let beds = Beds()
        let observer = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure { beds.testFailed() }
            return issue
        }
        do {
            try await observer.provideScope(for: test, testCase: testCase) {
                try await Beds.$current.withValue(beds) { try await function() }
            }
        } catch {
            // Thrown out of the test: a failure, unless the test cancelled itself (Test.cancel).
            if !Task.isCancelled { beds.testFailed() }
            await beds.attachIfTheTestFailed()
            throw error
        }
        await beds.attachIfTheTestFailed()
    }

    /// The test beds a test made, and whether it failed.
    package final class Beds: Sendable {
        /// The beds of the test running in the current task, under the trait.
        @TaskLocal package static var current: Beds?

        private let state = Mutex<(beds: [WaitAlertTestBed], failed: Bool)>(([], false))

        package init() {}

        /// Adds a bed the test made.
        package func add(_ bed: WaitAlertTestBed) { state.withLock { $0.beds.append(bed) } }

        /// Notes that the test recorded a failing issue.
        package func testFailed() { state.withLock { $0.failed = true } }

        /// Has each bed attach what it showed when the test failed, then lets the beds go.
        package func attachIfTheTestFailed() async {
            let (beds, failed) = state.withLock { state in
                defer { state.beds = [] }
                return (state.beds, state.failed)
            }
            guard failed, !beds.isEmpty else { return }
            await MainActor.run {
                for bed in beds { bed.attachWhatItShowed() }
            }
        }
    }
}

extension Trait where Self == TestBedAttachmentsTrait {
    /// Attaches what each ``WaitAlertTestBed`` of a failing test showed (see
    /// ``TestBedAttachmentsTrait``).
    public static var testBedAttachments: Self { Self() }
}

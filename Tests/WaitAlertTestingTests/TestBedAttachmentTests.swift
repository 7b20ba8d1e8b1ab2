import Testing
import WaitAlert
import WaitAlertTesting

/// What a test bed leaves to a failing test: the event stream, what the recorder saw and the
/// screen, as attachments — when the bed itself records an issue, and under
/// `.testBedAttachments` when the test fails for any reason. The attachments are captured here
/// (`TestIssues.capture`), not recorded; `TestBedAttachmentsEndToEndTests` checks the files
/// `--attachments-path` writes.
@Suite("Test bed attachments")
@MainActor
struct TestBedAttachmentTests {
    /// A bed on a terminal whose work shows an alert, logs, prints, and fails after 2 s.
    static func failingWork() async -> (WaitAlertTestBed, InMemoryTerminal) {
        let terminal = InMemoryTerminal(columns: 40, rows: 6)
        let bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, integration: .none)])
        let work = bed.start {
            try await withWaitAlert("Uploading…", presenter: bed.presenter) { alert in
                try await bed.clock.sleep(for: .seconds(1))
                alert.update("Uploading photo.jpg")
                alert.log("sent notes.txt")
                await MainActor.run { bed.presenter.print("connected", to: .standardError) }
                try await bed.clock.sleep(for: .seconds(1))
                throw Refused()
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        return (bed, terminal)
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "the server refused" }
    }

    /// A prompt the test did not script: the bed records the issue, and attaches what it showed
    /// at once (no trait needed), named after the test, at the line that made the bed.
    @Test func anIssueOfTheBedAttachesWhatItShowed() async throws {
        let capture = TestIssues.Capture()
        let line = #line + 1
        let bed = WaitAlertTestBed(timing: .immediate)
        await TestIssues.$capture.withValue(capture) {
            let work = bed.start {
                try await withWaitAlert("Cleaning…", presenter: bed.presenter) { _ in
                    try await confirm("Delete 3 files?", presenter: bed.presenter)
                }
            }
            _ = try? await bed.run(until: work)
        }
        #expect(capture.messages.count == 1 && capture.messages[0].contains("did not expect: \"Delete 3 files?\""))
        #expect(
            capture.attachments.map(\.name) == [
                "anIssueOfTheBedAttachesWhatItShowed.wait-alert-events.ndjson",
                "anIssueOfTheBedAttachesWhatItShowed.wait-alert-recorded.txt",
            ], "no terminal, no screen")
        #expect(capture.attachments.allSatisfy { $0.sourceLocation.line == line })
        let events = try #require(capture.attachments.first).contents
        #expect(events.hasPrefix(#"{"v":1,"event":"start","id":"#) && events.contains(#""title":"Cleaning…""#))
        // A second issue of the same bed attaches nothing more.
        TestIssues.$capture.withValue(capture) { bed.expectEveryAnswerUsed() }
        bed.answer("unused")
        TestIssues.$capture.withValue(capture) { bed.expectEveryAnswerUsed() }
        #expect(capture.messages.count == 2 && capture.attachments.count == 2)
    }

    /// The event stream is the one an `EventStreamRenderer` among the bed's renderers writes, line
    /// for line: starts, texts, logs, printed lines and the ending, at their times.
    @Test func theEventStreamIsWhatTheRendererWrites() async throws {
        let live = InMemoryTerminal(columns: 200, rows: 50, isInteractive: false)
        let bed = WaitAlertTestBed(renderers: [EventStreamRenderer(terminal: live, wallClock: { nil })])
        let work = bed.start {
            try await withWaitAlert("Indexing…", presenter: bed.presenter) { alert in
                _ = try await alert.tasks(for: ["a", "b"]) {
                    "Indexing \($0)"
                } operation: { name, row in
                    try await bed.clock.sleep(for: .seconds(name == "a" ? 1 : 2))
                    row.log("indexed \(name)")
                }
                alert.progress(completed: 2, total: 2)
                await MainActor.run { bed.presenter.print("2 files", to: .standardError) }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let stream = try #require(bed.whatItShowed.first { $0.name == "wait-alert-events.ndjson" }).contents
        let written = String(decoding: live.output, as: UTF8.self)
        #expect(stream == written)
        #expect(stream.split(separator: "\n").count >= 9, "\(stream)")
        #expect(stream.contains(#""line":"indexed b""#) && stream.contains(#""line":"2 files""#))
    }

    /// What the recorder saw, a line per change at its time, spinner frames left out; and the
    /// terminal's screen and transcript.
    @Test func theRecordAndTheScreenSayWhatHappened() async throws {
        let (bed, terminal) = await Self.failingWork()
        let files = bed.whatItShowed
        #expect(files.map(\.name) == ["wait-alert-events.ndjson", "wait-alert-recorded.txt", "wait-alert-screen.txt"])
        let recorded = files[1].contents.split(separator: "\n").map(String.init)
        let alert = try #require(bed.recorder.alert(titled: "Uploading…"))
        #expect(
            recorded.first?.hasPrefix("What the test bed's recorder saw: 1 alert, times on the bed's clock (now ")
                == true)
        #expect(recorded[1].hasPrefix(#"Texts shown: "Uploading…", "Uploading photo.jpg""#))
        #expect(recorded.contains("1.000s   \(alert) logged \"sent notes.txt\""), "\(recorded)")
        #expect(recorded.contains("1.000s   printed on standard error: \"connected\""), "\(recorded)")
        #expect(recorded.contains { $0.hasSuffix("\(alert): visible \"Uploading photo.jpg\"") }, "\(recorded)")
        #expect(
            recorded.contains {
                $0.hasPrefix("2.000s   \(alert): ")
                    && $0.hasSuffix(#", ended: failure "Uploading: the server refused""#)
            }, "\(recorded)")
        #expect(recorded.last?.hasSuffix("   \(alert): gone") == true, "\(recorded)")

        let screen = files[2].contents
        #expect(screen.hasPrefix(terminal.description + "\n"))
        #expect(
            screen.hasSuffix(
                "Transcript (the scrollback, then the screen):\n" + terminal.transcript.joined(separator: "\n") + "\n"))
        #expect(terminal.transcript.contains("✖ Uploading: the server refused"))
    }

    /// Spinner frames make no lines of their own: a bed that wants every frame records the same
    /// changes as one that does not.
    @Test func spinnerFramesAreLeftOut() async throws {
        func record(wantsFrames: Bool) async throws -> [String] {
            let bed = WaitAlertTestBed(wantsFrames: wantsFrames)
            let work = bed.start {
                try await withWaitAlert("Loading…", presenter: bed.presenter) { _ in
                    try await bed.clock.sleep(for: .seconds(3))
                }
            }
            try await bed.run(until: work)
            await bed.run()
            let recorded = try #require(bed.whatItShowed.first { $0.name == "wait-alert-recorded.txt" }).contents
            let alert = try #require(bed.recorder.alert(titled: "Loading…"))
            return recorded.split(separator: "\n").dropFirst(3).map { String($0.replacing("\(alert)", with: "#")) }
        }
        let withFrames = try await record(wantsFrames: true)
        #expect(withFrames == (try await record(wantsFrames: false)))
        #expect(withFrames.count < 10, "\(withFrames)")
    }

    /// Runs `body` as a test under `.testBedAttachments`, in the current test: an issue whose
    /// comment is `deliberate` fails it for the trait, and is then dropped, so the current test
    /// does not fail.
    func underTheTrait(_ body: @escaping @Sendable @MainActor () async throws -> Void) async throws {
        let test = try #require(Test.current)
        let dropDeliberate = IssueHandlingTrait.filterIssues { issue in
            !issue.comments.contains { $0.rawValue == "deliberate" }
        }
        try await dropDeliberate.provideScope(for: test, testCase: Test.Case.current) {
            try await TestBedAttachmentsTrait.testBedAttachments.provideScope(
                for: test, testCase: Test.Case.current, performing: body)
        }
    }

    /// Under `.testBedAttachments`, a failing test attaches what each of its beds showed, once
    /// the test has ended; a passing test, and one whose issues are not failures, attach nothing.
    @Test func theTraitAttachesWhenTheTestFails() async throws {
        let capture = TestIssues.Capture()
        try await TestIssues.$capture.withValue(capture) {
            try await underTheTrait {
                _ = await Self.failingWork()
                _ = WaitAlertTestBed()
                #expect(capture.attachments.isEmpty, "not before the test ends")
                Issue.record("deliberate")
            }
        }
        let prefix = "theTraitAttachesWhenTheTestFails"
        let names = capture.attachments.map(\.name)
        #expect(
            names == [
                "\(prefix).wait-alert-events.ndjson", "\(prefix).wait-alert-recorded.txt",
                "\(prefix).wait-alert-screen.txt",
                "\(prefix).wait-alert-events.ndjson", "\(prefix).wait-alert-recorded.txt",
            ], "each bed's files")
        #expect(capture.attachments.first { $0.name.hasSuffix("screen.txt") }?.contents.contains("✖ Uploading") == true)

        let quiet = TestIssues.Capture()
        try await TestIssues.$capture.withValue(quiet) {
            try await underTheTrait { _ = await Self.failingWork() }
            try await underTheTrait {
                _ = await Self.failingWork()
                Issue.record("deliberate", severity: .warning)  // not a failure (as a known issue)
            }
        }
        #expect(quiet.attachments.isEmpty)
    }

    /// An error thrown out of the test is a failure; under the trait a bed's own issue attaches
    /// at the end of the test, once, with what the bed showed by then.
    @Test func aThrownErrorAndABedsIssueAttachAtTheEnd() async throws {
        let capture = TestIssues.Capture()
        await TestIssues.$capture.withValue(capture) {
            await #expect(throws: Refused.self) {
                try await underTheTrait {
                    let bed = WaitAlertTestBed(timing: .immediate)
                    bed.answer("unused")
                    bed.expectEveryAnswerUsed()  // an issue of the bed: captured, not attached yet
                    #expect(capture.attachments.isEmpty)
                    _ = showWaitAlert("Later", presenter: bed.presenter)
                    await bed.settle()
                    throw Refused()
                }
            }
        }
        #expect(capture.messages.count == 1)
        #expect(capture.attachments.count == 2)
        #expect(capture.attachments.first?.contents.contains(#""title":"Later""#) == true, "what it showed by the end")
    }

    /// The file names: the test's name up to its parameters, without a path separator.
    @Test(arguments: [("aTest()", "aTest"), ("values(_:)", "values"), ("a/b:c", "a-b-c"), ("()", "test")])
    func fileNames(name: String, expected: String) {
        #expect(WaitAlertTestBed.fileName(forTestNamed: name) == expected)
    }
}

import Testing
import WaitAlertTesting

@testable import WaitAlert

/// A question asked with a line, and a question in the event stream: with its message, its
/// choices and its default.
@Suite("Questions as lines and events")
@MainActor
struct QuestionLineTests {
    static let choice = WaitAlertPrompt.choice(
        WaitAlertChoicePrompt(
            title: "Upload failed", message: "The server did not answer.",
            buttons: [WaitAlertButton("Retry", role: .default), "Skip", WaitAlertButton("Abort", role: .cancel)]))

    @Test func aLineQuestionShowsItsMessage() {
        #expect(
            StandardInputPrompt.question(Self.choice)
                == "? Upload failed\n  The server did not answer.\n  1) Retry 2) Skip 3) Abort ")
        let text = WaitAlertPrompt.text(
            WaitAlertTextPrompt(title: "Name:", message: "Lower case\nno spaces", defaultText: "demo"))
        #expect(StandardInputPrompt.question(text) == "? Name:\n  Lower case\n  no spaces\n  (demo) ")
        let bare = WaitAlertPrompt.text(WaitAlertTextPrompt(title: "Name:"))
        #expect(StandardInputPrompt.question(bare) == "? Name: ", "without a message, one line as before")
        let confirmation = WaitAlertPrompt.choice(
            WaitAlertChoicePrompt(
                title: "Overwrite?", buttons: [WaitAlertButton("Yes"), WaitAlertButton("No", role: .default)],
                style: .confirmation))
        #expect(StandardInputPrompt.question(confirmation) == "? Overwrite? (y/N) ")
    }

    @Test func aQuestionIsAnEvent() throws {
        let question = EventStreamRenderer.question(Self.choice)
        let event = WaitAlertEvent(.question(question), alert: nil, time: .milliseconds(1204))
        #expect(
            event.jsonLine
                == #"{"v":1,"event":"question","time":1.204,"title":"Upload failed","message":"The server did not answer.","kind":"choice","buttons":["Retry","Skip","Abort"],"default":"Retry"}"#
        )
        let secret = EventStreamRenderer.question(
            .text(WaitAlertTextPrompt(title: "Token:", isSecret: true)))
        #expect(
            WaitAlertEvent(.question(secret), alert: nil, time: .zero).jsonLine
                == #"{"v":1,"event":"question","time":0.000,"title":"Token:","kind":"text","secret":true}"#)
    }

    /// A recording with questions plays: the question is read as an event (nothing is asked
    /// again), its answer is the log line after it.
    @Test func aRecordingWithAQuestionPlays() async throws {
        let recording = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":1,"time":0.000,"title":"Uploading"}
            {"v":1,"event":"question","time":0.800,"title":"Upload failed","message":"No answer.","kind":"choice","buttons":["Retry","Skip"]}
            {"v":1,"event":"log","time":2.100,"line":"? Upload failed: Skip"}
            {"v":1,"event":"end","id":1,"time":2.200,"outcome":"success","text":"Skipped","elapsed":2.200}
            """)
        #expect(recording.skippedLines.isEmpty && recording.eventCount == 4)
        let bed = WaitAlertTestBed(timing: .terminal)
        bed.presenter.promptAnswerer = { _ in Issue.record("nothing is asked") }
        await bed.play(recording)
        #expect(bed.recorder.printed == ["? Upload failed: Skip"])
        #expect(bed.recorder.alert(titled: "Uploading").flatMap(bed.recorder.finalText(of:)) == "Skipped")
    }
}

import Testing
import WaitAlert
import WaitAlertTesting

/// A renderer written against the public protocol alone — the one in `WaitAlertRenderer`'s
/// documentation — is drawn to on every change and sees every text, log line and ending.
@Suite("A renderer from the public API")
@MainActor
struct PublicRendererTests {
    /// The documentation's example: one line per text an alert shows, and its log lines.
    final class TranscriptRenderer: WaitAlertRenderer {
        private(set) var lines: [String] = []
        private var shown: [WaitAlertID: String] = [:]

        func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
            guard snapshot.isOnScreen, shown[alert] != snapshot.text else { return }
            shown[alert] = snapshot.text
            lines.append(snapshot.text)
        }

        func log(_ line: String, from alert: WaitAlertID) {
            lines.append(line)
        }
    }

    @Test func itSeesEveryTextLogLineAndEnding() async throws {
        let transcript = TranscriptRenderer()
        let bed = WaitAlertTestBed(renderers: [transcript])
        let work = bed.start {
            try await withWaitAlert("Uploading…", success: "Uploaded") { alert in
                try await bed.clock.sleep(for: .seconds(1))
                alert.update("Getting there…")
                alert.log("sent 3 files")
                try await bed.clock.sleep(for: .seconds(2))
            }
        }
        try await bed.run(until: work)
        await bed.run()
        // The log line prints at once; the new text waits until the title has been readable.
        #expect(transcript.lines == ["Uploading…", "sent 3 files", "Getting there…", "Uploaded"])
    }

    @Test func itIsNotAnimatedFrameByFrame() async throws {
        // Only the recorder and the transcript: no renderer asks for spinner frames, so the alert
        // wakes for its texts and phases only.
        let transcript = TranscriptRenderer()
        let bed = WaitAlertTestBed(renderers: [transcript])
        let alert = showWaitAlert("Waiting", presenter: bed.presenter)
        await bed.advance(to: .seconds(10))
        let model = try #require(bed.presenter.alerts.first)
        let wakeUps = try #require(bed.presenter.wakeUps(of: model.id))
        #expect(wakeUps < 10, "no wake-up per spinner frame (\(wakeUps))")
        alert.dismiss()
        await bed.run()
        #expect(transcript.lines == ["Waiting"])
    }
}

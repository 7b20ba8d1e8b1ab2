// The Swift examples of the README and of the WaitAlert documentation (WaitAlert.docc) that
// belong on the main actor — and say so — compiled and run as they are written there, on the main
// actor, each inside a test bed's presenter, so nothing is drawn on the test's standard error.
// The examples that work from any isolation run in nonisolated code in
// `NonisolatedArticleExampleTests`. `DocumentationSyncTests` keeps the examples and the tests
// identical.
import Testing
import WaitAlert
import WaitAlertTesting

@Suite("Documentation examples")
@MainActor
struct ArticleExampleTests {
    let bed = WaitAlertTestBed(timing: .immediate)

    @Test func readmeFireAndForget() async {
        await withWaitAlertPresenter(bed.presenter) {
            let alert = showWaitAlert("Syncing…")  // @MainActor
            alert.update("Really…")
            alert.succeed("Synced")  // or fail("…"), warn("…"), inform("…"), cancel(), dismiss()

            showToast("Saved")
        }
        await bed.run()
        #expect(bed.recorder.snapshots.compactMap(\.finalText).contains("Synced"))
        #expect(bed.recorder.texts.contains("Saved"))
    }

    @Test func aModelOnlySharedPresenter() {
        let previous = WaitAlertPresenter.shared
        defer { WaitAlertPresenter.shared = previous }
        WaitAlertPresenter.shared = WaitAlertPresenter(renderers: [])
        #expect(WaitAlertPresenter.shared.alerts.isEmpty)
    }

    @Test func wrappingWorkWithAHandleAndAToast() async {
        await withWaitAlertPresenter(bed.presenter) {
            let alert = showWaitAlert("Syncing…")
            alert.update("Really…")
            alert.succeed("Synced")
            showToast("Saved")
        }
        await bed.run()
        #expect(bed.recorder.texts.contains("Saved"))
    }

    @Test func inATerminalTransientEndings() {
        let previous = WaitAlertPresenter.shared
        defer { WaitAlertPresenter.shared = previous }
        WaitAlertPresenter.shared = WaitAlertPresenter(
            renderers: [TerminalOverlay(ending: .transient)],
            timing: .terminal
        )
        #expect(WaitAlertPresenter.shared.timing == .terminal)
    }

    @Test func inATerminalWhatItWrites() {
        let previous = WaitAlertPresenter.shared
        defer { WaitAlertPresenter.shared = previous }
        WaitAlertPresenter.shared = WaitAlertPresenter(
            renderers: [TerminalOverlay(mode: .json)],
            timing: .terminal
        )
        #expect(WaitAlertPresenter.shared !== previous)
    }

    @Test func inATerminalOptingOut() {
        let previous = WaitAlertPresenter.shared
        defer { WaitAlertPresenter.shared = previous }
        WaitAlertPresenter.shared = WaitAlertPresenter(
            renderers: [TerminalOverlay(integration: .none)],
            timing: .terminal
        )
        #expect(WaitAlertPresenter.shared !== previous)
    }

    /// The model code the SwiftUI view of "Drawing alerts in SwiftUI" uses (the view itself needs
    /// SwiftUI, which Linux does not have).
    @Test func theSwiftUIViewsModelCode() async {
        let presenter = bed.presenter
        let alert = showWaitAlert("Uploading…", presenter: presenter)
        for model in presenter.alerts {
            let snapshot = model.snapshot
            if let outcome = snapshot.outcome, snapshot.phase >= .lingering {
                _ = Self.symbol(for: outcome)
            } else if snapshot.spinnerFrame != nil {
                _ = snapshot.spinnerGlyph
            }
            _ = (snapshot.text, snapshot.opacity, snapshot.scale, snapshot.isOnScreen, model.completion)
        }
        let preview = WaitAlertSnapshot(text: "Uploading…", spinnerFrame: 3, spinnerGlyph: "⠸")
        #expect(preview.isOnScreen)
        #expect(Self.symbol(for: .success(nil)) == "checkmark.circle")
        alert.model.dismiss()
        await bed.run()
        #expect(alert.model.completion?.outcome == .dismissed)
    }

    static func symbol(for outcome: WaitAlertOutcome) -> String {
        switch outcome {
        case .success: "checkmark.circle"
        case .failure: "xmark.octagon"
        case .cancelled, .timedOut, .warning: "exclamationmark.triangle"
        case .info: "info.circle"
        case .dismissed, .skipped: "circle"
        }
    }
}

extension ArticleExampleTests {
    @Test func askingQuestionsInTests() async throws {
        bed.answer("demo")
        bed.choose("Retry")
        bed.confirm(true)
        let work = bed.start {
            let name = try await askText("Name:")
            let choice = try await askChoice("Upload failed", buttons: ["Retry", "Skip"])
            return "\(name) \(choice.title) \(try await confirm("Sure?"))"
        }
        #expect(try await bed.run(until: work) == "demo Retry true")
    }
}

// What the examples call: the user's own work, here ending at once.

struct Upload: Sendable { var bytes: Int }

func upload() async throws -> Upload { Upload(bytes: 2048) }
func fetch(_ name: String) async throws -> String { name }
func fetchAll() async throws -> [String] { ["a.json", "b.json", "c.json"] }
func compress(_ file: String) async throws {}
func resolve() async throws {}
func chunks(of url: String) -> AsyncStream<[UInt8]> {
    AsyncStream { continuation in
        for _ in 0..<3 { continuation.yield([UInt8](repeating: 0, count: 1024)) }
        continuation.finish()
    }
}
@discardableResult func compile(_ target: String) async throws -> String { target + ".o" }

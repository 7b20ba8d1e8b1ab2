// The Swift examples of the README and of the WaitAlert documentation (WaitAlert.docc), compiled
// and run as they are written there — each inside a test bed's presenter, so nothing is drawn on
// the test's standard error. `DocumentationSyncTests` keeps the two identical.
import Testing
import WaitAlert
import WaitAlertTesting

@Suite("Documentation examples")
@MainActor
struct ArticleExampleTests {
    let bed = WaitAlertTestBed(timing: .immediate)

    @Test func readmeUpload() async throws {
        let bytes = try await withWaitAlertPresenter(bed.presenter) {
            let picture = try await withWaitAlert("Uploading picture…") { alert in
                alert.update("Getting there…")  // from any task or thread, at any rate
                let result = try await upload()
                alert.log("uploaded \(result.bytes) bytes")
                alert.update("Just about there…")
                return result
            }
            return picture.bytes
        }
        #expect(bytes == 2048)
        #expect(bed.recorder.logs == ["uploaded 2048 bytes"])
    }

    @Test func overviewUpload() async throws {
        try await withWaitAlertPresenter(bed.presenter) {
            let picture = try await withWaitAlert("Uploading picture…") { alert in
                alert.update("Getting there…")
                let result = try await upload()
                alert.update("Just about there…")
                return result
            }
            #expect(picture.bytes == 2048)
        }
    }

    @Test func readmeFireAndForget() async {
        await withWaitAlertPresenter(bed.presenter) {
            let alert = showWaitAlert("Syncing…")  // @MainActor
            alert.update("Really…")
            alert.succeed("Synced")  // or fail("…"), cancel(), dismiss()

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

    @Test func wrappingWorkFetchesFiles() async throws {
        let report = try await withWaitAlertPresenter(bed.presenter) {
            let report = try await withWaitAlert("Fetching files…") { alert in
                var fetched: [String] = []
                for name in ["a.json", "b.json", "c.json"] {
                    alert.update("Fetching \(name)…")
                    fetched.append(try await fetch(name))
                    alert.log("fetched \(name)")
                }
                return fetched
            }
            return report
        }
        #expect(report == ["a.json", "b.json", "c.json"])
        #expect(bed.recorder.logs == ["fetched a.json", "fetched b.json", "fetched c.json"])
    }

    @Test func wrappingWorkReportsFromChildTasks() async throws {
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Compressing…") { alert in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for file in ["one.txt", "two.txt"] {
                        group.addTask {
                            alert.update("Compressing \(file)…")
                            try await compress(file)
                            alert.log("compressed \(file)")
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
        #expect(Set(bed.recorder.logs) == ["compressed one.txt", "compressed two.txt"])
    }

    @Test func wrappingWorkComputesItsEndings() async throws {
        let count = try await withWaitAlertPresenter(bed.presenter) {
            // swift-format-ignore: OnlyOneTrailingClosureArgument
            let files = try await withWaitAlert(
                "Fetching files…",
                success: { files in "Fetched \(files.count) files" },
                failure: { error in "Could not fetch the files: \(error)" }
            ) { _ in try await fetchAll() }
            return files.count
        }
        #expect(count == 3)
        #expect(bed.recorder.snapshots.compactMap(\.finalText).contains("Fetched 3 files"))
    }

    @Test func wrappingWorkWithATimeout() async throws {
        try await withWaitAlertPresenter(bed.presenter) {
            do {
                try await withWaitAlert("Uploading…", timeout: .seconds(30)) { _ in try await upload() }
            } catch is WaitAlertTimeoutError {
                print("The upload took too long.")
            }
        }
        #expect(bed.recorder.latest?.outcome == .success("Uploading"), "the upload ends at once here")
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
        let overlay = TerminalOverlay(integration: .none)
        #expect(overlay.ending == .persistent)
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

    // MARK: - Many tasks in one region

    @Test func readmeBuilding() async throws {
        let targets = ["Core", "UI", "CLI"]
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Building") { build in
                await build.plan(["Resolving packages", "Compiling", "Testing"])
                try await build.step("Resolving packages") { _ in try await resolve() }
                try await build.step("Compiling") { compiling in
                    try await compiling.tasks(for: targets, policy: .keepGoing, maxConcurrency: 8) { target in
                        "Compiling \(target)"
                    } operation: { target, row in
                        row.update("\(target): 12/40 files")
                        try await compile(target)
                    }
                }
                await build.skipStep("Testing", reason: "no test target")
            }
        }
        await bed.run()
        let finals = bed.recorder.snapshots.compactMap(\.finalText)
        #expect(finals.contains("Compiling CLI") && finals.contains("Testing: skipped (no test target)"))
    }

    @Test func manyTasksTaskGroup() async throws {
        let targets = ["Core", "UI"]
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Building") { build in
                try await build.step("Resolving packages") { _ in try await resolve() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for target in targets {
                        group.addTask {
                            try await build.task("Compiling \(target)") { row in
                                row.update("\(target): 12/40 files")
                                try await compile(target)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
        await bed.run()
        #expect(bed.recorder.snapshots.compactMap(\.finalText).contains("Compiling UI"))
    }

    @Test func manyTasksPolicy() async throws {
        let targets = ["Core", "UI"]
        let objects = try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Building") { build in
                let objects = try await build.tasks(for: targets, policy: .keepGoing, maxConcurrency: 8) { target in
                    "Compiling \(target)"
                } operation: { target, row in
                    try await compile(target)
                }
                return objects
            }
        }
        #expect(objects == ["Core.o", "UI.o"])
        await bed.run()
    }

    @Test func manyTasksPlannedAndSkipped() async throws {
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Deploying") { deploy in
                await deploy.plan(["Building", "Testing", "Uploading"])
                try await deploy.step("Building") { _ in try await compile("App") }
                await deploy.skipStep("Testing", reason: "no test target")
                try await deploy.step("Uploading") { _ in _ = try await upload() }
            }
        }
        await bed.run()
        #expect(bed.recorder.snapshots.compactMap(\.finalText).contains("Testing: skipped (no test target)"))
    }

    @Test func manyTasksRetention() async throws {
        let url = "https://example.com/a.json"
        _ = try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Building") { build in
                try await build.task("Fetching \(url)", retention: .transient) { _ in try await fetch(url) }
            }
        }
        await bed.run()
        #expect(bed.recorder.snapshots.contains { $0.retention == .transient })
    }

    @Test func readmeProgress() async throws {
        let size = 3 * 1024
        let url = "https://example.com/a.bin"
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Downloading") { alert in
                alert.progress(completed: 0, total: size, unit: .bytes)
                for try await chunk in chunks(of: url) {
                    alert.advance(by: chunk.count)
                }
            }
        }
        await bed.run()
        #expect(bed.recorder.snapshots.last { $0.progress != nil }?.progress?.completed == size)
    }

    static func symbol(for outcome: WaitAlertOutcome) -> String {
        switch outcome {
        case .success: "checkmark.circle"
        case .failure: "xmark.octagon"
        case .cancelled, .timedOut: "exclamationmark.triangle"
        case .dismissed, .skipped: "circle"
        }
    }
}

// What the examples call: the user's own work, here ending at once.

extension ArticleExampleTests {
    @Test func printingThroughThePresenter() async throws {
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Syncing") { alert in
                let changed = try await sync()
                WaitAlertPresenter.current.print("\(changed) files changed")
            }
        }
        #expect(bed.recorder.printed == ["3 files changed"])
    }

    @Test func suspendingToAsk() async throws {
        let proceed = try await withWaitAlertPresenter(bed.presenter) {
            let proceed = try await withWaitAlert("Deploying") { alert in
                try await prepare()
                return await WaitAlertPresenter.current.withAlertsSuspended {
                    askUser("Continue? [y/N] ") == "y"  // print the question, then readLine()
                }
            }
            return proceed
        }
        #expect(proceed)
        let events = bed.recorder.events.filter { $0 == .suspended || $0 == .resumed }
        #expect(events == [.suspended, .resumed])
    }

    @Test func followingACompiler() async throws {
        let compiler = Compiler(output: (1...12).map { "line \($0)" }, exitStatus: 1)
        await #expect(throws: BuildFailed.self) {
            try await withWaitAlertPresenter(bed.presenter) {
                try await withWaitAlert("Building") { alert in
                    try await alert.follow(lines: compiler.outputLines)
                    guard await compiler.status == 0 else { throw BuildFailed() }  // the last 10 lines show
                }
            }
        }
        #expect(bed.recorder.logs == (3...12).map { "line \($0)" })
        #expect(bed.recorder.texts.contains("line 12"))
    }
}

extension ArticleExampleTests {
    @Test func askingQuestions() async throws {
        bed.answer("")
        bed.choose("Skip")
        bed.confirm(true)
        let work = bed.start {
            let name = try await askText("Name of the new project:", default: "demo")
            let choice = try await askChoice(
                "Upload failed", message: "Server unreachable",
                buttons: [WaitAlertButton("Retry", role: .default), "Skip", WaitAlertButton("Abort", role: .cancel)])
            if try await confirm("Overwrite 3 files?", default: false) { try overwrite() }
            return "\(name) \(choice.index) \(choice.title)"
        }
        #expect(try await bed.run(until: work) == "demo 1 Skip")
        bed.expectEveryAnswerUsed()
    }

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

private func overwrite() throws {}
private func sync() async throws -> Int { 3 }
private func prepare() async throws {}
private func askUser(_ question: String) -> String { "y" }
private struct BuildFailed: Error {}

/// A compiler's output lines and exit status, for the examples.
private actor Compiler {
    let output: [String]
    private var exitStatus: Int32

    init(output: [String], exitStatus: Int32) {
        self.output = output
        self.exitStatus = exitStatus
    }

    /// The exit status, once the output has ended.
    var status: Int32 { exitStatus }

    nonisolated var outputLines: AsyncStream<String> {
        let output = output
        return AsyncStream { continuation in
            for line in output { continuation.yield(line) }
            continuation.finish()
        }
    }
}

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

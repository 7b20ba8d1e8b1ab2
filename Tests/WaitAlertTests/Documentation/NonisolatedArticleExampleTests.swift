// The Swift examples of the README and of the WaitAlert documentation that work from any
// isolation, compiled and run as they are written there in nonisolated code — where a reader who
// pastes them into an `AsyncParsableCommand`'s `run()` or another nonisolated async function
// compiles them — each inside a test bed's presenter, so nothing is drawn on the test's standard
// error. The examples that belong on the main actor are in `ArticleExampleTests`, and say so.
// `DocumentationSyncTests` keeps the examples and the tests identical.
import Testing
import WaitAlert
import WaitAlertTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Documentation examples, nonisolated")
struct NonisolatedArticleExampleTests {
    @Test func readmeUpload() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        #expect(await bed.recorder.logs == ["uploaded 2048 bytes"])
    }

    @Test func overviewUpload() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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

    @Test func wrappingWorkFetchesFiles() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        #expect(await bed.recorder.logs == ["fetched a.json", "fetched b.json", "fetched c.json"])
    }

    @Test func wrappingWorkReportsFromChildTasks() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        #expect(Set(await bed.recorder.logs) == ["compressed one.txt", "compressed two.txt"])
    }

    @Test func wrappingWorkComputesItsEndings() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        #expect(await bed.recorder.snapshots.compactMap(\.finalText).contains("Fetched 3 files"))
    }

    @Test func wrappingWorkWithATimeout() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
        try await withWaitAlertPresenter(bed.presenter) {
            do {
                try await withWaitAlert("Uploading…", timeout: .seconds(30)) { _ in try await upload() }
            } catch is WaitAlertTimeoutError {
                print("The upload took too long.")
            }
        }
        #expect(await bed.recorder.latest?.outcome == .success("Uploading"), "the upload ends at once here")
    }

    @Test func readmeBuilding() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        let finals = await bed.recorder.snapshots.compactMap(\.finalText)
        #expect(finals.contains("Compiling CLI") && finals.contains("Testing: skipped (no test target)"))
    }

    @Test func manyTasksTaskGroup() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        #expect(await bed.recorder.snapshots.compactMap(\.finalText).contains("Compiling UI"))
    }

    @Test func manyTasksPolicy() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        let bed = await WaitAlertTestBed(timing: .immediate)
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Deploying") { deploy in
                await deploy.plan(["Building", "Testing", "Uploading"])
                try await deploy.step("Building") { _ in try await compile("App") }
                await deploy.skipStep("Testing", reason: "no test target")
                try await deploy.step("Uploading") { _ in _ = try await upload() }
            }
        }
        await bed.run()
        #expect(await bed.recorder.snapshots.compactMap(\.finalText).contains("Testing: skipped (no test target)"))
    }

    @Test func manyTasksRetention() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
        let url = "https://example.com/a.json"
        _ = try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Building") { build in
                try await build.task("Fetching \(url)", retention: .transient) { _ in try await fetch(url) }
            }
        }
        await bed.run()
        #expect(await bed.recorder.snapshots.contains { $0.retention == .transient })
    }

    @Test func readmeProgress() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        #expect(await bed.recorder.snapshots.last { $0.progress != nil }?.progress?.completed == size)
    }

    @Test func readmeProgressOfALoop() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
        let size = 3 * 1024
        let url = "https://example.com/a.bin"
        let pictures = ["a.jpg", "b.jpg", "c.jpg"]
        func resize(_ picture: String) async throws {}
        func save(_ chunk: [UInt8]) throws {}
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Resizing pictures…") { alert in
                for picture in pictures.reportingProgress(to: alert) {  // 3/10 while the fourth is resized
                    try await resize(picture)
                }
            }
            try await withWaitAlert("Downloading") { alert in
                for try await chunk in chunks(of: url).reportingProgress(to: alert, total: size) {
                    try save(chunk)  // counted in bytes as the chunks come
                }
            }
        }
        await bed.run()
        let ends = await bed.recorder.snapshots.filter { $0.outcome != nil }.compactMap(\.progress)
        #expect(ends.map(\.completed).contains(3) && ends.map(\.completed).contains(size))
    }

    @Test func printingThroughThePresenter() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Syncing") { alert in
                let changed = try await sync()
                await WaitAlertPresenter.current.print("\(changed) files changed")  // the presenter is @MainActor
            }
        }
        #expect(await bed.recorder.printed == ["3 files changed"])
    }

    @Test func suspendingToAsk() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
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
        let events = await bed.recorder.events.filter { $0 == .suspended || $0 == .resumed }
        #expect(events == [.suspended, .resumed])
    }

    @Test func askingQuestions() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
        await bed.answer("")
        await bed.choose("Skip")
        await bed.confirm(true)
        let summary = try await withWaitAlertPresenter(bed.presenter) {
            let name = try await askText("Name of the new project:", default: "demo")
            let choice = try await askChoice(
                "Upload failed", message: "Server unreachable",
                buttons: [WaitAlertButton("Retry", role: .default), "Skip", WaitAlertButton("Abort", role: .cancel)])
            if try await confirm("Overwrite 3 files?", default: false) { try overwrite() }
            return "\(name) \(choice.index) \(choice.title)"
        }
        #expect(summary == "demo 1 Skip")
        await bed.expectEveryAnswerUsed()
    }

    /// "Running commands" and the README: `tar` under an alert, `grep`'s status taken as an
    /// answer, `gzip` in rows — real commands on real files.
    @Test func runningCommands() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
        let scratch = try Scratch(["a.txt": "TODO: more tests\n", "b.txt": "done\n"])
        defer { scratch.remove(["a.txt.gz", "b.txt.gz"], archive: "files.tar") }
        let (folder, archive) = (scratch.folder, scratch.path + "/files.tar")
        _ = try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Archiving", success: "Archived") { alert in
                try await alert.run("tar", "-c", "-v", "-f", archive, "-C", folder, ".")
            }
        }
        #expect(scratch.exists("files.tar"))
        for path in [folder + "/a.txt", folder + "/b.txt"] {
            try await withWaitAlertPresenter(bed.presenter) {
                try await withWaitAlert("Checking") { alert in
                    do {
                        try await alert.run("grep", "-q", "TODO", path)
                        alert.warn("\(path) still has a TODO")
                    } catch let error as WaitAlertCommandError where error.reason == .exited(1) {
                        // grep found none: nothing to say
                    }
                }
            }
        }
        let checks = await bed.recorder.snapshots.compactMap(\.finalText).filter { $0.contains("TODO") }
        #expect(checks == [folder + "/a.txt still has a TODO"])
        let files = [folder + "/a.txt", folder + "/b.txt"]
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Compressing") { alert in
                _ = try await alert.tasks(for: files, maxConcurrency: 4) { file in
                    "Compressing \(file)"
                } operation: { file, row in
                    try await row.run("gzip", "-k", "-f", file)
                }
            }
        }
        #expect(scratch.exists("files/a.txt.gz") && scratch.exists("files/b.txt.gz"))
    }

    /// "Printing around alerts": following lines that are not a command's.
    @Test func followingLines() async throws {
        let bed = await WaitAlertTestBed(timing: .immediate)
        let deployLog = DeployLog(lines: ["uploading", "restarting", "deployed"])
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Deploying") { alert in
                let tail = try await alert.follow(lines: deployLog.lines, keeping: 5)
                guard tail.last == "deployed" else { throw DeployFailed() }
            }
        }
        #expect(await bed.recorder.texts.contains("deployed"))
    }
}

// What the examples call: the user's own work, here ending at once.

/// A log being written, as lines.
private struct DeployLog {
    let lines: AsyncStream<String>

    init(lines: [String]) {
        self.lines = AsyncStream { continuation in
            for line in lines { continuation.yield(line) }
            continuation.finish()
        }
    }
}

private struct DeployFailed: Error {}

/// A folder of files under the system's temporary folder, for commands to work on.
private struct Scratch {
    let path: String
    var folder: String { path + "/files" }
    private let names: [String]

    init(_ files: [String: String]) throws {
        var template = Array("/tmp/wait-alert-docs-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ScratchError() }
        path = String(cString: made)
        names = Array(files.keys)
        guard mkdir(path + "/files", 0o700) == 0 else { throw ScratchError() }
        for (name, contents) in files {
            let descriptor = open(path + "/files/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard descriptor >= 0 else { throw ScratchError() }
            defer { close(descriptor) }
            let bytes = Array(contents.utf8)
            guard write(descriptor, bytes, bytes.count) == bytes.count else { throw ScratchError() }
        }
    }

    func exists(_ name: String) -> Bool {
        access(path + "/" + name, F_OK) == 0
    }

    /// Removes the files made, `made` besides them in the folder, `archive` beside the folder.
    func remove(_ made: [String], archive: String) {
        for name in names + made { unlink(folder + "/" + name) }
        unlink(path + "/" + archive)
        rmdir(folder)
        rmdir(path)
    }
}

private struct ScratchError: Error {}

private func overwrite() throws {}
private func sync() async throws -> Int { 3 }
private func prepare() async throws {}
private func askUser(_ question: String) -> String { "y" }

import Testing
import WaitAlert
import WaitAlertTesting

/// One alert's texts, snapshots and log lines, apart from its child tasks' rows.
@Suite("Recording renderer")
@MainActor
struct RecordingRendererTests {
    /// A group with two child tasks: `texts` interleaves the rows, `texts(of:)` keeps one alert's.
    @Test func oneAlertsTextsLeaveItsChildTasksOut() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        try await withWaitAlertPresenter(bed.presenter) {
            try await withWaitAlert("Building", success: "Built") { build in
                build.log("starting")
                try await build.task("Compiling Core") { row in
                    row.update("Core: 3/3 files")
                    row.log("compiled Core")
                }
                try await build.task("Compiling UI") { _ in }
                build.update("Linking")
            }
        }
        await bed.run()
        let recorder = bed.recorder
        #expect(recorder.texts.contains("Compiling Core") && recorder.texts.contains("Building"))
        let build = try #require(recorder.alert(titled: "Building"))
        let core = try #require(recorder.alert(titled: "Compiling Core"))
        let ui = try #require(recorder.alert(titled: "Compiling UI"))
        #expect(recorder.alerts == [build, core, ui])
        #expect(recorder.texts(of: build) == ["Building", "Linking"])
        #expect(recorder.texts(of: core) == ["Compiling Core", "Core: 3/3 files"])
        #expect(recorder.finalText(of: build) == "Built")
        #expect(recorder.finalText(of: core) == "Compiling Core")
        #expect(recorder.logs(of: build) == ["starting"])
        #expect(recorder.logs(of: core) == ["compiled Core"])
        #expect(recorder.logs == ["starting", "compiled Core"])
        #expect(recorder.snapshots(of: core).allSatisfy { $0.parent == build })
        #expect(recorder.snapshots.count == recorder.alerts.map { recorder.snapshots(of: $0).count }.reduce(0, +))
    }

    /// An alert is found by the text it began with, not by a text it shows later; a title nobody
    /// used finds nothing.
    @Test func anAlertIsFoundByItsTitle() async throws {
        let bed = WaitAlertTestBed(timing: .immediate)
        let first = showWaitAlert("Syncing…", presenter: bed.presenter)
        first.update("Uploading…")
        let second = showWaitAlert("Uploading…", presenter: bed.presenter)
        #expect(bed.recorder.finalText(of: first.model.id) == nil, "not ended yet")
        first.succeed()
        second.succeed()
        await bed.run()
        #expect(bed.recorder.alert(titled: "Syncing…") == first.model.id)
        #expect(bed.recorder.alert(titled: "Uploading…") == second.model.id)
        #expect(bed.recorder.alert(titled: "Downloading…") == nil)
    }
}

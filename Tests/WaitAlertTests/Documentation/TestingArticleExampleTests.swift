// The examples of the WaitAlertTesting documentation (WaitAlertTesting.docc), compiled and run as
// they are written there; `DocumentationSyncTests` keeps the two identical.
import Testing
import WaitAlert
import WaitAlertTesting

@Test @MainActor func showsProgress() async throws {
    let bed = WaitAlertTestBed()
    let work = bed.start {
        try await withWaitAlert("Loading…", presenter: bed.presenter) { alert in
            try await bed.clock.sleep(for: .seconds(2))
            alert.update("Almost there…")
            try await bed.clock.sleep(for: .seconds(1))
            return 42
        }
    }
    await bed.advance(by: .seconds(1))
    #expect(bed.recorder.latest?.text == "Loading…")
    await bed.advance(by: .seconds(1))
    #expect(bed.recorder.texts == ["Loading…", "Almost there…"])
    #expect(try await bed.run(until: work) == 42)
}

func indexDocuments(_ paths: [String]) async throws -> Int {
    try await withWaitAlert("Indexing…", success: "Indexed") { alert in
        var words = 0
        for path in paths {
            alert.update("Indexing \(path)…")
            words += try await index(path)  // reads the file: real I/O
            alert.log("indexed \(path)")
        }
        return words
    }
}

@Test @MainActor func indexingLogsEachDocument() async throws {
    let bed = WaitAlertTestBed(timing: .immediate)
    let words = try await withWaitAlertPresenter(bed.presenter) {
        try await indexDocuments(["README.md", "CHANGELOG.md"])
    }
    await bed.run()  // every alert to its end
    #expect(words > 0)
    let indexing = try #require(bed.recorder.alert(titled: "Indexing…"))
    #expect(bed.recorder.logs(of: indexing) == ["indexed README.md", "indexed CHANGELOG.md"])
    #expect(bed.recorder.finalText(of: indexing) == "Indexed")
}

/// The words of a file of this repository: real I/O, never on a test bed's clock.
private func index(_ path: String) async throws -> Int {
    struct Missing: Error {}
    guard let text = readRepositoryFile(path) else { throw Missing() }
    return text.split(whereSeparator: \.isWhitespace).count
}

@Test @MainActor func importShowsEachStep() async throws {
    let bed = WaitAlertTestBed()
    let work = bed.start {
        try await withWaitAlert("Importing…", presenter: bed.presenter) { alert in
            for step in 1...3 {
                try await bed.clock.sleep(for: .seconds(1))
                alert.update("Imported \(step) of 3")
                alert.log("file \(step) imported")
            }
            return 3
        }
    }
    await bed.advance(by: .seconds(3))
    #expect(bed.recorder.logs == ["file 1 imported", "file 2 imported", "file 3 imported"])
    #expect(try await bed.run(until: work) == 3)
    await bed.run()  // the last text's minimum, the final message, the fade-out
    #expect(bed.recorder.texts.last == "Importing")
}

@Test @MainActor func theFinalLineStays() async throws {
    let terminal = InMemoryTerminal(columns: 40, rows: 10)
    let bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, integration: .none)])
    let work = bed.start {
        try await withWaitAlert("Uploading…", presenter: bed.presenter) { _ in
            try await bed.clock.sleep(for: .seconds(2))
        }
    }
    await bed.advance(by: .seconds(1))
    #expect(terminal.lines.count == 1 && terminal.lines[0].hasSuffix(" Uploading…"))
    try await bed.run(until: work)
    #expect(terminal.lines == ["✔ Uploading (2.0s)"])
}

@Test @MainActor func aCapturedStreamEndsWithItsFailure() async {
    let captured = """
        {"v":1,"event":"start","id":1,"time":0.000,"title":"Building"}
        {"v":1,"event":"text","id":1,"time":1.000,"text":"Linking…"}
        {"v":1,"event":"end","id":1,"time":2.000,"outcome":"failure","text":"Building: exit status 1"}
        """
    let terminal = InMemoryTerminal(columns: 40, rows: 10)
    let bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, integration: .none)])
    await bed.play(WaitAlertRecording(captured))
    #expect(bed.recorder.texts(of: bed.recorder.alerts[0]).contains("Linking…"))
    #expect(terminal.lines == ["✖ Building: exit status 1"])
}

@Test @MainActor func aTimeoutEndsTheAlert() async throws {
    let bed = WaitAlertTestBed(timing: try .default.withTimeout(.seconds(5)))
    let gate = TestGate()
    let work = bed.start {
        try await withWaitAlert("Syncing…", presenter: bed.presenter) { _ in try await gate.wait() }
    }
    await #expect(throws: WaitAlertTimeoutError.self) { try await bed.run(until: work) }
    #expect(bed.recorder.latest?.finalText == "Syncing: timed out after 5.0s")
}

@Suite(.testBedAttachments)
@MainActor
struct UploadTests {
    @Test func theUploadEndsWithItsFinalLine() async throws {
        let terminal = InMemoryTerminal(columns: 40, rows: 10)
        let bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, integration: .none)])
        let work = bed.start {
            try await withWaitAlert("Uploading…", presenter: bed.presenter) { alert in
                try await bed.clock.sleep(for: .seconds(2))
                alert.log("sent notes.txt")
            }
        }
        try await bed.run(until: work)
        #expect(terminal.lines == ["sent notes.txt", "✔ Uploading (2.0s)"])
    }
}

@Test func aSleeperWakesAtItsDeadline() async throws {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await sleeper.value
    #expect(clock.now == .init(offset: .seconds(1)))
}

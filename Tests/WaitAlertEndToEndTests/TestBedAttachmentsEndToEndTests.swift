// Runs this test binary again (/proc/self/exe), as swift test runs it on Linux.
#if os(Linux)
    import Foundation
    import Testing
    import WaitAlert
    import WaitAlertTesting

    extension EndToEnd {
        /// A failing test that uses a test bed leaves what the bed showed as files: this test
        /// binary runs ``TestBedAttachmentFixture`` with `--attachments-path`, as
        /// `swift test --attachments-path DIR` runs it, and the files are read back.
        @Suite
        struct TestBedAttachmentsEndToEndTests {
            /// The fixture's failing tests leave their beds' files, named after them, and its
            /// passing test and its failure outside the trait leave none.
            @Test func aFailingTestLeavesWhatItsBedShowed() async throws {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "wait-alert-attachments-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let run = try Self.runFixture(attachingTo: folder.path)
                #expect(run.status == 1, "the fixture fails\n\(run.output)")
                #expect(run.output.contains("Attached 'aFailingExpectation.wait-alert-screen.txt'"), "\(run.output)")

                let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                #expect(
                    files == [
                        "aFailingExpectation.wait-alert-events.ndjson",
                        "aFailingExpectation.wait-alert-recorded.txt",
                        "aFailingExpectation.wait-alert-screen.txt",
                        "aPromptNobodyScripted.wait-alert-events.ndjson",
                        "aPromptNobodyScripted.wait-alert-recorded.txt",
                    ], "\(run.output)")
                func read(_ name: String) -> String {
                    (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
                }
                let events = read("aFailingExpectation.wait-alert-events.ndjson").split(separator: "\n")
                #expect(events.count == 3, "start, log, end: \(events)")
                for line in events {
                    let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    #expect(event?["v"] as? Int == 1, "a JSON event: \(line)")
                }
                #expect(
                    events.first?.contains(#""event":"start""#) == true && events.first?.contains("Uploading…") == true)
                #expect(events.last?.contains(#""outcome":"success""#) == true, "\(events)")
                #expect(read("aFailingExpectation.wait-alert-recorded.txt").contains(#"logged "sent notes.txt""#))
                #expect(read("aFailingExpectation.wait-alert-screen.txt").contains("|✔ Uploading (2.0s)"))
                #expect(read("aPromptNobodyScripted.wait-alert-recorded.txt").contains(#""Cleaning…""#))
            }

            /// Runs this test binary on the fixture, with `--attachments-path folder`.
            static func runFixture(attachingTo folder: String) throws -> (status: Int32, output: String) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
                process.arguments = [
                    "--testing-library", "swift-testing", "--filter", "TestBedAttachmentFixture",
                    "--attachments-path", folder,
                ]
                process.environment = ProcessInfo.processInfo.environment.merging([
                    AttachmentFixtureRuns.variable: "1"
                ]) { $1 }
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                process.standardInput = FileHandle.nullDevice
                try process.run()
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, String(decoding: output, as: UTF8.self))
            }
        }
    }

    /// Whether the fixture runs: with `WAIT_ALERT_ATTACHMENT_FIXTURE` set.
    enum AttachmentFixtureRuns {
        static let variable = "WAIT_ALERT_ATTACHMENT_FIXTURE"
        static var isOn: Bool { ProcessInfo.processInfo.environment[variable] != nil }
    }

    /// Tests that fail on purpose, for ``EndToEnd/TestBedAttachmentsEndToEndTests``: they run only
    /// when it runs them, with `WAIT_ALERT_ATTACHMENT_FIXTURE` set.
    @Suite(
        .testBedAttachments,
        .enabled(
            if: AttachmentFixtureRuns.isOn,
            "fails on purpose; TestBedAttachmentsEndToEndTests runs it"))
    @MainActor
    struct TestBedAttachmentFixture {
        /// A bed on a terminal, and an expectation on its screen that fails.
        @Test func aFailingExpectation() async throws {
            let terminal = InMemoryTerminal(columns: 40, rows: 6)
            let bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, integration: .none)])
            let work = bed.start {
                try await withWaitAlert("Uploading…", presenter: bed.presenter) { alert in
                    try await bed.clock.sleep(for: .seconds(2))
                    alert.log("sent notes.txt")
                }
            }
            try await bed.run(until: work)
            #expect(terminal.lines == ["✔ Uploaded"])  // it says "✔ Uploading (2.0s)"
        }

        /// A passing test attaches nothing.
        @Test func aPassingTest() async throws {
            let bed = WaitAlertTestBed(timing: .immediate)
            try await withWaitAlert("Checking…", presenter: bed.presenter) { _ in }
            await bed.run()
            #expect(bed.recorder.alert(titled: "Checking…") != nil)
        }
    }

    /// The fixture's tests outside `.testBedAttachments`: a bed's own issue attaches by itself; a
    /// failing expectation does not.
    @Suite(
        .enabled(
            if: AttachmentFixtureRuns.isOn,
            "fails on purpose; TestBedAttachmentsEndToEndTests runs it"))
    @MainActor
    struct TestBedAttachmentFixtureWithoutTheTrait {
        /// The code asks a question the test did not script an answer for: the bed records an
        /// issue, and attaches what it showed.
        @Test func aPromptNobodyScripted() async throws {
            let bed = WaitAlertTestBed(timing: .immediate)
            let work = bed.start {
                try await withWaitAlert("Cleaning…", presenter: bed.presenter) { _ in
                    try await confirm("Delete 3 files?", presenter: bed.presenter)
                }
            }
            _ = try? await bed.run(until: work)
        }

        /// Without the trait, a failing expectation leaves no file.
        @Test func aFailingExpectationOutsideTheTrait() async throws {
            let bed = WaitAlertTestBed(timing: .immediate)
            try await withWaitAlert("Checking…", presenter: bed.presenter) { _ in }
            await bed.run()
            #expect(bed.recorder.texts == ["Checked"])
        }
    }
#endif

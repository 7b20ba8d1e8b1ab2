// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Foundation
    import Testing
    import WaitAlertTesting

    extension EndToEnd {
        /// Questions asked with a line (`ACCESSIBLE=1`) and in the event stream
        /// (`WAIT_ALERT_PROGRESS=json`): their message shows, and they are asked once.
        @Suite(.serialized)
        struct QuestionLinesEndToEndTests {
            /// The prompt demo's choice comes with a message, while its alert changes its text: the
            /// question shows with its message, once, while it waits (the alert's line waits
            /// too), and the alert's text follows the answer.
            @Test func anAccessibleQuestionIsAskedOnceWithItsMessage() async throws {
                let demo = try DemoProcess(["prompt"], environment: ["ACCESSIBLE": "1", "NO_COLOR": "1"])
                try await demo.waitFor(text: "? Name of the new project: (demo)")
                try demo.type("demo-app\r")
                try await demo.waitFor(text: "1) Retry 2) Skip 3) Abort")
                // The alert's new text is due 3 s after its first: it would break the question.
                try await Task.sleep(for: .seconds(4))
                demo.pump()
                let asked = AccessibleModeEndToEndTests.lines(demo.output)
                #expect(asked.count { $0.hasPrefix("? Upload failed") } == 1, "\(asked)")
                #expect(!asked.contains("Server unreachable, waiting for an answer"), "it waits: \(asked)")
                let question = try #require(asked.firstIndex(of: "? Upload failed"), "\(asked)")
                #expect(
                    Array(asked[question...].prefix(3))
                        == ["? Upload failed", "  The server did not answer.", "  1) Retry 2) Skip 3) Abort "],
                    "\(asked)")
                try demo.type("2\r")
                try await demo.waitFor(text: "(y/N)")
                try demo.type("n\r")
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                let lines = AccessibleModeEndToEndTests.lines(demo.output)
                let record = try #require(lines.firstIndex(of: "? Upload failed: Skip"), "\(lines)")
                let text = try #require(lines.firstIndex(of: "Server unreachable, waiting for an answer"), "\(lines)")
                #expect(record < text, "the record first, then what waited: \(lines)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// In the event stream, a question is an event of its own, with its message and its
            /// buttons, and its answer the log line a terminal keeps.
            @Test func aQuestionIsAnEventOfTheStream() async throws {
                let demo = try DemoProcess(["prompt"], environment: ["WAIT_ALERT_PROGRESS": "json"])
                // Each question is typed at once it shows: its event, then its line on the terminal.
                try await demo.waitFor(text: #""event":"question""#)
                try await demo.waitFor(text: "? Name of the new project: (demo)")
                try demo.type("\r")
                try await demo.waitFor(text: #""title":"Upload failed""#)
                try await demo.waitFor(text: "Server unreachable")  // an event while the question waits
                try await demo.waitFor(text: "3) Abort")
                try demo.type("2\r")
                try await demo.waitFor(text: #""kind":"confirmation""#)
                try await demo.waitFor(text: "(y/N)")
                try demo.type("\r")
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                let events = demo.text.split(whereSeparator: \.isNewline).compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                }
                let glued = demo.text.split(whereSeparator: \.isNewline).filter {
                    $0.contains(#"{"v":1"#) && !$0.hasPrefix(#"{"v":1"#)
                }
                #expect(glued.isEmpty, "every event a line of its own, under a question too: \(glued)")
                let questions = events.filter { $0["event"] as? String == "question" }
                #expect(questions.count == 3, "\(questions)")
                let choice = try #require(questions.first { $0["title"] as? String == "Upload failed" })
                #expect(choice["message"] as? String == "The server did not answer.")
                #expect(choice["kind"] as? String == "choice")
                #expect(choice["buttons"] as? [String] == ["Retry", "Skip", "Abort"])
                let text = try #require(questions.first)
                #expect(text["kind"] as? String == "text" && text["default"] as? String == "demo", "\(text)")
                let confirmation = try #require(questions.last)
                #expect(confirmation["default"] as? String == "No", "\(confirmation)")
                let logs = events.compactMap { $0["event"] as? String == "log" ? $0["line"] as? String : nil }
                #expect(logs.contains("? Upload failed: Skip"), "\(logs)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }
        }
    }
#endif

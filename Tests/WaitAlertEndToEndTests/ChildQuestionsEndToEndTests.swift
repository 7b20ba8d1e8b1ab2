// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// A program built on WaitAlert asking questions while it reports into another program's
        /// alert (`WAIT_ALERT_SOCKET`): under `wait-alert`, and under a program built on WaitAlert
        /// (`wait-alert-demo prompt --nested`). The program showing the alerts owns the terminal and
        /// asks them there; the answers typed reach the child, in every mode.
        @Suite(.serialized)
        struct ChildQuestionsEndToEndTests {
            private typealias Command = WaitAlertCommandEndToEndTests

            /// Answers the demo's three questions (`prompt`) with the keyboard wherever they show.
            private static func answerTheThreeQuestions(_ tool: DemoProcess, lines: Bool) async throws {
                try await tool.waitFor(text: "? Name of the new project:")
                try tool.type("photos\r")
                try await tool.waitFor(text: "? Upload failed")
                try tool.type(lines ? "2\r" : "2")
                try await tool.waitFor(text: "? Overwrite 3 files?")
                try tool.type(lines ? "y\r" : "y")
            }

            /// `wait-alert --show-output always -- wait-alert-demo prompt` in each mode: every
            /// question shows, takes the keys typed, and the child gets the typed answers — not its
            /// defaults (`demo`, Retry, No).
            @Test(arguments: ["auto", "plain", "accessible", "json"])
            func questionsOfACommandUnderWaitAlert(mode: String) async throws {
                let tool = try DemoProcess(
                    ["--show-output", "always", "--title", "Outer", "--", try DemoProcess.executable.get(), "prompt"],
                    environment: ["WAIT_ALERT_PROGRESS": mode], program: try Command.executable())
                try await Self.answerTheThreeQuestions(tool, lines: mode != "auto")
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript
                for expected in ["name: photos", "choice: 2 Skip", "overwrite: yes"] {
                    #expect(transcript.contains(expected), "\(expected)\n\(tool.report)")
                }
                #expect(transcript.contains { $0.contains("? Name of the new project: photos") }, "\(tool.report)")
                #expect(transcript.contains { $0.contains("? Overwrite 3 files? Yes") }, "\(tool.report)")
                #expect(tool.screen.isCursorVisible)
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// The same questions asked by a child of a program built on WaitAlert, which runs it
            /// in its own process group: the parent draws them, and the child prints the answers.
            @Test func questionsOfAChildOfALibraryProgram() async throws {
                let demo = try DemoProcess(["prompt", "--nested"])
                try await Self.answerTheThreeQuestions(demo, lines: false)
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                let lines = demo.screen.lines.filter { !$0.isEmpty }
                for expected in [
                    "? Name of the new project: photos", "? Upload failed: Skip", "? Overwrite 3 files? Yes",
                    "name: photos", "choice: 2 Skip", "overwrite: yes",
                ] {
                    #expect(lines.contains(expected), "\(expected)\n\(demo.report)")
                }
                #expect(lines.last?.hasPrefix("✔ Installed (") == true, "\(demo.report)")
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Ctrl-C at a child's question cancels it there: the child's work ends as cancelled
            /// (130), so does the parent's, and the terminal is as it was.
            @Test func ctrlCAtAChildsQuestionCancelsIt() async throws {
                let demo = try DemoProcess(["prompt", "--nested"])
                try await demo.waitFor(text: "? Name of the new project:")
                try demo.type("\u{3}")
                #expect(try await demo.waitForExit() == .exited(130), "\(demo.report)")
                #expect(demo.screen.lines.contains { $0.hasPrefix("⚠ Installing: cancelled after") }, "\(demo.report)")
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Escape at a question of `wait-alert`'s command: the command ends as cancelled (130),
            /// and so does `wait-alert`, as after a Ctrl-C — not as a failure.
            @Test func escapeAtAQuestionOfACommandUnderWaitAlertCancelsIt() async throws {
                let tool = try DemoProcess(
                    ["--title", "Outer", "--", try DemoProcess.executable.get(), "prompt"],
                    program: try Command.executable())
                try await tool.waitFor(text: "? Name of the new project:")
                try tool.type("\u{1B}")
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                #expect(tool.screen.lines.contains { $0.hasPrefix("⚠ Outer: cancelled after") }, "\(tool.report)")
                #expect(tool.screen.isCursorVisible)
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// A child whose standard input is not the terminal reads its answers from it, as when
            /// it runs alone: the parent shows no question.
            @Test func aChildReadsAnswersPipedToIt() async throws {
                let script = #"printf 'piped\n3\nn\n' | "$0" prompt"#
                let tool = try DemoProcess(
                    ["--show-output", "always", "--", "sh", "-c", script, try DemoProcess.executable.get()],
                    program: try Command.executable())
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript
                for expected in ["name: piped", "choice: 3 Abort", "overwrite: no"] {
                    #expect(transcript.contains(expected), "\(expected)\n\(tool.report)")
                }
            }
        }
    }
#endif

// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// The demo as an AI agent runs it (`CLAUDECODE=1`) and as GitHub Actions and GitLab CI
        /// run it, on a pseudo-terminal and on a pipe: what each reader gets.
        @Suite(.serialized)
        struct AgentAndCIEndToEndTests {
            static let connections: [DemoProcess.Connection] = [.pseudoTerminal(columns: 80, rows: 24), .pipe]

            /// The lines of `bytes`, a pseudo-terminal's `\r\n` read as a line feed.
            static func lines(_ bytes: [UInt8]) -> [String] {
                String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
            }

            /// The failing `tasks` demo for an agent writes at most a quarter of what plain lines
            /// take, no escape byte even on a terminal, and keeps the failure and its last lines.
            @Test(arguments: connections)
            func anAgentGetsTheFailureAndItsTailInAQuarterOfTheBytes(_ connection: DemoProcess.Connection) async throws
            {
                let plain = try DemoProcess(["tasks"], environment: ["WAIT_ALERT_PROGRESS": "plain"], connection: .pipe)
                #expect(try await plain.waitForExit() == .exited(1), "\(plain.report)")
                let agent = try DemoProcess(["tasks"], environment: ["CLAUDECODE": "1"], connection: connection)
                #expect(try await agent.waitForExit() == .exited(1), "\(agent.report)")
                #expect(!agent.output.contains(0x1B), "no escape byte: \(agent.report)")
                #expect(
                    agent.output.count * 4 <= plain.output.count, "\(agent.output.count) B vs \(plain.output.count) B")
                let lines = Self.lines(agent.output)
                #expect(
                    lines.first?.hasPrefix("wait-alert: compact output for an AI agent (CLAUDECODE is set)") == true)
                #expect(lines.contains("✖ Compiling Networking: 2 errors generated"), "\(lines)")
                #expect(
                    lines.contains("    Networking/Channel.swift:57:9: error: 'Channel' has no member 'flush'"),
                    "\(lines)")
                #expect(lines.contains("✖ Building: 1 task failed"), "\(lines)")
                #expect(lines.contains { $0.hasPrefix("  56 tasks: 50 succeeded, 2 failed") }, "\(lines)")
                #expect(!lines.contains { $0.hasPrefix("✔ Compiling") }, "a success says nothing: \(lines)")
                if connection != .pipe { #expect(agent.modesAtExit == agent.modesBefore) }
            }

            /// `WAIT_ALERT_PROGRESS` wins over the agent's variable.
            @Test func theModeVariableWinsOverTheAgents() async throws {
                let demo = try DemoProcess(
                    ["tasks", "--succeed", "--count", "3"],
                    environment: ["CLAUDECODE": "1", "WAIT_ALERT_PROGRESS": "plain"],
                    connection: .pipe)
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                let lines = Self.lines(demo.output)
                #expect(!lines.contains { $0.contains("compact output") }, "\(lines)")
                #expect(lines.contains { $0.hasPrefix("✔ Compiling") }, "\(lines)")
            }

            /// An agent's command does not wait for a question nobody can answer: it fails at once,
            /// saying how to answer — and takes an answer piped in.
            @Test func aQuestionFailsAtOnceUnlessAnAnswerIsPiped() async throws {
                let asked = try DemoProcess(["prompt"], environment: ["CLAUDECODE": "1"])
                #expect(try await asked.waitForExit(timeout: .seconds(10)) == .exited(1), "\(asked.report)")
                let text = String(decoding: asked.output, as: UTF8.self)
                #expect(
                    text.contains("Cannot ask \"Name of the new project:\": an AI agent runs this program"), "\(text)")
                #expect(text.contains("pipe the answer in"), "\(text)")
                #expect(asked.modesAtExit == asked.modesBefore)

                // An agent's harness may leave an open pipe it never writes to: no wait past a second.
                let started = ContinuousClock.now
                let silent = try DemoProcess(
                    ["-c", "sleep 20 | \"$0\" prompt", try DemoProcess.executable.get()],
                    environment: ["CLAUDECODE": "1"], program: "/bin/sh")
                try await silent.waitUntil("the question failed", timeout: .seconds(10)) { demo in
                    String(decoding: demo.output, as: UTF8.self).contains("nothing was piped to its standard input")
                }
                #expect(ContinuousClock.now - started < .seconds(8))

                let piped = try DemoProcess(
                    ["-c", "printf 'demo\\n2\\ny\\n' | \"$0\" prompt", try DemoProcess.executable.get()],
                    environment: ["CLAUDECODE": "1"], program: "/bin/sh")
                _ = try await piped.waitForExit(timeout: .seconds(30))
                let answered = String(decoding: piped.output, as: UTF8.self)
                #expect(answered.contains("? Name of the new project: demo"), "\(piped.report)")
                #expect(!answered.contains("Cannot ask"), "\(piped.report)")
            }

            /// GitHub Actions: the demo's lines folded in one group, never nested; the failure, its
            /// last log lines and the annotations after it; a table in the step summary.
            @Test(arguments: connections)
            func gitHubActionsGetsGroupsAnnotationsAndASummary(_ connection: DemoProcess.Connection) async throws {
                let summary = "/tmp/wait-alert-e2e-\(getpid())-summary.md"
                unlink(summary)
                defer { unlink(summary) }
                let demo = try DemoProcess(
                    ["tasks"], environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary],
                    connection: connection)
                #expect(try await demo.waitForExit() == .exited(1), "\(demo.report)")
                #expect(!demo.output.contains(0x1B), "\(demo.report)")
                let lines = Self.lines(demo.output)
                #expect(lines.filter { $0.hasPrefix("::group::") } == ["::group::Building"], "\(lines)")
                let end = try #require(lines.firstIndex(of: "::endgroup::"), "\(lines)")
                let after = Array(lines[(end + 1)...])
                #expect(after.first == "Compiling Networking: 2 errors generated — last log lines:", "\(after)")
                #expect(after.contains("✖ Building: 1 task failed"), "\(after)")
                #expect(after.contains("::error title=Compiling Networking::2 errors generated"), "\(after)")
                #expect(after.contains("::error title=Building::1 task failed"), "\(after)")
                let markdown = String(
                    decoding: WaitAlertCommandEndToEndTests.contents(of: summary) ?? [], as: UTF8.self)
                #expect(
                    markdown.hasPrefix("### ✖ Building: 1 task failed\n\n| Task | Result | Time |\n"), "\(markdown)")
                #expect(markdown.contains("| Compiling Networking | ✖ 2 errors generated |"), "\(markdown)")
            }

            /// `wait-alert` in GitHub Actions: the command's output folded in the alert's group, its
            /// last lines after it when it fails, the annotation; its own workflow commands run.
            @Test func wait_alertFoldsTheCommandsOutput() async throws {
                let script =
                    "echo '::add-mask::s3cret'; for i in 1 2 3; do echo step $i; sleep 0.2; done; echo 'error: disk full' >&2; exit 3"
                let tool = try DemoProcess(
                    ["--title", "deploy", "--", "sh", "-c", script], environment: ["GITHUB_ACTIONS": "true"],
                    connection: .pipe, program: try WaitAlertCommandEndToEndTests.executable())
                #expect(try await tool.waitForExit() == .exited(3), "\(tool.report)")
                let lines = Self.lines(tool.output)
                #expect(lines.first == "::group::deploy", "\(lines)")
                #expect(
                    lines.dropFirst().first == "::add-mask::s3cret", "the command's own command, as written: \(lines)")
                let end = try #require(lines.firstIndex(of: "::endgroup::"), "\(lines)")
                #expect(lines[..<end].contains("error: disk full"), "\(lines)")
                // The repeated lines are WaitAlert's: a workflow command among them is made inert.
                let after = Array(lines[(end + 1)...])
                #expect(after.count == 10, "\(after)")
                #expect(after.first == "deploy: exit status 3 — last log lines:", "\(after)")
                #expect(after.dropFirst().first?.hasPrefix("::stop-commands::wait-alert-") == true, "\(after)")
                #expect(after.dropFirst(2).first == "    ::add-mask::s3cret", "\(after)")
                #expect(
                    Array(after.suffix(6))
                        == [
                            "    step 1", "    step 2", "    step 3", "    error: disk full", "✖ deploy: exit status 3",
                            "::error title=deploy::exit status 3",
                        ], "\(after)")
            }

            /// GitLab CI: a collapsed section around the demo's lines, the failure after it.
            @Test(arguments: connections)
            func gitLabGetsACollapsedSection(_ connection: DemoProcess.Connection) async throws {
                let demo = try DemoProcess(["tasks"], environment: ["GITLAB_CI": "true"], connection: connection)
                #expect(try await demo.waitForExit() == .exited(1), "\(demo.report)")
                // A pseudo-terminal ends lines with `\r\n`.
                var text = String(decoding: demo.output, as: UTF8.self)
                text.replace("\r\n", with: "\n")
                let start = try #require(text.firstRange(of: "\u{1B}[0Ksection_start:"), "\(text)")
                #expect(text[start.upperBound...].contains("[collapsed=true]\r\u{1B}[0KBuilding\n"))
                let end = try #require(text.firstRange(of: "\u{1B}[0Ksection_end:"), "\(text)")
                #expect(
                    text[end.upperBound...].contains(
                        "\r\u{1B}[0K\nCompiling Networking: 2 errors generated — last log lines:\n"))
                #expect(text.hasSuffix("✖ Building: 1 task failed\n"), "\(text.suffix(200))")
                let escapes = text.split(separator: "\u{1B}", omittingEmptySubsequences: false).dropFirst()
                #expect(escapes.allSatisfy { $0.hasPrefix("[0K") }, "only the sections' own sequences")
            }
        }
    }
#endif

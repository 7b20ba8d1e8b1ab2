// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// `wait-alert-demo run`: a program built on WaitAlert running shell commands with
        /// `WaitAlertReporter.run`, under a pseudo-terminal and an interactive bash — Ctrl-C, a
        /// timeout and a failed sibling stop each command's whole process group, a failure shows
        /// its last lines and status, a line rewritten with `\r` shows as it is written, Ctrl-Z
        /// stops the commands with the program.
        struct RunDemoEndToEndTests {
            private typealias Command = WaitAlertCommandEndToEndTests

            /// The process group of the demo's one command (the demo's one child leads it).
            static func commandGroup(of demo: DemoProcess) async throws -> pid_t {
                try await Command.commandGroup(of: demo)
            }

            /// Ctrl-C while the command runs: the alert ends as cancelled, the exit status is 130,
            /// and no process of the command's group is left — its foreground `sleep`, nor the one
            /// it started in the background, which ignores `SIGINT`. Before the alert shows, a
            /// Ctrl-C that no overlay catches yet ends the program as it would have (130 to the
            /// shell), the command's group first.
            @Test(arguments: [false, true])
            func ctrlCStopsTheCommandsWholeGroup(beforeTheAlertShows: Bool) async throws {
                let demo = try DemoProcess(["run", "sleep 100 & echo started; sleep 100"])
                let group = try await Self.commandGroup(of: demo)
                try await demo.waitUntil("three processes in the group") { _ in
                    ProcessTable.liveMembers(ofGroup: group).count == 3
                }
                if !beforeTheAlertShows { try await demo.waitForSpinner() }
                try demo.sendInterrupt()
                let termination = try await demo.waitForExit()
                if beforeTheAlertShows, termination == .signaled(SIGINT) {
                    #expect(!demo.text.contains("✔"), "\(demo.report)")
                } else {
                    #expect(termination == .exited(130), "\(demo.report)")
                    #expect(demo.text.contains("cancelled after"), "\(demo.report)")
                }
                try await Command.expectNothingLeft(in: group, demo)
                #expect(demo.modesAtExit == demo.modesBefore, "\(demo.report)")
            }

            /// A command that ignores Ctrl-C is killed 3 seconds later, its group with it.
            @Test func aCommandIgnoringCtrlCIsKilledAfterTheGrace() async throws {
                let demo = try DemoProcess(["run", "trap '' INT TERM; echo started; sleep 100"])
                let group = try await Self.commandGroup(of: demo)
                try await demo.waitForSpinner()
                let interrupted = ContinuousClock.now
                try demo.sendInterrupt()
                #expect(try await demo.waitForExit() == .exited(130), "\(demo.report)")
                #expect(ContinuousClock.now - interrupted >= .seconds(2.9), "killed after the grace, not at once")
                try await Command.expectNothingLeft(in: group, demo)
            }

            /// With standard error on a pipe no overlay catches the signal: the command's group
            /// gets it (and `SIGTERM`, which a background job does not ignore) before the program
            /// ends by it, as it would have.
            @Test func aSignalNoOverlayHandlesReachesTheGroupFirst() async throws {
                let demo = try DemoProcess(["run", "sleep 100 & echo started; sleep 100"], connection: .pipe)
                let group = try await Self.commandGroup(of: demo)
                try await demo.waitUntil("three processes in the group") { _ in
                    ProcessTable.liveMembers(ofGroup: group).count == 3
                }
                demo.kill(SIGINT)
                #expect(try await demo.waitForExit() == .signaled(SIGINT), "\(demo.report)")
                try await Command.expectNothingLeft(in: group, demo)
            }

            /// A failing command: its last lines print above the final line, which names the
            /// status.
            @Test func aFailureShowsTheLastLinesAndTheStatus() async throws {
                let script =
                    "for i in $(seq 1 12); do echo line $i; done; sleep 0.6; echo 'error: disk full' >&2; exit 3"
                let demo = try DemoProcess(["run", script])
                #expect(try await demo.waitForExit() == .exited(1), "\(demo.report)")
                let lines = demo.screen.transcript.filter { !$0.isEmpty }
                let tail = (4...12).map { "line \($0)" } + ["error: disk full"]
                #expect(Array(lines.prefix(10)) == tail, "the last 10 lines\n\(demo.report)")
                #expect(lines.dropFirst(10).joined().hasSuffix("sh exited with status 3"), "\(demo.report)")
                #expect(lines.dropFirst(10).first?.hasPrefix("✖ for i in") == true, "\(demo.report)")
            }

            /// `--timeout`: the command's whole group is stopped, the exit status is 124.
            @Test func aTimeoutStopsTheCommand() async throws {
                let demo = try DemoProcess(["run", "--timeout", "1", "sleep 100 & echo waiting; sleep 100"])
                let group = try await Self.commandGroup(of: demo)
                #expect(try await demo.waitForExit() == .exited(124), "\(demo.report)")
                #expect(demo.text.contains("timed out after 1.0s"), "\(demo.report)")
                try await Command.expectNothingLeft(in: group, demo)
            }

            /// A progress line the command rewrites with `\r` and never ends shows as the alert's
            /// text, as it is now.
            @Test func aLineRewrittenWithCarriageReturnsShows() async throws {
                let script = "printf 'Downloading 10%%'; sleep 0.3; printf '\\rDownloading 60%%'; sleep 3; printf '\\n'"
                let demo = try DemoProcess(["run", script])
                try await demo.waitUntil("the progress line on the spinner's line") { demo in
                    spinnerLines(demo.screen).contains { $0.hasSuffix("Downloading 60%") }
                }
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
            }

            /// Two commands as child tasks: the first failure cancels the other, whose whole group
            /// is stopped.
            @Test func aFailedSiblingStopsTheOthersGroup() async throws {
                let demo = try DemoProcess(["run", "sleep 100 & echo started; sleep 100", "sleep 1; exit 4"])
                var group: pid_t = 0
                try await demo.waitUntil("both commands started") { demo in
                    let children = ProcessTable.commands(of: demo.pid)
                    guard children.count == 2 else { return false }
                    group = children.first { ProcessTable.liveMembers(ofGroup: $0).count == 3 } ?? 0
                    return group != 0
                }
                #expect(try await demo.waitForExit() == .exited(1), "\(demo.report)")
                #expect(demo.text.contains("sh exited with status 4"), "\(demo.report)")
                try await Command.expectNothingLeft(in: group, demo)
            }

            /// `--collect`: the command's standard output is returned, and printed once the alert
            /// has ended; it never shows as the alert's text.
            @Test func collectedOutputIsTheResult() async throws {
                let demo = try DemoProcess(["run", "--collect", "sleep 0.8; echo v1.2.3"])
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                let lines = demo.screen.transcript.filter { !$0.isEmpty }
                #expect(lines.count == 2 && lines[0].hasPrefix("✔ sleep 0.8; echo v1.2.3 ("), "\(demo.report)")
                #expect(lines.last == "v1.2.3", "\(demo.report)")
            }

            /// Ctrl-Z under `bash -i`: the command's group stops with the demo; `fg` continues
            /// both, and the run ends as usual.
            @Test func ctrlZStopsTheCommandWithTheProgram() async throws {
                let flag = Command.temporaryPath("run-ctrl-z")
                defer { unlink(flag) }
                let shell = try await DemoProcess.interactiveBash()
                let demo = try DemoProcess.executable.get()
                let script =
                    #"i=0; while [ ! -e "$0" ] && [ $i -lt 600 ]; do i=$((i+1)); echo "tick $i"; sleep 0.05; done"#
                try shell.type(
                    "\(demo) run \(ShellWord.quote("sh -c " + ShellWord.quote(script) + " " + ShellWord.quote(flag)))\r"
                )
                var group: pid_t = 0
                try await shell.waitUntil("the demo and its command started") { shell in
                    guard let tool = ProcessTable.commands(of: shell.pid).first,
                        let command = ProcessTable.commands(of: tool).first
                    else { return false }
                    group = command
                    return true
                }
                try await shell.waitForSpinner()
                let stop = shell.output.count
                try shell.type([0x1A])
                try await shell.waitForOutput("Stopped", after: stop, then: DemoProcess.shellPrompt)
                try await shell.waitUntil("the command's group stopped (\(ProcessTable.describe(group: group)))") { _ in
                    let live = ProcessTable.liveMembers(ofGroup: group)
                    return !live.isEmpty && ProcessTable.stoppedMembers(ofGroup: group).count == live.count
                }
                let stopped = try await shell.shellModes()
                #expect(stopped.echo && stopped.canonical, "\(shell.report)")
                let resumed = shell.output.count
                try shell.type("fg\r")
                try await shell.waitUntil("the command's group running (\(ProcessTable.describe(group: group)))") { _ in
                    ProcessTable.stoppedMembers(ofGroup: group).isEmpty
                }
                close(open(flag, O_WRONLY | O_CREAT, 0o600))
                try await shell.waitForOutput("✔ ", after: resumed)
                try await shell.waitForOutput(DemoProcess.shellPrompt, after: shell.output.count - 8)
                #expect(!shell.text.contains("stopped ("), "a Ctrl-Z passed on is no news\n\(shell.report)")
            }
        }
    }
#endif

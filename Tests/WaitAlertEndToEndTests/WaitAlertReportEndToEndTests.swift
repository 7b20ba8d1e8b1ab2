// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// Processes reporting into the alert they run under through `WAIT_ALERT_SOCKET`: a shell
        /// script with `wait-alert report`, a program built on WaitAlert, and children that write
        /// garbage, flood, or die.
        @Suite(.serialized)
        struct WaitAlertReportEndToEndTests {
            private typealias Command = WaitAlertCommandEndToEndTests

            /// `wait-alert --title Deploy -- sh -c SCRIPT`, the script calling `wait-alert report`
            /// (as `"$0" report`): its text, progress and log line show in the alert, its tasks as
            /// rows that leave records, a failing task's status, and the alert ends as the script
            /// does.
            @Test func aScriptReportsIntoTheAlert() async throws {
                let script = """
                    "$0" report --text 'Preparing…'
                    sleep 0.5
                    for i in 1 2 3 4; do "$0" report --progress $i/4 --unit files; sleep 0.2; done
                    "$0" report --log 'uploaded 4 files'
                    "$0" report --task Restarting -- sleep 1.2  # well past the grace delay, so it leaves a record
                    "$0" report --task Migrating -- sh -c 'exit 3'
                    echo "migrating: $?"
                    """
                let tool = try Command.launch(["--title", "Deploy", "--", "sh", "-c", script, try Command.executable()])
                try await tool.waitFor(text: "Preparing…")
                try await tool.waitFor(text: "4/4 files")
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.count { $0 == "uploaded 4 files" } == 1, "\(numbered(transcript))")
                #expect(transcript.count { $0.hasPrefix("✔ Restarting (") } == 1, "\(numbered(transcript))")
                #expect(transcript.count { $0 == "✖ Migrating: exit status 3" } == 1, "\(numbered(transcript))")
                #expect(transcript.last?.hasPrefix("✔ Deploy (") == true, "\(numbered(transcript))")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// Outside any alert `wait-alert report` reports nothing and a task's command runs all
            /// the same, with its status.
            @Test func outsideAnAlertReportsAreNothingAndTasksStillRun() async throws {
                let shell = try Command.shell(
                    #""$0" report --text 'x' --progress 1/2 --log 'y'; echo "report: $?"; "#
                        + #""$0" report --task T -- sh -c 'echo inside; exit 4'; echo "task: $?""#)
                #expect(try await shell.waitForExit() == .exited(0))
                #expect(
                    shell.screen.transcript.filter { !$0.isEmpty } == ["report: 0", "inside", "task: 4"],
                    "\(shell.report)")
            }

            /// `wait-alert replay FILE` plays a recorded stream in the terminal as the program that
            /// recorded it showed it: a child row with its progress, a log line above, the records,
            /// the failure last, and the terminal as it was.
            @Test func aRecordingPlaysInTheTerminal() async throws {
                let lines = [
                    #"{"v":1,"event":"start","id":1,"time":0.000,"title":"Deploying"}"#,
                    #"{"v":1,"event":"start","id":2,"parent":1,"time":0.100,"title":"Upload"}"#,
                    #"{"v":1,"event":"progress","id":2,"time":0.800,"completed":40,"total":100}"#,
                    "not an event",
                    #"{"v":1,"event":"log","id":2,"time":1.000,"line":"uploaded \u001b[31mred\u001b[0m"}"#,
                    #"{"v":1,"event":"end","id":2,"time":1.500,"outcome":"success","text":"Upload"}"#,
                    #"{"v":1,"event":"text","id":1,"time":1.600,"text":"Restarting…"}"#,
                    #"{"v":1,"event":"end","id":1,"time":2.400,"outcome":"failure","text":"Deploying: restart failed"}"#,
                ]
                let path = "/tmp/wait-alert-replay-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
                let file = try #require(fopen(path, "w"))
                fputs(lines.joined(separator: "\n") + "\n", file)
                fclose(file)
                defer { unlink(path) }
                let tool = try Command.launch(["replay", path])
                try await tool.waitFor(text: "40%")
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.count { $0 == "uploaded red" } == 1, "\(numbered(transcript))")
                #expect(transcript.count { $0.hasPrefix("✔ Upload (") } == 1, "\(numbered(transcript))")
                let failure = try #require(
                    transcript.firstIndex(of: "✖ Deploying: restart failed"), "\(numbered(transcript))")
                #expect(
                    transcript[(failure + 1)...].joined().hasPrefix("wait-alert: replay: line 4 is not an event of"),
                    "what was skipped is said last: \(numbered(transcript))")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// A command that writes `OSC 9;4;1;40` (as cargo and systemd do) shows 40 % in the
            /// alert, then `OSC 9;4;2;60` 60 % and `failing`; the sequences themselves never reach
            /// the terminal.
            @Test func aCommandsTaskbarProgressIsTheAlertsProgress() async throws {
                let tool = try Command.launch([
                    "--title", "Fetching", "--", "sh", "-c",
                    #"printf '\033]9;4;1;40\007working\n'; sleep 1.5; printf '\033]9;4;2;60\007'; sleep 1.5"#,
                ])
                try await tool.waitFor(text: "40%")
                try await tool.waitFor(text: "failing")
                #expect(
                    tool.screen.lines.contains { $0.contains("60%") && $0.hasSuffix("failing") }, "\(tool.screen.lines)"
                )
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                #expect(!tool.output.contains(bytes: "\u{1B}]9;4;1;40"), "\(escaped(tool.output))")
                #expect(tool.screen.transcript.filter { !$0.isEmpty }.last?.hasPrefix("✔ Fetching (") == true)
            }

            /// A program built on WaitAlert run by `wait-alert`: its 40 tasks are rows of the one
            /// region, each leaves one record, and only `wait-alert`'s alert ends the output.
            @Test func aWaitAlertProgramShowsItsTasksInTheParentsRegion() async throws {
                let demo = try DemoProcess.executable.get()
                let tool = try Command.launch(
                    ["--title", "Build", "--", demo, "tasks", "--succeed"],
                    connection: .pseudoTerminal(columns: 100, rows: 30))
                try await tool.waitFor(text: "Compiling Core")
                let running = tool.screen.lines.filter(Self.isSpinnerLine)
                #expect(running.first?.contains(" Build") == true, "the parent's alert heads the region: \(running)")
                #expect(running.count { !$0.hasPrefix(" ") } == 1, "one region, one top-level spinner: \(running)")
                #expect(try await tool.waitForExit(timeout: .seconds(60)) == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                for target in ["Core", "Networking", "UI"] {
                    #expect(
                        transcript.count { $0.hasPrefix("✔ Compiling \(target) (") } == 1, "\(numbered(transcript))")
                }
                #expect(transcript.count { $0.hasPrefix("✔ Build (") } == 1, "\(numbered(transcript))")
                #expect(transcript.last?.hasPrefix("✔ Build (") == true, "\(numbered(transcript))")
                #expect(transcript.count { $0 == "↷ Compiling Fixtures: skipped (no Swift sources)" } == 1)
                expectTheRegionGone(tool, transcript, isRegionLine: Self.isSpinnerLine)
            }

            /// A child that writes lines that are not events, floods progress, writes escape
            /// sequences, and is killed with its task open: the garbage is counted once, the text
            /// is shown sanitized, the task ends as cancelled, the parent's memory stays bounded,
            /// and its alert ends as the command does.
            @Test func aHostileChildLeavesTheDisplayIntact() async throws {
                let client = """
                    import json, os, signal, socket
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.connect(os.environ["WAIT_ALERT_SOCKET"])
                    assert s.recv(64).startswith(b'{"v":1,"event":"hello"}')
                    s.sendall(b'not json\\n{"event":"shout"}\\n{"event":"text"}\\n')
                    s.sendall(b'{"event":"start","id":1,"title":"Flood"}\\n')
                    s.sendall(b'{"event":"text","id":1,"text":"red \\\\u001b[31m and \\\\u001b]0;pwned\\\\u0007 title"}\\n')
                    line = b'{"event":"progress","id":1,"completed":%d,"total":50000}\\n'
                    s.sendall(b"".join(line % i for i in range(50000)))
                    s.sendall(b'{"event":"end","id":99,"outcome":"success"}\\n')
                    os.kill(os.getpid(), signal.SIGKILL)
                    """
                let tool = try Command.launch(
                    ["--title", "Hostile", "--", "sh", "-c", "python3 -c \"$0\"; echo after", client])
                var peak = 0
                try await tool.waitUntil("the flood's row", timeout: .seconds(30)) { tool in
                    peak = max(peak, Self.peakResidentKilobytes(of: tool.pid) ?? 0)
                    return tool.screen.transcript.contains { $0.hasPrefix("⚠ Flood: cancelled after") }
                }
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                peak = max(peak, 0)
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(
                    transcript.count { $0 == "wait-alert: a child process wrote 3 lines that were not events; ignored" }
                        == 1,
                    "\(numbered(transcript))")
                #expect(transcript.count { $0.hasPrefix("⚠ Flood: cancelled after") } == 1, "\(numbered(transcript))")
                #expect(transcript.last?.hasPrefix("✔ Hostile (") == true, "\(numbered(transcript))")
                #expect(!tool.output.contains(bytes: "pwned\u{07}") && !tool.output.contains(bytes: "\u{1B}]0;"))
                #expect(peak > 0 && peak < 64 * 1024, "peak resident memory \(peak) kB")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// Whether `line` is a running row: a spinner glyph after its indentation.
            static func isSpinnerLine(_ line: String) -> Bool {
                line.drop { $0 == " " }.unicodeScalars.first.map { (0x2800...0x28FF).contains($0.value) } ?? false
            }

            /// The peak resident memory of process `pid` (`VmHWM`), in kilobytes.
            static func peakResidentKilobytes(of pid: pid_t) -> Int? {
                guard let bytes = Command.contents(of: "/proc/\(pid)/status") else { return nil }
                let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first {
                    $0.hasPrefix("VmHWM:")
                }
                return line.flatMap {
                    Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
                }
            }
        }
    }
#endif

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

            /// Six `--task`s started side by side (`&`) under `wait-alert` — three a moment apart,
            /// three at once — are siblings under its alert, whatever order they start in: each
            /// row one level under the header, never under another task. What each task's command
            /// reports goes to its own row (each row at 50 %), its output is that row's status (each
            /// shows it for 2 s, long enough for three at once under a slow sanitized start), and
            /// the task that fails shows its own output tail, never the parent's text.
            @Test func parallelTasksAreSiblings() async throws {
                let script = """
                    for n in 1 2 3 4 5 6; do
                      "$0" report --task "web-$n" -- sh -c \
                        '"$1" report --progress 1/2; sleep 2.5; echo "GET /health -> 50$2"; sleep 2; [ "$2" != 3 ]' \
                        sh "$0" "$n" &
                      if [ "$n" -le 3 ]; then sleep 0.2; fi
                    done
                    wait
                    """
                let tool = try Command.launch(
                    ["--title", "Deploy", "--", "sh", "-c", script, try Command.executable()],
                    connection: .pseudoTerminal(columns: 100, rows: 30))
                var nested: [String] = []
                var parentsText: [String] = []
                try await tool.waitUntil("six task rows at 50 %", timeout: .seconds(30)) { tool in
                    let rows = tool.screen.lines.filter(Self.isSpinnerLine)
                    nested += rows.filter { $0.hasPrefix("    ") }
                    parentsText += rows.filter { !$0.hasPrefix(" ") && $0.contains("GET /health") }
                    return rows.count { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && $0.contains("50%") } == 6
                }
                try await tool.waitUntil("the tasks' output as their status", timeout: .seconds(30)) { tool in
                    let rows = tool.screen.lines.filter(Self.isSpinnerLine)
                    nested += rows.filter { $0.hasPrefix("    ") }
                    parentsText += rows.filter { !$0.hasPrefix(" ") && $0.contains("GET /health") }
                    return rows.count { $0.hasPrefix("  ") && $0.contains("GET /health -> 50") } >= 3
                }
                #expect(try await tool.waitForExit(timeout: .seconds(30)) == .exited(0), "\(tool.report)")
                #expect(nested.isEmpty, "rows nested under a sibling: \(nested)\n\(tool.report)")
                #expect(parentsText.isEmpty, "a task's output as the parent's text: \(parentsText)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                for n in [1, 2, 4, 5, 6] {
                    #expect(transcript.count { $0.hasPrefix("✔ web-\(n) (") } == 1, "\(numbered(transcript))")
                }
                let recap = try #require(
                    transcript.firstIndex(of: "web-3: exit status 1 — last log lines:"), "\(numbered(transcript))")
                #expect(transcript.dropFirst(recap + 1).first == "    GET /health -> 503", "\(numbered(transcript))")
                #expect(transcript.count { $0 == "✖ web-3: exit status 1" } == 1, "\(numbered(transcript))")
                #expect(!transcript.contains { $0.contains("GET /health -> 50") && !$0.hasSuffix("503") })
                #expect(transcript.last?.hasPrefix("✔ Deploy (") == true, "\(numbered(transcript))")
                expectTheRegionGone(tool, transcript, isRegionLine: Self.isSpinnerLine)
            }

            /// A program that outlives the alert it reports under — its parent's alert ends while
            /// it runs on — is let go and draws its own alerts: its log lines after that and its
            /// real ending (a failure) show, and it is never reported cancelled.
            @Test func aChildThatOutlivesItsParentsAlertDrawsForItself() async throws {
                let demo = try DemoProcess.executable.get()
                let tool = try Command.shell(
                    #""$0" --title Outer -- sh -c '"$1" --logs --fail >&3 2>&3 & sleep 1' sh "$1" 3>&2; sleep 6"#,
                    [demo])
                #expect(try await tool.waitForExit(timeout: .seconds(30)) == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                let outer = try #require(
                    transcript.firstIndex { $0.hasPrefix("✔ Outer (") }, "\(numbered(transcript))")
                let failure = try #require(
                    transcript.firstIndex(of: "✖ Doing Something: Could not reach the server"),
                    "the child's real ending: \(numbered(transcript))")
                #expect(outer < failure, "\(numbered(transcript))")
                #expect(
                    transcript[outer...].contains("reached 3.0 seconds"),
                    "the child's log lines after its parent's alert: \(numbered(transcript))")
                #expect(!transcript.contains { $0.contains("cancelled") }, "\(numbered(transcript))")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// A program whose task ends while it runs on (it was started in the background by
            /// the task's command) goes on reporting under the alert above the task: its ending
            /// and its log lines show in the one region.
            @Test func aChildOfAnEndedTaskReportsUnderTheAlertAboveIt() async throws {
                let demo = try DemoProcess.executable.get()
                let script = #""$0" report --task Starting -- sh -c '"$1" --logs --fail & sleep 0.5' sh "$1"; sleep 6"#
                let tool = try Command.launch(
                    ["--title", "Deploy", "--", "sh", "-c", script, try Command.executable(), demo],
                    connection: .pseudoTerminal(columns: 100, rows: 30))
                #expect(try await tool.waitForExit(timeout: .seconds(30)) == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.count { $0.hasPrefix("✔ Starting (") } == 1, "\(numbered(transcript))")
                #expect(
                    transcript.count { $0 == "✖ Doing Something: Could not reach the server" } == 1,
                    "\(numbered(transcript))")
                #expect(transcript.count { $0 == "reached 3.0 seconds" } == 1, "\(numbered(transcript))")
                #expect(!transcript.contains { $0.contains("cancelled") }, "\(numbered(transcript))")
                #expect(transcript.last?.hasPrefix("✔ Deploy (") == true, "\(numbered(transcript))")
                expectTheRegionGone(tool, transcript, isRegionLine: Self.isSpinnerLine)
            }

            /// Twelve programs on WaitAlert started side by side under `wait-alert` (as `make -j` or
            /// `xargs -P` start them), each failing after logging: one level under the header,
            /// never a staircase; the header's count never says all are done while rows run; and
            /// every failed child's last log lines are printed again when the alert ends.
            @Test func parallelChildrenAreSiblingsAndEachFailureGetsItsRecap() async throws {
                let demo = try DemoProcess.executable.get()
                let script = #"for i in 1 2 3 4 5 6 7 8 9 10 11 12; do "$1" --logs --fail & done; wait"#
                let tool = try Command.launch(
                    ["--title", "Build", "--", "sh", "-c", script, "sh", demo],
                    connection: .pseudoTerminal(columns: 100, rows: 40))
                var nested: [String] = []
                var allDone: [String] = []
                try await tool.waitUntil("the children's failures", timeout: .seconds(60)) { tool in
                    let rows = tool.screen.lines.filter(Self.isSpinnerLine)
                    nested += rows.filter { $0.hasPrefix("    ") }
                    if let header = rows.first(where: { !$0.hasPrefix(" ") }), rows.count > 1,
                        let count = header.split(separator: " ").first(where: { $0.contains("/") }),
                        case let parts = count.split(separator: "/"), parts.count == 2, parts[0] == parts[1]
                    {
                        allDone.append(header)
                    }
                    return tool.screen.transcript.count { $0.hasPrefix("✖ Doing Something: ") } == 12
                }
                #expect(try await tool.waitForExit(timeout: .seconds(30)) == .exited(0), "\(tool.report)")
                #expect(nested.isEmpty, "rows nested under a sibling: \(nested)")
                #expect(allDone.isEmpty, "a header saying all were done while rows ran: \(allDone)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(
                    transcript.count { $0 == "Doing Something: Could not reach the server — last log lines:" } == 12,
                    "\(numbered(transcript))")
                #expect(transcript.last?.hasPrefix("✔ Build (") == true, "\(numbered(transcript))")
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

            /// Writes `lines` to a new file; returns its path (removed by the caller).
            static func recording(_ lines: [String]) throws -> String {
                let path = "/tmp/wait-alert-replay-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
                let file = try #require(fopen(path, "w"))
                fputs(lines.joined(separator: "\n") + "\n", file)
                fclose(file)
                return path
            }

            /// A hostile recording — a printed line that sets the window title, turns the
            /// alternate screen on and colours the rest — writes none of it where plain lines
            /// are written: standard error piped (not one escape byte), `--progress plain`,
            /// `--progress accessible` (whose own final lines are coloured).
            @Test(arguments: [[], ["--progress", "plain"], ["--progress", "accessible"]])
            func aHostileRecordingWritesNoEscapeSequence(options: [String]) async throws {
                let path = try Self.recording([
                    #"{"v":1,"event":"start","id":1,"time":0,"title":"Build"}"#,
                    #"{"v":1,"event":"log","time":0.1,"line":"\u001b]0;pwned\u0007title \u001b[?1049hscreen\u001b[31m red"}"#,
                    #"{"v":1,"event":"end","id":1,"time":0.2,"outcome":"success","text":"Built"}"#,
                ])
                defer { unlink(path) }
                let tool = try Command.launch(
                    ["replay"] + options + [path],
                    connection: options.isEmpty ? .pipe : .pseudoTerminal(columns: 80, rows: 24))
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                for hostile in ["\u{1B}]", "pwned", "\u{1B}[?1049", "\u{1B}[31m"] {
                    #expect(!tool.output.contains(bytes: hostile), "\(escaped(tool.output))")
                }
                if options.isEmpty { #expect(!tool.output.contains(0x1B), "\(escaped(tool.output))") }
                #expect(tool.text.contains("title screen red\r\n") || tool.text.contains("title screen red\n"))
                if !options.isEmpty { #expect(tool.modesAtExit == tool.modesBefore) }
            }

            /// `--speed 2` plays the recording as it was shown, twice as fast: final lines say the
            /// recorded times, a task that showed when recorded still leaves its record, and the
            /// records come in the order the tasks ended.
            @Test func aFasterReplayShowsTheRecordedTimes() async throws {
                let path = try Self.recording([
                    #"{"v":1,"event":"start","id":1,"time":0.000,"title":"Deploying"}"#,
                    #"{"v":1,"event":"start","id":2,"parent":1,"time":0.100,"title":"Upload"}"#,
                    #"{"v":1,"event":"start","id":3,"parent":1,"time":0.200,"title":"Quick"}"#,
                    #"{"v":1,"event":"end","id":3,"time":0.900,"outcome":"success","text":"Quick","elapsed":0.700}"#,
                    #"{"v":1,"event":"end","id":2,"time":2.200,"outcome":"success","text":"Upload","elapsed":2.100}"#,
                    #"{"v":1,"event":"end","id":1,"time":3.000,"outcome":"success","text":"Deployed","elapsed":3.000}"#,
                ])
                defer { unlink(path) }
                let tool = try Command.launch(["replay", "--speed", "2", path])
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                #expect(tool.elapsed < .seconds(5), "twice as fast: \(tool.elapsed)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(
                    transcript == ["✔ Quick (0.7s)", "✔ Upload (2.1s)", "✔ Deployed (3.0s)"], "\(numbered(transcript))")
            }

            /// A recording that stops for 31 years plays on after a pause of 10 seconds (one at
            /// `--speed 10`), saying so, instead of waiting them out.
            @Test func aLongPauseOfARecordingIsShortened() async throws {
                let path = try Self.recording([
                    #"{"v":1,"event":"start","id":1,"time":0,"title":"Waiting"}"#,
                    #"{"v":1,"event":"end","id":1,"time":999999999,"outcome":"success","text":"Waited"}"#,
                ])
                defer { unlink(path) }
                let tool = try Command.launch(["replay", "--speed", "10", path], connection: .pipe)
                #expect(try await tool.waitForExit(timeout: .seconds(20)) == .exited(0), "\(tool.report)")
                #expect(
                    tool.text.contains(
                        "wait-alert: the recording has no event for 277777h 47m here; playing on in 10.0s"),
                    "\(tool.report)")
                #expect(tool.text.contains("Waited"), "\(tool.report)")
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

            /// A child that writes one line that is not an event is told about in the singular.
            @Test func oneLineThatIsNotAnEvent() async throws {
                let client = """
                    import os, socket
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.connect(os.environ["WAIT_ALERT_SOCKET"])
                    assert s.recv(64).startswith(b'{"v":1,"event":"hello"}')
                    s.sendall(b'not json\\n{"event":"log","line":"from the child"}\\n')
                    s.close()
                    """
                let tool = try Command.launch(["--title", "Garbage", "--", "python3", "-c", client])
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(
                    transcript.count { $0 == "wait-alert: a child process wrote 1 line that was not an event; ignored" }
                        == 1,
                    "\(numbered(transcript))")
                #expect(transcript.contains("from the child"), "\(numbered(transcript))")
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

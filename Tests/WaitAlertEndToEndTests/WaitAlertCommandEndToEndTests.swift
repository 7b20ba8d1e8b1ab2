// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// The `wait-alert` command-line tool, built next to the demo, running shell commands under a
        /// pseudo-terminal or with its output on pipes: exit statuses, output passed through byte for
        /// byte, Ctrl-C and `SIGTERM` passed on to the command's process group with nothing left
        /// behind, the failure tail, streamed lines, and no escape byte without a terminal.
        struct WaitAlertCommandEndToEndTests {
            /// The `wait-alert` binary: next to the demo in the build directory.
            static func executable() throws -> String {
                let demo = try DemoProcess.executable.get()
                return String(demo.dropLast("wait-alert-demo".count)) + "wait-alert"
            }

            /// `wait-alert` with `arguments`, on a pseudo-terminal (80x24) or a pipe.
            static func launch(
                _ arguments: [String], connection: DemoProcess.Connection = .pseudoTerminal(columns: 80, rows: 24)
            )
                throws -> DemoProcess
            {
                try DemoProcess(arguments, connection: connection, program: try executable())
            }

            /// A shell running `script` with `wait-alert`'s path as `$0` and `rest` as `$1`…, on a pty.
            static func shell(_ script: String, _ rest: [String] = []) throws -> DemoProcess {
                try DemoProcess(["-c", script, try executable()] + rest, program: "/bin/sh")
            }

            /// The command's process group: the one child of `wait-alert` (it leads its group).
            static func commandGroup(of tool: DemoProcess) async throws -> pid_t {
                var children: [pid_t] = []
                try await tool.waitUntil("the command started") { tool in
                    children = ProcessTable.commands(of: tool.pid)
                    return children.count == 1
                }
                return children[0]
            }

            /// Waits until no live process is left in `group` (a zombie nobody reaped counts as gone).
            static func expectNothingLeft(in group: pid_t, _ tool: DemoProcess) async throws {
                let deadline = ContinuousClock.now + .seconds(10)
                while !ProcessTable.liveMembers(ofGroup: group).isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let left = ProcessTable.liveMembers(ofGroup: group)
                #expect(left.isEmpty, "processes of the command's group left: \(left)\n\(tool.report)")
                for pid in left { kill(pid, SIGKILL) }
            }

            static func temporaryPath(_ name: String) -> String {
                "/tmp/wait-alert-e2e-\(getpid())-\(name)"
            }

            static func contents(of path: String) -> [UInt8]? {
                let descriptor = open(path, O_RDONLY)
                guard descriptor >= 0 else { return nil }
                defer { close(descriptor) }
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
                    bytes += buffer[..<count]
                }
                return bytes
            }

            // MARK: - Exit statuses

            @Test(arguments: [
                (["sh", "-c", "echo fine"], Termination.exited(0), "✔ sh -c 'echo fine' ("),
                (["sh", "-c", "exit 1"], .exited(1), "✖ sh -c 'exit 1': exit status 1"),
                (["sh", "-c", "kill -KILL $$"], .exited(137), "✖ sh -c 'kill -KILL $$': killed by SIGKILL"),
                // With standard output on the terminal, `SIGPIPE` came from a pipe of the command's own.
                (["sh", "-c", "kill -PIPE $$"], .exited(141), "✖ sh -c 'kill -PIPE $$': killed by SIGPIPE"),
                (
                    ["no-such-command-for-wait-alert"], .exited(127),
                    "wait-alert: cannot run 'no-such-command-for-wait-alert': No such file or directory"
                ),
            ])
            func exitStatusIsTheCommands(command: [String], status: Termination, line: String) async throws {
                let tool = try Self.launch(["--"] + command)
                #expect(try await tool.waitForExit() == status, "\(tool.report)")
                #expect(tool.text.contains(line), "\(tool.report)")
            }

            /// An argument error is one line naming it and one pointing to `--help`, exit status 2.
            @Test(arguments: [
                (["--tail", "many", "--", "true"], "wait-alert: invalid --tail 'many'"),
                (["--foo", "--", "true"], "wait-alert: unknown option '--foo'"),
                ([], "wait-alert: no command given"),
            ])
            func argumentErrorsAreOneLineAndAHint(arguments: [String], problem: String) async throws {
                let tool = try Self.launch(arguments, connection: .pipe)
                #expect(try await tool.waitForExit() == .exited(2))
                let lines = tool.text.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 3 && lines[2].isEmpty, "two lines, each ended\n\(tool.report)")
                #expect(lines.first?.hasPrefix(problem) == true, "\(tool.report)")
                #expect(lines.dropFirst().first == "Try 'wait-alert --help' for more information.", "\(tool.report)")
            }

            @Test func versionPrintsTheProgramAndItsVersion() async throws {
                let tool = try Self.launch(["--version"], connection: .pipe)
                #expect(try await tool.waitForExit() == .exited(0))
                let words = tool.text.split(separator: " ")
                #expect(words.count == 2 && words[0] == "wait-alert" && words[1].hasSuffix("\n"), "\(tool.report)")
                #expect(words.last?.first?.isNumber == true, "\(tool.report)")
            }

            /// A title that would show nothing gives way to the command line: the final line says what
            /// ran.
            @Test(arguments: ["", "  ", "\u{1B}[31m"])
            func aBlankTitleFallsBackToTheCommandLine(title: String) async throws {
                let tool = try Self.launch(["--title", title, "--success", " ", "--", "sh", "-c", "exit 0"])
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                let lines = tool.screen.lines.filter { !$0.isEmpty }
                #expect(lines.count == 1 && lines[0].hasPrefix("✔ sh -c 'exit 0' ("), "\(tool.report)")
                let failing = try Self.launch(["--title", title, "--", "sh", "-c", "exit 3"])
                #expect(try await failing.waitForExit() == .exited(3), "\(failing.report)")
                #expect(failing.text.contains("✖ sh -c 'exit 3': exit status 3"), "\(failing.report)")
            }

            @Test func aTimeoutStopsTheCommandAndExitsWith124() async throws {
                let tool = try Self.launch(["--timeout", "500ms", "--", "sh", "-c", "echo waiting; sleep 100"])
                let group = try await Self.commandGroup(of: tool)
                #expect(try await tool.waitForExit() == .exited(124), "\(tool.report)")
                #expect(tool.text.contains("timed out after"), "\(tool.report)")
                try await Self.expectNothingLeft(in: group, tool)
            }

            // MARK: - Output

            /// `wait-alert -- cmd | …` (as in `$(…)`): what reaches the pipe is exactly what the command
            /// printed — control bytes, invalid UTF-8, a line without its newline — while the alert
            /// shows on the terminal.
            @Test func standardOutputOnAPipeIsPassedThroughByteForByte() async throws {
                let (output, status) = (Self.temporaryPath("captured"), Self.temporaryPath("status"))
                defer {
                    unlink(output)
                    unlink(status)
                }
                let printed = #"printf 'line one\n\000\001\377\033[31mred\r\n\tno newline'; echo to stderr >&2"#
                let shell = try Self.shell(
                    #"{ "$0" -- sh -c "$3"; echo $? > "$2"; } | cat > "$1""#, [output, status, printed])
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                let expected = Array("line one\n".utf8) + [0, 1, 0xFF, 0x1B] + Array("[31mred\r\n\tno newline".utf8)
                #expect(Self.contents(of: output) == expected, "\(shell.report)")
                #expect(Self.contents(of: status) == Array("0\n".utf8))
                #expect(shell.text.contains("✔ sh -c"), "the alert still ends on the terminal\n\(shell.report)")
            }

            /// `> file`: what goes to the file is passed through and never shown — not as the status,
            /// not in the failure tail — while the alert still shows and ends on the terminal.
            @Test func aRedirectedStandardOutputIsNeitherShownNorKept() async throws {
                let output = Self.temporaryPath("secret")
                defer { unlink(output) }
                let shell = try Self.shell(
                    #""$0" --title Working -- sh -c 'echo SECRET-TOKEN; sleep 1; echo building >&2; sleep 1' > "$1""#,
                    [output])
                try await shell.waitFor(text: "building")
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                #expect(!shell.output.contains(bytes: "SECRET-TOKEN"), "\(shell.report)")
                #expect(shell.text.contains("✔ Working ("), "\(shell.report)")
                #expect(Self.contents(of: output) == Array("SECRET-TOKEN\n".utf8))
            }

            /// A failing command with its standard output in a file: the tail above the final line is
            /// what reached the terminal (its standard error), not the file's last lines.
            @Test func theFailureTailHoldsOnlyWhatReachedTheTerminal() async throws {
                let output = Self.temporaryPath("copied")
                defer { unlink(output) }
                let script = #"seq 1 100; echo 'error: disk full' >&2; exit 1"#
                let shell = try Self.shell(#""$0" --title Copying -- sh -c "$2" > "$1""#, [output, script])
                #expect(try await shell.waitForExit() == .exited(1), "\(shell.report)")
                let lines = shell.screen.lines.filter { !$0.isEmpty }
                #expect(lines == ["error: disk full", "✖ Copying: exit status 1"], "\(shell.report)")
                #expect(Self.contents(of: output) == Array((1...100).map { "\($0)\n" }.joined().utf8))
            }

            /// `> /dev/pts/N`, another terminal: the output goes there (through a pseudo-terminal of
            /// its own, so the command still sees a terminal), and never to the alert's terminal.
            @Test func standardOutputOnAnotherTerminalGoesThereOnly() async throws {
                let other = try SecondTerminal()
                let shell = try Self.shell(
                    #""$0" --title Working -- sh -c '[ -t 1 ] && echo OTHER-TERMINAL; sleep 1; echo building >&2; sleep 0.5' > "$1""#,
                    [other.path])
                try await shell.waitFor(text: "building")
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                #expect(!shell.output.contains(bytes: "OTHER-TERMINAL"), "\(shell.report)")
                #expect(shell.text.contains("✔ Working ("), "\(shell.report)")
                #expect(other.read().contains(bytes: "OTHER-TERMINAL\r\n"), "\(escaped(other.read()))")
            }

            /// `> /dev/tty`: the alert's own terminal by another name, so display output (through the
            /// pseudo-terminal, shown as `--show-output` says), not bytes written past the alert.
            @Test func standardOutputToDevTtyIsTheAlertsTerminal() async throws {
                let shell = try Self.shell(
                    #""$0" --title Working -- sh -c 'echo to-stdout; sleep 0.8; echo more; sleep 0.4' > /dev/tty"#)
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                let lines = shell.screen.transcript.filter { !$0.isEmpty }
                #expect(lines.count == 1 && lines[0].hasPrefix("✔ Working ("), "\(shell.report)")
                #expect(shell.output.contains(bytes: "more"), "shown as the status\n\(shell.report)")
            }

            /// `<&-`, `>&-`, `2>&-`: the command gets the descriptor closed, as when run bare.
            @Test(arguments: [
                ("<&-", "0", ""),
                (">&-", "1", ">&2"),
                ("2>&-", "2", ""),
            ])
            func aClosedDescriptorStaysClosedForTheCommand(redirection: String, descriptor: String, report: String)
                async throws
            {
                let probe = #"""
                    if [ -e /proc/$$/fd/\#(descriptor) ]; then echo "fd \#(descriptor) open" \#(report); else echo "fd \#(descriptor) closed" \#(report); fi
                    """#
                let shell = try Self.shell(
                    #""$0" --show-output always -- sh -c "$1" \#(redirection); echo "status $?""#, [probe])
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                #expect(shell.screen.transcript.contains("fd \(descriptor) closed"), "\(shell.report)")
                #expect(shell.screen.transcript.contains("status 0"), "\(shell.report)")
            }

            /// `echo hi >&-` fails (`EBADF`, status 1) under `wait-alert` as it does bare, and says why.
            @Test func aCommandWritingToAClosedStandardOutputFailsAsItWouldBare() async throws {
                let echo = try Self.shell(
                    #"/bin/echo hi >&-; echo "bare $?"; "$0" -- /bin/echo hi >&-; echo "wait-alert $?""#)
                #expect(try await echo.waitForExit() == .exited(0), "\(echo.report)")
                #expect(echo.screen.transcript.contains("bare 1"), "\(echo.report)")
                #expect(echo.screen.transcript.contains("wait-alert 1"), "the same status as bare\n\(echo.report)")
                #expect(echo.text.contains("Bad file descriptor"), "the command's own complaint shows\n\(echo.report)")
            }

            /// `wait-alert -- cmd | head -1`: the command ends by `SIGPIPE` once `head` has gone, as
            /// it does bare — said as a warning, not a failure — and the status is still 141.
            @Test func aCommandWhoseReaderWentAwayEndsWithAWarning() async throws {
                let counting = #""$0" --title Counting -- sh -c 'while :; do echo tick; done'"#
                let shell = try Self.shell(#"{ "# + counting + #"; echo "status $?" >&2; } | head -1"#)
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                let lines = shell.screen.transcript.filter { !$0.isEmpty }
                #expect(lines.first == "tick", "\(shell.report)")
                #expect(
                    lines.contains {
                        $0.hasPrefix("⚠ Counting: killed by SIGPIPE: the reader of its output went away (")
                    },
                    "\(shell.report)")
                #expect(lines.last == "status 141", "\(shell.report)")
            }

            /// A megabyte through the pipe and a megabyte of lines on the terminal: nothing lost, and
            /// done well within the hang guard.
            @Test func aMegabyteOfOutputLosesNothing() async throws {
                let (input, output) = (Self.temporaryPath("random"), Self.temporaryPath("copy"))
                defer {
                    unlink(input)
                    unlink(output)
                }
                let random = try Self.shell(#"head -c 1048576 /dev/urandom > "$1""#, [input])
                #expect(try await random.waitForExit() == .exited(0))
                let copy = try Self.shell(#""$0" -- cat "$1" | cat > "$2""#, [input, output])
                #expect(try await copy.waitForExit(timeout: .seconds(60)) == .exited(0), "\(copy.report)")
                let original = try #require(Self.contents(of: input))
                #expect(original.count == 1_048_576)
                #expect(Self.contents(of: output) == original)

                let lines = try Self.launch(["--show-output", "always", "--", "seq", "1", "150000"])
                #expect(try await lines.waitForExit(timeout: .seconds(60)) == .exited(0), "\(lines.report)")
                let printed = lines.screen.transcript.filter { !$0.isEmpty }
                #expect(printed.dropLast() == (1...150_000).map(String.init), "every line, in order\n\(lines.report)")
                #expect(printed.last?.hasPrefix("✔ seq 1 150000 (") == true, "\(lines.report)")
            }

            @Test func aFailureShowsTheLastLinesAboveTheFinalLine() async throws {
                let script = "for i in 1 2 3 4 5; do echo line $i; done; echo oops >&2; exit 2"
                let tool = try Self.launch(["--title", "Building", "--tail", "3", "--", "sh", "-c", script])
                #expect(try await tool.waitForExit() == .exited(2), "\(tool.report)")
                let lines = tool.screen.lines.filter { !$0.isEmpty }
                #expect(lines == ["line 4", "line 5", "oops", "✖ Building: exit status 2"], "\(tool.report)")
            }

            @Test func aSuccessShowsOnlyTheFinalLine() async throws {
                let tool = try Self.launch(["--success", "Built", "--", "sh", "-c", "echo compiling; sleep 0.3"])
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                let lines = tool.screen.lines.filter { !$0.isEmpty }
                #expect(lines.count == 1 && lines[0].hasPrefix("✔ Built ("), "\(tool.report)")
            }

            /// The command's pseudo-terminal has the terminal's size, and follows it (`SIGWINCH`).
            @Test func theCommandSeesTheWindowSizeAndItsChanges() async throws {
                let script = #"trap 'stty size <&1; exit 0' WINCH; stty size <&1; while :; do sleep 0.05; done"#
                let tool = try Self.launch(["--show-output", "always", "--status", "none", "--", "sh", "-c", script])
                try await tool.waitFor(text: "24 80")
                try tool.resize(columns: 60, rows: 20)
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
                #expect(tool.screen.transcript.contains("20 60"), "\(tool.report)")
            }

            /// `--show-output always`: each line prints above the alert while the command still runs.
            @Test func alwaysStreamsLinesAsTheyCome() async throws {
                let script = "echo first; sleep 30"
                let tool = try Self.launch(["--show-output", "always", "--status", "none", "--", "sh", "-c", script])
                try await tool.waitFor(text: "first")
                #expect(tool.termination == nil, "still running when the line shows\n\(tool.report)")
                tool.kill(SIGTERM)
                _ = try await tool.waitForExit()
            }

            /// Standard error on a pipe: the command's output passes through, then one plain outcome
            /// line, and not a single escape byte.
            @Test func noEscapeByteWithoutATerminal() async throws {
                let tool = try Self.launch(
                    ["--", "sh", "-c", "echo out; printf '\\033[31mred\\033[0m\\n' >&2; exit 1"], connection: .pipe)
                #expect(try await tool.waitForExit() == .exited(1), "\(tool.report)")
                let text = tool.text
                #expect(text.contains("out\n"), "\(tool.report)")
                #expect(text.hasSuffix(": exit status 1\n"), "\(tool.report)")
                let outcome = text.lastIndex(of: "✖").map { text[$0...] } ?? ""
                #expect(!outcome.contains("\u{1B}"), "no escape byte from wait-alert\n\(tool.report)")
                // The only escape bytes are the command's own, passed through unchanged.
                #expect(tool.output.filter { $0 == 0x1B }.count == 2, "\(tool.report)")
            }

            // MARK: - Signals

            /// Ctrl-C while the alert shows: the whole group ends — the shell, its foreground `sleep`
            /// and the `sleep` it started in the background (which ignores `SIGINT`) — and the exit
            /// status is 130.
            @Test(arguments: [false, true])
            func interruptLeavesNoProcessOfTheGroup(beforeTheAlertShows: Bool) async throws {
                let tool = try Self.launch(["--", "sh", "-c", "sleep 100 & echo started; sleep 100"])
                let group = try await Self.commandGroup(of: tool)
                try await tool.waitUntil("three processes in the group") { _ in
                    ProcessTable.liveMembers(ofGroup: group).count == 3
                }
                if !beforeTheAlertShows { try await tool.waitForSpinner() }
                try tool.sendInterrupt()
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                #expect(tool.text.contains("cancelled after"), "\(tool.report)")
                try await Self.expectNothingLeft(in: group, tool)
            }

            /// A command that ignores Ctrl-C: a second Ctrl-C kills its group at once.
            @Test func aSecondInterruptKillsTheGroup() async throws {
                let tool = try Self.launch(["--", "sh", "-c", "trap '' INT; echo started; sleep 100"])
                let group = try await Self.commandGroup(of: tool)
                try await tool.waitForSpinner()
                try tool.sendInterrupt()
                try await Task.sleep(for: .milliseconds(200))  // two signals, not one coalesced
                try tool.sendInterrupt()
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                try await Self.expectNothingLeft(in: group, tool)
            }

            /// A command that reads the terminal stops (it is not in the terminal's foreground):
            /// `wait-alert` says so, and Ctrl-C still ends it at once.
            @Test func aCommandStoppedReadingTheTerminalIsNamedAndInterruptible() async throws {
                let tool = try Self.launch(["--", "cat"])
                let group = try await Self.commandGroup(of: tool)
                try await tool.waitFor(text: "the command stopped")
                try tool.sendInterrupt()
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                try await Self.expectNothingLeft(in: group, tool)
            }

            /// A command that stops itself (as `top` does when it cannot have the terminal) is named
            /// too, whatever the signal; Ctrl-C still ends it.
            @Test func aCommandThatStopsItselfIsNamedAndInterruptible() async throws {
                let tool = try Self.launch(["--", "sh", "-c", "echo before; kill -STOP $$; echo after"])
                let group = try await Self.commandGroup(of: tool)
                try await tool.waitFor(text: "the command stopped (SIGSTOP)")
                #expect(tool.text.contains("kill -CONT \(group)"), "\(tool.report)")
                try tool.sendInterrupt()
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                try await Self.expectNothingLeft(in: group, tool)
            }

            /// A pager or a full-screen program turns line editing off on its terminal (the
            /// pseudo-terminal) and waits for keys that go to the real terminal instead: it is named,
            /// and Ctrl-C ends it.
            @Test func aCommandWaitingForKeysOnItsTerminalIsNamed() async throws {
                let tool = try Self.launch(["--", "sh", "-c", "stty raw -echo <&1; echo ready; sleep 100"])
                let group = try await Self.commandGroup(of: tool)
                try await tool.waitFor(text: "the command waits for keys")
                try tool.sendInterrupt()
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                try await Self.expectNothingLeft(in: group, tool)
            }

            /// Output that is only escape sequences would show nothing: the status stays the title.
            @Test func outputOfOnlyEscapeSequencesLeavesTheTitle() async throws {
                let script = #"printf '\033[0m\033[?25h\n\033]0;title\007'; sleep 2"#
                let tool = try Self.launch(["--title", "Deploying", "--", "sh", "-c", script])
                try await tool.waitUntil("the title on the spinner's line") { tool in
                    spinnerLines(tool.screen).contains { $0.hasSuffix("Deploying") }
                }
                #expect(try await tool.waitForExit() == .exited(0), "\(tool.report)")
            }

            /// A process the command started in the background goes on writing after `wait-alert`
            /// has exited: its output still reaches the terminal, and a pipe, as it would bare.
            @Test func aBackgroundProcessKeepsAWorkingOutputAfterWaitAlertExits() async throws {
                let output = Self.temporaryPath("daemon")
                defer { unlink(output) }
                let daemon = "(sleep 1; echo daemon-piped; echo daemon-alive >&2) & echo started"
                let shell = try Self.shell(
                    #""$0" --title Starting -- sh -c "$2" | cat > "$1"; echo done"#, [output, daemon])
                try await shell.waitFor(text: "daemon-alive")
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                #expect(shell.text.contains("✔ Starting ("), "\(shell.report)")
                #expect(Self.contents(of: output) == Array("started\ndaemon-piped\n".utf8), "\(shell.report)")
            }

            /// `SIGTERM` to `wait-alert` reaches the command, which winds down and exits as it chooses.
            @Test func terminationIsPassedOnToTheCommand() async throws {
                let script = "trap 'echo got TERM; exit 7' TERM; echo ready; while :; do sleep 0.1; done"
                let tool = try Self.launch(["--", "sh", "-c", script])
                let group = try await Self.commandGroup(of: tool)
                try await tool.waitForSpinner()
                tool.kill(SIGTERM)
                #expect(try await tool.waitForExit() == .exited(7), "\(tool.report)")
                #expect(tool.text.contains("cancelled after"), "\(tool.report)")
                try await Self.expectNothingLeft(in: group, tool)
            }
        }
    }

    /// A second pseudo-terminal for a program to write to by its path (`> /dev/pts/N`); the test
    /// reads what reaches it.
    final class SecondTerminal {
        let path: String
        private let master: Int32
        private let slave: Int32
        private var received: [UInt8] = []

        init() throws {
            var master: Int32 = -1
            var slave: Int32 = -1
            guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw EndToEndFailure("openpty failed") }
            _ = fcntl(master, F_SETFD, FD_CLOEXEC)
            _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
            var name = [CChar](repeating: 0, count: 256)
            guard ttyname_r(slave, &name, name.count) == 0 else {
                close(master)
                close(slave)
                throw EndToEndFailure("ttyname_r failed")
            }
            self.master = master
            self.slave = slave
            path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        deinit {
            close(master)
            close(slave)
        }

        /// Everything written to the terminal so far.
        func read() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let count = Glibc.read(master, &buffer, buffer.count), count > 0 { received += buffer[..<count] }
            return received
        }
    }
#endif

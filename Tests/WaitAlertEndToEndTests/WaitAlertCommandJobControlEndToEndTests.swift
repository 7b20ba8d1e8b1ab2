// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// `wait-alert` under job control: Ctrl-Z stops the command's process group with
        /// `wait-alert` (the shell's job), `fg` and `bg` continue both; under a shell without job
        /// control Ctrl-Z changes nothing and nothing hangs.
        struct WaitAlertCommandJobControlEndToEndTests {
            private typealias Command = WaitAlertCommandEndToEndTests

            /// A command that prints a line every 50 ms until the file `$0` exists (for 30 s at most).
            private static let countingScript =
                #"i=0; while [ ! -e "$0" ] && [ $i -lt 600 ]; do i=$((i+1)); echo "tick $i"; sleep 0.05; done"#

            /// ``countingScript`` as a command line, until `flag` exists.
            private static func counting(until flag: String) -> String {
                "sh -c " + ShellWord.quote(countingScript) + " " + ShellWord.quote(flag)
            }

            private static func create(_ path: String) {
                close(open(path, O_WRONLY | O_CREAT, 0o600))
            }

            /// Waits until every live process of `group` is stopped, or none is.
            private static func waitUntil(_ shell: DemoProcess, group: pid_t, isStopped: Bool) async throws {
                let what = isStopped ? "the command's group stopped" : "the command's group running"
                try await shell.waitUntil("\(what) (\(ProcessTable.describe(group: group)))") { _ in
                    let live = ProcessTable.liveMembers(ofGroup: group)
                    let stopped = ProcessTable.stoppedMembers(ofGroup: group)
                    return !live.isEmpty && (isStopped ? stopped.count == live.count : stopped.isEmpty)
                }
            }

            /// The command's process group: the one child of `wait-alert`, the shell's one child.
            private static func commandGroup(under shell: DemoProcess) async throws -> pid_t {
                var group: pid_t?
                try await shell.waitUntil("wait-alert and its command started") { shell in
                    let tools = ProcessTable.children(of: shell.pid)
                    guard tools.count == 1 else { return false }
                    let commands = ProcessTable.commands(of: tools[0])
                    group = commands.first
                    return commands.count == 1
                }
                return try #require(group)
            }

            /// Ctrl-Z under `bash -i`: the shell says `Stopped` and the command's whole group is
            /// stopped too, with the terminal restored. `fg` continues both and draws the alert again;
            /// `bg` continues both and the alert ends as a plain line, nothing drawn over the shell.
            /// With standard error in a file (no overlay) the command follows all the same.
            @Test(arguments: [("fg", ""), ("bg", ""), ("fg", " 2>/dev/null")])
            func ctrlZStopsTheCommandWithWaitAlert(resume: String, redirection: String) async throws {
                let flag = Command.temporaryPath("ctrl-z-\(resume)-\(redirection.count)")
                defer { unlink(flag) }
                let drawn = redirection.isEmpty
                let shell = try await DemoProcess.interactiveBash()
                let prompt = DemoProcess.shellPrompt
                try shell.type(
                    "\(try Command.executable()) --title Counting -- \(Self.counting(until: flag))\(redirection)\r")
                let group = try await Self.commandGroup(under: shell)
                // Once output shows, wait-alert knows the command's group.
                if drawn { try await shell.waitForSpinner() } else { try await shell.waitFor(text: "tick 1") }

                let stop = shell.output.count
                try shell.type([0x1A])
                try await shell.waitForOutput("Stopped", after: stop, then: prompt)
                try await Self.waitUntil(shell, group: group, isStopped: true)
                let stopped = try await shell.shellModes()
                #expect(stopped.echo && stopped.canonical, "\(shell.report)")

                let resumed = shell.output.count
                try shell.type("\(resume)\r")
                try await Self.waitUntil(shell, group: group, isStopped: false)
                if resume == "fg", drawn {
                    try await shell.waitUntil("the alert drawn again") { shell in
                        String(decoding: shell.output[resumed...], as: UTF8.self).unicodeScalars.contains {
                            spinnerScalars.contains($0)
                        }
                    }
                }
                if resume == "bg" { try await shell.waitForOutput(prompt, after: resumed) }
                Self.create(flag)
                if drawn { try await shell.waitForOutput("✔ Counting (", after: resumed) }
                if resume == "bg" {
                    try await shell.waitForOutput("Done", after: resumed)
                    let background = Array(shell.output[resumed...])
                    for sequence in ["\u{1B}[?25l", "\u{1B}[?7l", "\u{1B}[K", "\u{1B}[J", "\u{1B}[32m", "\u{1B}[1A"] {
                        #expect(
                            !background.contains(bytes: sequence),
                            "\(escaped(Array(sequence.utf8))) in \(escaped(background))")
                    }
                } else {
                    try await shell.waitForOutput(prompt, after: shell.output.count - prompt.utf8.count)
                }
                let after = try await shell.shellModes()
                #expect(after.echo && after.canonical, "\(shell.report)")
                #expect(spinnerLines(shell.screen).isEmpty, "no spinner left\n\(shell.report)")
                #expect(!shell.text.contains("the command stopped"), "a Ctrl-Z passed on is no news\n\(shell.report)")
            }

            /// Under plain `sh` (no job control) `wait-alert`'s group is orphaned and the system
            /// discards Ctrl-Z for it: the command is not stopped, the run ends as usual, and the
            /// terminal is as it was.
            @Test func ctrlZUnderAShellWithoutJobControlChangesNothing() async throws {
                let flag = Command.temporaryPath("ctrl-z-sh")
                defer { unlink(flag) }
                let shell = try Command.shell(#""$0" --title Counting -- \#(Self.counting(until: flag))"#)
                try await shell.waitForSpinner()
                let group = try await Self.commandGroup(under: shell)
                try shell.type([0x1A, 0x0D])  // Ctrl-Z, then a line end that shows it was taken
                try await shell.waitUntil("Ctrl-Z taken by the terminal") { ($0.typedBytesWaiting() ?? 0) >= 1 }
                try await Self.waitUntil(shell, group: group, isStopped: false)
                Self.create(flag)
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                #expect(shell.text.contains("✔ Counting ("), "\(shell.report)")
                #expect(shell.modesAtExit == shell.modesBefore, "\(shell.report)")
                #expect(spinnerLines(shell.screen).isEmpty, "\(shell.report)")
            }

            /// `wait-alert` started under job control whose group was orphaned since (its parent
            /// exited), then sent `SIGTSTP` once its alert is up (past the grace delay, so the
            /// overlay's own handler takes the stop): its own stop is discarded, so the command it
            /// stopped is continued, its later lines are still shown, and the run still ends with
            /// its final line.
            @Test func aStopDiscardedForWaitAlertDoesNotLeaveTheCommandStopped() async throws {
                let flag = Command.temporaryPath("orphan-flag")
                let pidFile = Command.temporaryPath("orphan-pid")
                defer {
                    unlink(flag)
                    unlink(pidFile)
                }
                // bash with job control starts wait-alert as a job of its own and exits; sh waits for
                // wait-alert to end (or to be a zombie: its new parent need not reap it).
                let script = #"""
                    bash -c 'set -m; pids=$1; shift; "$0" --title Orphaned --show-output always -- "$@" & echo $! > "$pids"' "$0" "$1" sh -c "$2" "$3"
                    while [ ! -s "$1" ]; do sleep 0.02; done
                    pid=$(cat "$1")
                    while [ -e "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do sleep 0.02; done
                    """#
                let shell = try Command.shell(
                    script,
                    [pidFile, Self.countingScript, flag])
                var tool: pid_t = 0
                var group: pid_t = 0
                try await shell.waitUntil("wait-alert orphaned, with its command started") { shell in
                    guard let bytes = Command.contents(of: pidFile),
                        let pid = pid_t(String(decoding: bytes, as: UTF8.self).filter(\.isNumber)),
                        let entry = ProcessTable.entries().first(where: { $0.pid == pid }),
                        let command = ProcessTable.commands(of: pid).first
                    else { return false }
                    (tool, group) = (pid, command)
                    // The bash that started it has exited: its parent is outside the session now.
                    return entry.group == pid && entry.parent != shell.pid
                        && !ProcessTable.children(of: shell.pid).contains(entry.parent)
                }
                try await shell.waitFor(text: "tick 20")  // a second in: the alert is up
                kill(tool, SIGTSTP)
                try await Self.waitUntil(shell, group: group, isStopped: true)
                try await Self.waitUntil(shell, group: group, isStopped: false)
                let last = shell.text.split(separator: "\n").last { $0.hasPrefix("tick ") }
                let next = (last.flatMap { Int($0.dropFirst(5)) } ?? 20) + 3
                try await shell.waitFor(text: "tick \(next)")  // lines after the stop still show
                Self.create(flag)
                #expect(try await shell.waitForExit() == .exited(0), "\(shell.report)")
                #expect(shell.text.contains("✔ Orphaned ("), "\(shell.report)")
            }
        }
    }

    /// Words for a shell command line.
    enum ShellWord {
        /// `word` in single quotes.
        static func quote(_ word: String) -> String {
            "'" + word.replacing("'", with: #"'\''"#) + "'"
        }
    }
#endif

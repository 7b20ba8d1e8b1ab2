// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// Whatever ends the program, the terminal comes back first: every signal whose default
        /// ends it, a closed pipe on standard output, a crash that other threads outlive for a
        /// while; and Ctrl-C is acknowledged at once, at work that checks for cancellation late,
        /// and at a question read as a line. Most run under `sh`, which restores nothing itself.
        @Suite(.serialized)
        struct SignalsEndToEndTests {
            private static func demo() throws -> String { try DemoProcess.executable.get() }

            /// What `sh -c` runs: `script` with `$0` the demo.
            private static func underShell(_ script: String, environment: [String: String] = [:]) throws
                -> DemoProcess
            {
                try DemoProcess(["-c", script, try demo()], environment: environment, program: "/bin/sh")
            }

            /// The signals besides `SIGTERM`, `SIGHUP` and `SIGQUIT` whose default action ends a
            /// program, sent while the alert spins: the terminal is restored, then the program
            /// ends by the signal itself (a shell sees 128 + its number).
            @Test(arguments: [
                SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT, SIGSYS,
                __libc_current_sigrtmin() + 2,
            ])
            func aSignalThatEndsTheProgramRestoresTheTerminalFirst(signal: Int32) async throws {
                let demo = try Self.underShell("ulimit -c 0; exec \"$0\" --steady")  // no core file
                try await demo.waitForSpinner()
                #expect(!demo.screen.isCursorVisible)
                #expect(demo.currentModes()?.echoes == false)
                demo.kill(signal)
                #expect(try await demo.waitForExit() == .signaled(signal), "\(demo.report)")
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                #expect(spinnerLines(demo.screen).isEmpty, "\(demo.report)")
                #expect(!demo.screen.isStyled)
                #expect(demo.modesAtExit == demo.modesBefore, "echo back on under sh\n\(demo.report)")
            }

            /// What `timeout` sends — `SIGTERM`, then `SIGCONT` for a program it may have stopped —
            /// while a command runs under the alert, under job control, in either order, before the
            /// alert shows and after: the terminal is restored and stays so, and no process is left.
            /// (The `SIGCONT` used to resume the overlay and turn echo off again while the program
            /// was ending, one run in four; before the alert showed, the output capture's relay
            /// process was left holding its own pseudo-terminal, for good.) The demo runs under
            /// `sh` in bash's job, so the job ends normally and bash, which restores the terminal
            /// itself after a job a signal ended, leaves the modes as they are.
            @Test func terminationAndContinueWhileACommandRunsRestoreTheTerminal() async throws {
                let shell = try await DemoProcess.interactiveBash()
                let marker = "wait-alert-e2e-\(getpid())-term-cont"
                let script = #""$0" run ": $1; sleep 30"; echo "demo ended: $?""#
                for run in 0..<8 {
                    let (early, continueFirst) = (run % 4 < 2, run % 2 == 1)
                    let what =
                        "run \(run): \(early ? "in the grace delay" : "alert shown"), "
                        + (continueFirst ? "SIGCONT first" : "SIGTERM first")
                    let start = shell.output.count
                    try shell.type(
                        "sh -c \(ShellWord.quote(script)) \(ShellWord.quote(try Self.demo())) \(marker)\r")
                    var demo: pid_t = 0
                    try await shell.waitUntil("the demo and its command started, \(what)") { shell in
                        guard let job = ProcessTable.commands(of: shell.pid).first,
                            let program = ProcessTable.children(of: job).first,
                            !ProcessTable.commands(of: program).isEmpty
                        else { return false }
                        demo = program
                        return true
                    }
                    if !early {
                        try await shell.waitUntil("a spinner line, \(what)") { shell in
                            String(decoding: shell.output[start...], as: UTF8.self).unicodeScalars.contains {
                                spinnerScalars.contains($0)
                            }
                        }
                    }
                    for signal in continueFirst ? [SIGCONT, SIGTERM] : [SIGTERM, SIGCONT] { kill(demo, signal) }
                    try await shell.waitForOutput("demo ended: 143", after: start, then: DemoProcess.shellPrompt)
                    let modes = try await shell.shellModes()
                    #expect(modes.echo && modes.canonical, "\(what)\n\(shell.report)")
                    if !modes.echo { try shell.type("stty sane\r") }
                    try await shell.waitUntil("nothing left of the demo, \(what)") { _ in
                        ProcessTable.running(withCommandLineContaining: marker).isEmpty
                    }
                }
                #expect(spinnerLines(shell.screen).isEmpty, "\(shell.report)")
            }

            /// `demo | head -1`: `head` exits after the first result, and the next one kills the
            /// demo with `SIGPIPE` while its alert spins — after the terminal was restored; its
            /// status stays 141. (The result `head` printed lands on the alert's row, after the
            /// spinner glyph, as any line another process writes to the terminal does.)
            @Test func aClosedPipeOnStandardOutputRestoresTheTerminalFirst() async throws {
                let demo = try Self.underShell("{ \"$0\" --results; echo \"demo ended: $?\" >&2; } | head -1")
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                #expect(demo.text.contains("demo ended: 141"), "\(demo.report)")
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                let lines = demo.screen.lines.filter { !$0.isEmpty }
                #expect(lines.count == 2 && lines[0].hasSuffix("result: Getting there…"), "\(demo.report)")
                #expect(lines.last == "demo ended: 141", "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore, "echo back on under sh\n\(demo.report)")
            }

            /// A signal the program ignores stays ignored while the alert shows: the work goes on
            /// and ends as usual.
            @Test func aSignalTheProgramIgnoresStaysIgnored() async throws {
                let demo = try Self.underShell("trap '' USR1 PIPE; exec \"$0\"")
                try await demo.waitForSpinner()
                demo.kill(SIGUSR1)
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                #expect(demo.screen.lines.contains { $0.hasPrefix("✔ Done (") }, "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// The runtime's crash report on — but for a program built with a sanitizer, whose
            /// runtime cannot follow the report's process being started from a signal handler.
            static var crashReport: String {
                EndToEndRuns.isSanitized ? "enable=no" : "enable=yes,interactive=no"
            }

            /// A crash while the program prints under its alert, with the runtime's crash report on
            /// (which takes its time while the program's other threads go on): the crash handler's
            /// restore is the last the overlay writes — no frame, spinner, hidden cursor or line
            /// printed again after it — and what was printed before the crash shows once.
            @Test func aCrashIsTheLastThingTheOverlayDraws() async throws {
                for run in 1...6 {
                    let demo = try DemoProcess(
                        ["output", "--crash"], environment: ["SWIFT_BACKTRACE": Self.crashReport])
                    let termination = try await demo.waitForExit(timeout: .seconds(30))
                    #expect(termination == .signaled(SIGILL) || termination == .signaled(SIGTRAP), "\(termination)")
                    let restored = try #require(
                        demo.output.firstIndex(of: 0x18), "run \(run): restored\n\(demo.report)")
                    let after = Array(demo.output[restored...])
                    #expect(!after.contains(bytes: "\u{1B}[?25l"), "run \(run): \(escaped(after.prefix(600)))")
                    #expect(
                        !String(decoding: after, as: UTF8.self).unicodeScalars.contains { spinnerScalars.contains($0) },
                        "run \(run): \(escaped(after.prefix(600)))")
                    let text = demo.text
                    for line in ["print line 3", "standard error line 3", "Fatal error: the demo crashed on purpose"] {
                        #expect(
                            text.ranges(of: line).count == 1, "run \(run): \(line) once\n\(escaped(after.prefix(600)))")
                    }
                    #expect(demo.screen.isCursorVisible, "run \(run)\n\(demo.report)")
                    #expect(demo.modesAtExit == demo.modesBefore, "run \(run)")
                }
            }

            /// A crash while a question shows and the program prints above it, with the runtime's
            /// crash report on: the crash message, caught as the program's output, wakes the
            /// question to print it above itself while the crash is handled on another thread —
            /// the question is not drawn again after the restore, the message shows once, and the
            /// cursor stays visible.
            @Test func aCrashWhileAskingIsTheLastThingTheQuestionDraws() async throws {
                for run in 1...8 {
                    let demo = try DemoProcess(
                        ["prompt", "--crash"], environment: ["SWIFT_BACKTRACE": Self.crashReport])
                    let termination = try await demo.waitForExit(timeout: .seconds(30))
                    #expect(termination == .signaled(SIGILL) || termination == .signaled(SIGTRAP), "\(termination)")
                    let restored = try #require(
                        demo.output.firstIndex(of: 0x18), "run \(run): restored\n\(demo.report)")
                    let after = Array(demo.output[restored...])
                    // No frame of the question (the crash report quotes the source, question and all).
                    for frame in ["\u{1B}[?25l", "\u{1B}[?2026h", "\u{1B}[?2004h", "› "] {
                        #expect(!after.contains(bytes: frame), "run \(run): \(escaped(after.prefix(400)))")
                    }
                    #expect(
                        demo.text.ranges(of: "Fatal error: the demo crashed on purpose").count == 1,
                        "run \(run): \(escaped(after.prefix(400)))")
                    #expect(demo.text.ranges(of: "working 20").count == 1, "run \(run)\n\(demo.report)")
                    #expect(demo.screen.isCursorVisible, "run \(run)\n\(demo.report)")
                    #expect(!demo.screen.isPasteBracketed)
                    #expect(demo.modesAtExit == demo.modesBefore, "run \(run)")
                }
            }

            // MARK: - Ctrl-C

            /// Ctrl-C at work that checks for cancellation only at its end: within a frame the
            /// row says it is cancelling and a notice how to quit at once, while the work goes on
            /// (the spinner keeps turning); once the work notices, the alert ends as cancelled.
            @Test func ctrlCSaysItIsCancellingAtOnce() async throws {
                let demo = try DemoProcess(["--stubborn"])
                try await demo.waitFor(text: "Getting there…")
                try demo.sendInterrupt()
                let interrupted = ContinuousClock.now
                try await demo.waitUntil("the row says it is cancelling") { demo in
                    demo.screen.lines.contains { $0.hasSuffix("· cancelling…") }
                        && demo.screen.lines.contains("  Press Ctrl-C again to quit")
                }
                #expect(
                    !DemoProcess.signalsRunAtOnce || ContinuousClock.now - interrupted < .seconds(1),
                    "within a frame or so\n\(demo.report)")
                try await demo.waitFor(text: "Just about there…")
                #expect(
                    demo.screen.lines.contains { $0.hasSuffix("Just about there… · cancelling…") }, "\(demo.report)")
                #expect(try await demo.waitForExit() == .exited(130))
                let lines = demo.screen.lines.filter { !$0.isEmpty }
                #expect(lines.count == 1 && lines[0].hasPrefix("⚠ Doing Something: cancelled after 4."), "\(lines)")
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A second Ctrl-C while the cancelled work goes on ends the program at once with
            /// 130, and still leaves the alert's final line, under the terminal as it was.
            @Test func aSecondCtrlCQuitsLeavingTheFinalLine() async throws {
                let demo = try DemoProcess(["--stubborn"])
                try await demo.waitFor(text: "Getting there…")
                try demo.sendInterrupt()
                try await demo.waitFor(text: "Press Ctrl-C again to quit")
                try demo.sendInterrupt()
                let quit = ContinuousClock.now
                #expect(try await demo.waitForExit() == .exited(130), "\(demo.report)")
                #expect(
                    !DemoProcess.signalsRunAtOnce || ContinuousClock.now - quit < .seconds(2), "at once\n\(demo.report)"
                )
                let lines = demo.screen.lines.filter { !$0.isEmpty }
                #expect(
                    lines.count == 1 && lines[0].hasPrefix("⚠ Doing Something: interrupted after ")
                        && lines[0].hasSuffix("s"), "\(demo.report)")
                #expect(demo.output.contains(bytes: "\u{1B}[33m⚠ Doing Something: interrupted after "), "yellow")
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                #expect(!demo.screen.isStyled, "\(demo.report)")
                #expect(spinnerLines(demo.screen).isEmpty, "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore, "\(demo.report)")
            }

            /// The same in the accessible mode: a line says the alert is cancelling and how to
            /// quit; a second Ctrl-C quits with the final line on a line of its own.
            @Test func ctrlCInTheAccessibleMode() async throws {
                let demo = try DemoProcess(["--stubborn"], environment: ["ACCESSIBLE": "1", "NO_COLOR": "1"])
                try await demo.waitFor(text: "Doing Something")
                try await Task.sleep(for: .milliseconds(700))  // past the grace delay: the work runs
                try demo.sendInterrupt()
                try await demo.waitFor(text: "Doing Something: cancelling… Press Ctrl-C again to quit.")
                try demo.sendInterrupt()
                #expect(try await demo.waitForExit() == .exited(130))
                let lines = demo.screen.lines.filter { !$0.isEmpty }
                #expect(lines.last?.hasPrefix("⚠ Doing Something: interrupted after ") == true, "\(demo.report)")
                #expect(lines.dropLast().last == "^C", "the final line below the ^C echoed\n\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Ctrl-C at a question read as a line — a text, a choice while an alert runs, a
            /// secret — cancels it: the ask throws `CancellationError`, and the program exits
            /// with 130 (`WaitAlertExit`), the terminal as it was.
            @Test(arguments: ["text", "choice", "secret"])
            func ctrlCAtALineQuestionCancelsIt(question: String) async throws {
                let demo = try DemoProcess(
                    question == "secret" ? ["prompt", "--secret"] : ["prompt"], environment: ["ACCESSIBLE": "1"])
                if question == "choice" {
                    try await demo.waitFor(text: "? Name of the new project:")
                    try demo.type("x\r")
                    try await demo.waitFor(text: "3) Abort")
                } else {
                    try await demo.waitFor(
                        text: question == "secret" ? "? Access token:" : "? Name of the new project:")
                }
                try await Task.sleep(for: .milliseconds(200))
                try demo.sendInterrupt()
                #expect(try await demo.waitForExit() == .exited(130), "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
                #expect(demo.screen.cursor.column == 0, "the next line starts below the question\n\(demo.report)")
            }

            // MARK: - Ctrl-Z

            /// A secret read as a line — in the accessible mode, or with standard error redirected
            /// — or drawn: after Ctrl-Z and `fg`, what is typed is still not shown.
            @Test(arguments: [
                "ACCESSIBLE=1 \"$0\" prompt --secret", "\"$0\" prompt --secret 2>/dev/null", "\"$0\" prompt --secret",
            ])
            func aSecretStaysHiddenAfterCtrlZAndFg(command: String) async throws {
                let shell = try await DemoProcess.interactiveBash()
                let demo = try Self.demo()
                try shell.type(command.replacingOccurrences(of: "\"$0\"", with: demo) + "\r")
                // With standard error redirected, the question goes to the terminal itself.
                try await shell.waitFor(text: "Access token:")
                try await Task.sleep(for: .milliseconds(200))
                try shell.type([0x1A])
                try await shell.waitForOutput("Stopped", then: DemoProcess.shellPrompt)
                let resumed = shell.output.count
                try shell.type("fg\r")
                try await shell.waitForOutput("prompt --secret", after: resumed)
                try await shell.waitUntil("echo off again") { $0.currentModes()?.echoes == false }
                try shell.type("hunter2\r")
                try await shell.waitForOutput("token: 7 characters", after: resumed, then: DemoProcess.shellPrompt)
                #expect(!Array(shell.output[resumed...]).contains(bytes: "hunter2"), "\(shell.report)")
                let modes = try await shell.shellModes()
                #expect(modes.echo && modes.canonical)
            }
        }
    }
#endif

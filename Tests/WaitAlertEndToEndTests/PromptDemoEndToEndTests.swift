// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// `wait-alert-demo prompt` under a real pseudo-terminal, answered with the keyboard, and
        /// through a pipe: a text field, buttons while a wait alert runs, a yes/no question; the
        /// answers are printed on standard output.
        @Suite(.serialized)
        struct PromptDemoEndToEndTests {
            static let left = "\u{1B}[D"
            static let right = "\u{1B}[C"

            /// Typed answers, line editing, an arrow key and `y`: the answers come out, one record
            /// line stays per question, and the terminal is as it was.
            @Test func typedAnswers() async throws {
                let demo = try DemoProcess(["prompt"])
                try await demo.waitFor(text: "? Name of the new project:")
                #expect(demo.screen.isPasteBracketed, "bracketed paste on while the field reads keys")
                try demo.type("my-apq\u{7F}p" + Self.left + Self.left + "X")
                try await demo.waitFor(text: "my-aXpp")
                try demo.type("\r")
                try await demo.waitFor(text: "[ 1 Retry ]")
                try demo.type(Self.right)
                try await demo.waitFor(text: "[ 2 Skip ]")
                try demo.type("\r")
                try await demo.waitFor(text: "(y/N)")
                try demo.type("y")
                #expect(try await demo.waitForExit() == .exited(0))
                let lines = demo.screen.lines.filter { !$0.isEmpty }
                for expected in [
                    "? Name of the new project: my-aXpp", "? Upload failed: Skip", "? Overwrite 3 files? Yes",
                    "name: my-aXpp", "choice: 2 Skip", "overwrite: yes",
                ] {
                    #expect(lines.contains(expected), "\(expected)\n\(demo.report)")
                }
                #expect(lines.contains { $0.hasPrefix("✔ Skipped (") }, "\(demo.report)")
                #expect(!demo.screen.isPasteBracketed)
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A pasted text with line breaks and escape sequences: inserted whole, harmless, not
            /// submitted.
            @Test func aPasteIsInsertedWholeAndHarmless() async throws {
                let demo = try DemoProcess(["prompt"])
                try await demo.waitFor(text: "? Name of the new project:")
                try demo.type("\u{1B}[200~two\nlines\u{1B}[2J\u{1B}]0;x\u{7}\u{1B}[201~")
                try await demo.waitFor(text: "two lines")
                #expect(!demo.screen.screen.contains("? Upload failed"), "a paste never submits")
                try demo.type("\u{3}")
                #expect(try await demo.waitForExit() == .exited(130))
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Escape or Ctrl-C cancels: exit 130, no record line, the terminal as it was.
            @Test(arguments: ["\u{1B}", "\u{3}"])
            func cancelling(key: String) async throws {
                let demo = try DemoProcess(["prompt"])
                try await demo.waitFor(text: "? Name of the new project:")
                try demo.type("abc")
                try await demo.waitFor(text: "abc")
                try demo.type(key)
                #expect(try await demo.waitForExit() == .exited(130))
                #expect(!demo.screen.screen.contains("abc"), "the prompt is erased\n\(demo.report)")
                #expect(!demo.screen.isPasteBracketed)
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A resize while the field shows draws it again at the new width, the text kept.
            @Test func resizeWhileAsking() async throws {
                let demo = try DemoProcess(["prompt"])
                try await demo.waitFor(text: "? Name of the new project:")
                try demo.type("resized")
                try await demo.waitFor(text: "resized")
                try demo.resize(columns: 40, rows: 12)
                try demo.type("!\r")
                try await demo.waitFor(text: "[ 1 Retry ]")
                try demo.type("3")
                try await demo.waitFor(text: "(y/N)")
                try demo.type("\r")
                #expect(try await demo.waitForExit() == .exited(0))
                let lines = demo.screen.lines
                #expect(lines.contains("name: resized!"), "\(demo.report)")
                #expect(lines.contains("choice: 3 Abort"), "\(demo.report)")
                #expect(lines.contains("overwrite: no"), "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// The window narrowed while the field shows, on a terminal that re-wraps lines (tmux,
            /// VTE): the prompt is drawn again whole at the new width, and no line of it is left
            /// behind, on screen or in the scrollback.
            @Test func narrowingTheWindowLeavesNoStalePromptLine() async throws {
                let reflowing = InMemoryTerminal(columns: 80, rows: 24, reflowsOnResize: true)
                let demo = try DemoProcess(["prompt"], mirrors: [reflowing])
                try await demo.waitFor(text: "? Name of the new project:")
                try demo.type("a-rather-long-project-name-that-wraps")
                try await demo.waitFor(text: "that-wraps")
                try demo.resize(columns: 30, rows: 24)
                try demo.type("X")
                try await demo.waitUntil("the field drawn again") { _ in
                    reflowing.lines.contains { $0.hasSuffix("wrapsX") }
                }
                let lines = reflowing.transcript.filter { !$0.isEmpty }
                #expect(
                    lines.filter { $0.hasPrefix("? Name of the new project:") }.count == 1,
                    "\(numbered(lines))")
                #expect(lines.filter { $0.hasPrefix("›") }.count == 1, "\(numbered(lines))")
                try demo.type("\u{3}")
                #expect(try await demo.waitForExit() == .exited(130))
            }

            /// A paste longer than the field takes, or longer than 64 KiB, goes in cut — and the
            /// prompt says so under the field instead of dropping the rest without a word.
            @Test func aPasteThatIsCutSaysSo() async throws {
                let demo = try DemoProcess(["prompt"])
                try await demo.waitFor(text: "? Name of the new project:")
                try demo.type("\u{1B}[200~" + String(repeating: "n", count: 50) + "\u{1B}[201~")
                try await demo.waitFor(text: "Cut at 40 characters")
                try demo.type("\u{7F}")  // the next key clears the note
                try await demo.waitUntil("the note gone") { !$0.screen.screen.contains("Cut at 40") }
                try demo.type("\u{15}\u{1B}[200~" + String(repeating: "p", count: 70_000) + "\u{1B}[201~")
                try await demo.waitFor(text: "only its start went in")
                try demo.type("\u{3}")
                #expect(try await demo.waitForExit() == .exited(130))
            }

            /// A question at 20 columns: the `(y/N)` hint always shows, the question gives way.
            @Test func aNarrowConfirmationKeepsItsHint() async throws {
                let demo = try DemoProcess(
                    ["prompt", "--type-ahead"], connection: .pseudoTerminal(columns: 20, rows: 10))
                try await demo.waitFor(text: "(y/N)")
                try demo.type("n")
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.screen.lines.contains("delete: no"), "\(demo.report)")
            }

            /// Thirty options in a window of 12 rows: the list never takes more than the window,
            /// scrolls with the selection, and a digit pair picks option 12 of 30.
            @Test func aLongListScrollsWithinTheWindow() async throws {
                let demo = try DemoProcess(["prompt", "--list"], connection: .pseudoTerminal(columns: 40, rows: 12))
                try await demo.waitFor(text: "❯ 1. Region 1")
                #expect(!demo.screen.screen.contains("Region 12"), "\(demo.report)")
                for _ in 0..<14 { try demo.type("\u{1B}[B") }
                try await demo.waitFor(text: "❯ 15. Region 15")
                #expect(!demo.screen.screen.contains(" 1. Region 1\n"), "scrolled\n\(demo.report)")
                #expect(demo.screen.lines.filter { $0.contains("Region") }.count <= 11, "\(demo.report)")
                try demo.type("12")
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.screen.lines.contains("region: Region 12"), "\(demo.report)")
                #expect(demo.screen.lines.contains("? Pick a region: Region 12"), "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A confirmation while the work prints — with `print`, log lines, a subprocess:
            /// every line comes out above the question, once and whole; the question is never
            /// left behind in the scrollback.
            @Test func outputWhileAskingComesOutAboveTheQuestion() async throws {
                let demo = try DemoProcess(["prompt", "--output"])
                try await demo.waitFor(text: "(y/N)")
                try await demo.waitFor(text: "printing done", timeout: .seconds(30))
                try demo.type("y")
                #expect(try await demo.waitForExit() == .exited(0))
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                for line in 1...20 {
                    for text in ["printed line \(line)", "log line \(line)", "subprocess line \(line)"] {
                        #expect(transcript.filter { $0 == text }.count == 1, "\(text)\n\(numbered(transcript))")
                    }
                }
                #expect(
                    transcript.filter { $0.contains("Overwrite 3 files?") } == ["? Overwrite 3 files? Yes"],
                    "one record line, no stale copy of the question\n\(numbered(transcript))")
                let printed = transcript.filter { $0.hasPrefix("printed line") }
                #expect(printed == (1...20).map { "printed line \($0)" }, "in order")
                #expect(transcript.contains("overwrite: yes") && transcript.last?.hasPrefix("✔ Copied (") == true)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A crash while the question shows, under `sh` (which restores nothing itself): the
            /// terminal's modes come back and bracketed paste is turned off.
            @Test func aCrashWhileAskingRestoresTheTerminal() async throws {
                let demo = try DemoProcess(
                    ["-c", "\"$0\" prompt --crash; echo \"status $?\"; sleep 5", try DemoProcess.executable.get()],
                    environment: ["SWIFT_BACKTRACE": "enable=no"], program: "/bin/sh")
                try await demo.waitFor(text: "? Name of the new project:")
                #expect(demo.screen.isPasteBracketed)
                try await demo.waitUntil("the crash", timeout: .seconds(15)) {
                    $0.output.contains(bytes: "status 132") || $0.output.contains(bytes: "status 133")
                }
                #expect(!demo.screen.isPasteBracketed)
                #expect(demo.screen.isCursorVisible)
                #expect(demo.currentModes() == demo.modesBefore, "\(demo.report)")
                _ = Glibc.kill(-demo.pid, SIGKILL)
                _ = try await demo.waitForExit()
            }

            /// Keys typed while the work ran — `y` and Enter — never answer the confirmation that
            /// appears after it: it waits for a key typed while it shows.
            @Test func keysTypedBeforeTheQuestionNeverAnswerIt() async throws {
                let demo = try DemoProcess(["prompt", "--type-ahead"])
                try await demo.waitForSpinner()
                try demo.type("y\r")
                try await demo.waitFor(text: "? Delete all files? (y/N)")
                try await Task.sleep(for: .milliseconds(300))
                demo.pump()
                #expect(!demo.screen.screen.contains("delete:"), "\(demo.report)")
                try demo.type("\r")
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.screen.lines.contains("delete: no"), "\(demo.report)")
                #expect(demo.screen.lines.contains("? Delete all files? No"), "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A question that timed out takes nothing from standard input afterwards: the
            /// program's own `readLine()` gets the next line.
            @Test func aQuestionThatTimedOutLeavesTheNextLineToTheProgram() async throws {
                let demo = try DemoProcess(
                    ["-c", "(sleep 2; echo later) | \"$0\" prompt --timeout", try DemoProcess.executable.get()],
                    program: "/bin/sh")
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.screen.lines.contains("name: demo"), "\(demo.report)")
                #expect(demo.screen.lines.contains("next line: later"), "\(demo.report)")
            }

            /// Answers piped in, one line each: no terminal drawing, the answers used.
            @Test func pipedAnswers() async throws {
                let demo = try DemoProcess(
                    ["-c", "printf 'demo\\n2\\ny\\n' | \"$0\" prompt", try DemoProcess.executable.get()],
                    program: "/bin/sh")
                #expect(try await demo.waitForExit() == .exited(0))
                let lines = demo.screen.lines
                for expected in ["name: demo", "choice: 2 Skip", "overwrite: yes", "? Upload failed: Skip"] {
                    #expect(lines.contains(expected), "\(expected)\n\(demo.report)")
                }
            }

            /// Nothing to read and no default: a clear error names the question.
            @Test func noAnswerNamesTheQuestion() async throws {
                let demo = try DemoProcess(
                    ["-c", "printf 'de/mo\\n' | \"$0\" prompt", try DemoProcess.executable.get()], program: "/bin/sh")
                #expect(try await demo.waitForExit() == .exited(1))
                #expect(
                    demo.screen.screen.contains("does not answer \"Name of the new project:\""), "\(demo.report)")
            }
        }
    }
#endif

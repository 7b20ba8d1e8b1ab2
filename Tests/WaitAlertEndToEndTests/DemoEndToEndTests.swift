// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// The real demo binary under a real pseudo-terminal: what a user sees, what the terminal is left
        /// in, and how the program ends — on success, Ctrl-C, typing, signals, `exit()`, resizing, pipes
        /// and colour settings. Every test runs the demo's own timeline (about 4.5 s at most), one at
        /// a time with every other end-to-end test (see ``EndToEnd``).
        struct DemoEndToEndTests {
            /// The whole timeline at 80x24: one final line, the cursor back and visible, the terminal
            /// modes exactly as before, and nothing the in-memory terminal does not understand.
            @Test func succeedsAndLeavesTheTerminalAsItWas() async throws {
                let demo = try DemoProcess()
                try await demo.waitForSpinner()
                #expect(!demo.screen.isCursorVisible, "the cursor is hidden while the spinner shows\n\(demo.report)")
                let modesWhileSpinning = try #require(demo.currentModes())
                #expect(
                    !modesWhileSpinning.echoes && modesWhileSpinning.isCanonical && modesWhileSpinning.raisesSignals)

                #expect(try await demo.waitForExit() == .exited(0))
                let lines = demo.screen.lines
                let done = lines.firstIndex { $0.hasPrefix("✔ Done (") && $0.hasSuffix("s)") }
                #expect(done != nil, "a line ✔ Done (…s)\n\(demo.report)")
                #expect(spinnerLines(demo.screen).isEmpty, "no spinner glyph left\n\(demo.report)")
                #expect(lines.filter { !$0.isEmpty }.count == 1, "only the final line stays\n\(demo.report)")
                if let done {
                    #expect(
                        demo.screen.cursor == (done + 1, 0),
                        "the prompt comes back under the final line\n\(demo.report)")
                }
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                #expect(!demo.screen.isStyled, "no colour left on\n\(demo.report)")
                #expect(
                    demo.screen.unknownSequences.isEmpty, "\(demo.screen.unknownSequences.map { escaped($0.utf8) })")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Ctrl-C while a progress text shows: right after "Getting there…" appears (within its 0.4 s
            /// hold), or once "Just about there…" has stayed past its hold (1 s before the work would end).
            /// Either way the work is cancelled, the program ends with 130 and the screen says so.
            @Test(arguments: [false, true])
            func interruptCancelsTheWork(afterTheTextHold: Bool) async throws {
                let demo = try DemoProcess()
                if afterTheTextHold {
                    try await demo.waitFor(text: "Just about there…")
                    // 7 more frames of 80 ms: the text has stayed its minimum of 0.4 s.
                    let shown = demo.output.count
                    try await demo.waitUntil("7 spinner frames after the text") { demo in
                        demo.output[shown...].split(separator: UInt8(ascii: "\r")).count >= 7
                    }
                } else {
                    try await demo.waitFor(text: "Getting there…")
                }
                let modesWhileSpinning = try #require(demo.currentModes())
                #expect(!modesWhileSpinning.echoes && modesWhileSpinning.isCanonical, "\(modesWhileSpinning)")
                try demo.sendInterrupt()
                let interrupted = ContinuousClock.now
                #expect(try await demo.waitForExit() == .exited(130))
                #expect(
                    !DemoProcess.signalsRunAtOnce || ContinuousClock.now - interrupted < .seconds(2),
                    "the cancelled demo ends at once")
                #expect(
                    demo.screen.lines.contains { $0.hasPrefix("⚠ Doing Something: cancelled after ") }, "\(demo.report)"
                )
                #expect(spinnerLines(demo.screen).isEmpty, "\(demo.report)")
                #expect(
                    !demo.output.contains(bytes: "^C"), "Ctrl-C is not echoed while the alert shows\n\(demo.report)")
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                let modes = try #require(demo.modesAtExit)
                #expect(modes.echoes && modes.isCanonical, "\(modes)")
                #expect(modes == demo.modesBefore)
            }

            /// A Ctrl-C cancels the work; once that work has ended, the next Ctrl-C cancels the next
            /// work — also while a toast from the first is still on screen — instead of ending the
            /// program on the spot.
            @Test func eachWorkGetsItsOwnCtrlC() async throws {
                let demo = try DemoProcess(["--twice"])
                try await demo.waitFor(text: "Getting there…")
                try demo.sendInterrupt()
                try await demo.waitFor(text: "Doing it again")
                #expect(demo.screen.screen.contains("start it again"), "the toast is still on screen\n\(demo.report)")
                try demo.sendInterrupt()
                #expect(try await demo.waitForExit() == .exited(130))
                #expect(
                    demo.screen.lines.contains { $0.hasPrefix("⚠ Doing Something: cancelled after ") }, "\(demo.report)"
                )
                #expect(
                    demo.screen.lines.contains { $0.hasPrefix("⚠ Doing it again: cancelled after ") }, "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A fire-and-forget alert ended by the program's last statement — on the main actor, or
            /// from another thread while the main actor is held up until the exit — still leaves its
            /// final line, on a terminal and in a pipe.
            @Test(arguments: ["--forget", "--forget-elsewhere"])
            func theLastStatementsEndingIsPrinted(option: String) async throws {
                let demo = try DemoProcess([option])
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.screen.lines.contains { $0.hasPrefix("✔ Synced (") }, "\(demo.report)")
                #expect(spinnerLines(demo.screen).isEmpty, "\(demo.report)")
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
                let piped = try DemoProcess([option], connection: .pipe)
                #expect(try await piped.waitForExit() == .exited(0))
                #expect(piped.text.split(separator: "\n").contains { $0.hasPrefix("✔ Synced (") }, "\(piped.text)")
            }

            /// Two Ctrl-C in one keystroke burst: the demo ends with 130 at once, whichever path wins (the
            /// second `SIGINT` may merge with the first; the demo's work honours cancellation anyway).
            @Test func interruptingTwiceExitsAtOnce() async throws {
                let demo = try DemoProcess()
                try await demo.waitForSpinner()
                try demo.type([0x03, 0x03])
                let interrupted = ContinuousClock.now
                #expect(try await demo.waitForExit() == .exited(130), "\(demo.report)")
                #expect(
                    !DemoProcess.signalsRunAtOnce || ContinuousClock.now - interrupted < .seconds(2),
                    "well before the 4.5 s timeline ends")
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                #expect(spinnerLines(demo.screen).isEmpty, "no spinner line left\n\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Keys typed while the spinner shows are neither echoed nor able to move the line (they are
            /// kept for whatever reads the terminal next: `JobControlEndToEndTests`).
            @Test func typingNeitherShowsNorBreaksTheLine() async throws {
                let demo = try DemoProcess()
                try await demo.waitFor(text: "Getting there…")
                try await demo.waitForSpinner()
                let row = try #require(demo.screen.lines.firstIndex { spinnerLines(demo.screen).contains($0) })
                try demo.type("abc\r")
                try await demo.waitFor(text: "Really…")
                try await demo.waitForSpinner()
                #expect(!demo.screen.screen.contains("abc"), "\(demo.report)")
                #expect(demo.screen.lines.count == row + 1, "still one line\n\(demo.report)")
                #expect(spinnerLines(demo.screen) == [demo.screen.lines[row]], "rewritten in place\n\(demo.report)")

                #expect(try await demo.waitForExit() == .exited(0))
                #expect(!demo.output.contains(bytes: "abc"), "\(demo.report)")
                #expect(demo.screen.lines.filter { !$0.isEmpty }.count == 1, "\(demo.report)")
                #expect(demo.screen.lines.first?.hasPrefix("✔ Done") == true, "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// `SIGTERM` or `SIGHUP` while spinning: the screen and modes are restored, then the demo ends
            /// by the signal itself (so a shell sees the conventional status).
            @Test(arguments: [SIGTERM, SIGHUP])
            func terminatingSignalRestoresTheTerminal(signal: Int32) async throws {
                let demo = try DemoProcess()
                try await demo.waitForSpinner()
                #expect(!demo.screen.isCursorVisible)
                demo.kill(signal)
                let signaled = ContinuousClock.now
                #expect(try await demo.waitForExit() == .signaled(signal), "\(demo.report)")
                #expect(
                    !DemoProcess.signalsRunAtOnce || ContinuousClock.now - signaled < .seconds(2),
                    "the demo ends at once")
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                #expect(spinnerLines(demo.screen).isEmpty, "\(demo.report)")
                #expect(!demo.screen.isStyled)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// `exit(3)` called while the alert spins: the `atexit` hook restores the screen and modes.
            @Test func exitWhileSpinningRestoresTheTerminal() async throws {
                let demo = try DemoProcess(["--exit-early"])
                #expect(try await demo.waitForExit() == .exited(3), "\(demo.report)")
                #expect(demo.text.contains("Doing Something"), "the alert did show before exit\n\(demo.report)")
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                #expect(spinnerLines(demo.screen).isEmpty, "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Shrinks the window under a line of wide characters: the overlay redraws it to the new width
            /// and leaves nothing behind, on a terminal that cuts lines (xterm) and on ones that re-wrap
            /// them (tmux, VTE) — resized at the byte where the pty was, and, replayed, right after the
            /// long text was written (the cursor then rests at the end of the line).
            @Test func shrinkingTheWindowLeavesNoGarbage() async throws {
                let demo = try DemoProcess(["--hostile"])
                try await demo.waitFor(text: "漢字")
                try demo.resize(columns: 30, rows: 24)
                #expect(try await demo.waitForExit() == .exited(0))
                // Replayed from the recorded bytes, so a busy machine cannot miss the moment: the
                // overlay's first write after the resize (a redraw at the new width) and the screen
                // right after it, on a terminal that cuts lines and on one that re-wraps them.
                let resized = demo.resizeOffsets[0]
                let finalLine = try #require(demo.output.firstRange(of: Array("✔ Done".utf8))?.lowerBound)
                try #require(resized < finalLine, "the window shrank while the long text showed\n\(demo.report)")
                let redrawn = try #require(endOfFirstWrite(containing: "漢字", in: demo.output, after: resized))
                let textWritten = try #require(endOfFirstWrite(containing: "漢字", in: demo.output))
                let context =
                    "pty shrank at byte \(resized); bytes to the redraw: \(escaped(demo.output[max(resized - 120, 0)..<redrawn]))"
                for (name, reflows, resizeAt) in [
                    ("xterm", false, resized), ("reflowing", true, resized),
                    ("reflowing, resized right after the text", true, textWritten),
                ] {
                    let terminal = InMemoryTerminal(columns: 80, rows: 24, reflowsOnResize: reflows)
                    terminal.write(Array(demo.output[..<resizeAt]))
                    terminal.resize(columns: 30)
                    terminal.write(Array(demo.output[resizeAt..<redrawn]))
                    expectOneSpinnerLine(on: terminal, name, context)
                    terminal.write(Array(demo.output[redrawn...]))
                    #expect(terminal.lines.contains { $0.hasPrefix("✔ Done") }, "\(name): \(terminal)")
                    #expect(
                        terminal.lines.filter { !$0.isEmpty }.count == 1, "\(name): only the final line\n\(terminal)")
                    #expect(terminal.isCursorVisible, "\(name)")
                }
            }

            /// The window resized again and again until the program has exited (the region waits
            /// for the window to keep its size): the final line still comes out.
            @Test func resizingUntilTheEndKeepsTheFinalLine() async throws {
                let demo = try DemoProcess()
                try await demo.waitFor(text: "Just about there…")
                // Every 20 ms until the final line is written (or 5 s, when it never is).
                let end = ContinuousClock.now + .seconds(5)
                var step = 0
                while !demo.output.contains(bytes: "✔ Done"), ContinuousClock.now < end {
                    try? demo.resize(columns: step.isMultiple(of: 2) ? 60 : 80, rows: 24)
                    step += 1
                    try await Task.sleep(for: .milliseconds(20))
                    demo.pump()
                }
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.screen.transcript.contains { $0.hasPrefix("✔ Done (") }, "\(demo.report)")
            }

            /// Ctrl-Z with no job-control shell above the demo (it leads its own session here, so its
            /// process group is orphaned): the system discards the stop, and the overlay leaves it alone
            /// too — the spinner keeps going with the cursor hidden and echo off, then ends as usual.
            /// (Under a job-control shell, Ctrl-Z restores the terminal and `fg` redraws; checked in tmux.)
            @Test func ctrlZWithoutJobControlChangesNothing() async throws {
                let demo = try DemoProcess()
                try await demo.waitFor(text: "Getting there…")
                try demo.type([0x1A])  // Ctrl-Z: the line discipline sends SIGTSTP
                try await demo.waitFor(text: "Really…")
                #expect(!demo.screen.isCursorVisible, "\(demo.report)")
                let modes = try #require(demo.currentModes())
                #expect(!modes.echoes, "\(modes)")
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.screen.lines.contains { $0.hasPrefix("✔ Done (") }, "\(demo.report)")
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Standard output and error on a pipe: plain lines, not one escape byte.
            @Test func pipeGetsPlainLines() async throws {
                let demo = try DemoProcess(connection: .pipe)
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(!demo.output.contains(0x1B), "\(escaped(demo.output))")
                let lines = demo.text.split(separator: "\n", omittingEmptySubsequences: false)
                let texts = SeedTimeline.texts.dropLast().map { Substring($0) }
                #expect(Array(lines.prefix(4)) == texts, "\(lines)")
                #expect(lines.count == 6 && lines[4].hasPrefix("✔ Done (") && lines[5].isEmpty, "\(lines)")
            }

            /// A pty with `TERM=dumb`: plain lines too.
            @Test func dumbTerminalGetsPlainLines() async throws {
                let demo = try DemoProcess(environment: ["TERM": "dumb"])
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(!demo.output.contains(0x1B), "\(escaped(demo.output))")
                #expect(demo.screen.lines.contains("Doing Something"), "\(demo.report)")
                #expect(demo.screen.lines.contains { $0.hasPrefix("✔ Done (") }, "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// `NO_COLOR=1` turns the colours off but not the animation.
            @Test func noColorKeepsTheAnimation() async throws {
                let demo = try DemoProcess(environment: ["NO_COLOR": "1"])
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(!demo.output.contains(bytes: "\u{1B}[3"), "no SGR colour\n\(escaped(demo.output))")
                let glyphs = Set(demo.text.unicodeScalars.filter { spinnerScalars.contains($0) })
                #expect(glyphs.count >= 2, "the spinner animates: \(glyphs)")
                #expect(demo.screen.lines.contains { $0.hasPrefix("✔ Done (") }, "\(demo.report)")
            }

            /// `CLICOLOR_FORCE=1`: the final line is green, and the colour is reset after it.
            @Test func forcedColorMakesTheFinalLineGreen() async throws {
                let demo = try DemoProcess(environment: ["CLICOLOR_FORCE": "1"])
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(demo.output.contains(bytes: "\u{1B}[32m✔ Done ("), "\(escaped(demo.output.suffix(200)))")
                #expect(!demo.screen.isStyled, "the colour is reset\n\(demo.report)")
            }
        }
    }

    /// The offset just after the overlay write (`CSI K`, then a carriage return and, with autowrap
    /// back on, `CSI ?7h`) that first carries `text` after byte `start`.
    private func endOfFirstWrite(containing text: String, in output: [UInt8], after start: Int = 0) -> Int? {
        let needle = Array(text.utf8)
        let eraseLine = Array("\u{1B}[K".utf8)
        guard let found = output[start...].firstRange(of: needle)?.lowerBound,
            var end = output[found...].firstRange(of: eraseLine)?.upperBound
        else { return nil }
        // A line write ends by returning to column 0, then turning autowrap back on.
        if end < output.count, output[end] == 0x0D { end += 1 }
        let autowrapOn = Array("\u{1B}[?7h".utf8)
        if output[end...].starts(with: autowrapOn) { end += autowrapOn.count }
        return end
    }

    /// Expects `terminal` to show exactly one line, the spinner with the long text, within 30 cells.
    private func expectOneSpinnerLine(
        on terminal: InMemoryTerminal,
        _ name: String,
        _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            terminal.lines.allSatisfy { DisplayWidth.of($0) <= 30 },
            "\(name): \(terminal)",
            sourceLocation: sourceLocation
        )
        #expect(
            terminal.lines.filter { $0.contains("漢字") }.count == 1 && spinnerLines(terminal).count == 1
                && terminal.lines.filter { !$0.isEmpty }.count == 1,
            "\(name): one spinner line with the text and no garbage\n\(terminal)\n\(context)",
            sourceLocation: sourceLocation
        )
    }

    /// The spinner's frames.
    let spinnerScalars = Set(Spinner.brailleDots.frames.flatMap(\.unicodeScalars))

    /// The screen lines that show a spinner glyph.
    func spinnerLines(_ terminal: InMemoryTerminal) -> [String] {
        terminal.lines.filter { $0.unicodeScalars.contains(where: spinnerScalars.contains) }
    }
#endif

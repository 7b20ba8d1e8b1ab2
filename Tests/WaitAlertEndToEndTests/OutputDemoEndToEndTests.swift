// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// `wait-alert-demo output` under a real pseudo-terminal: a program that writes with
        /// `print`, to descriptor 2 and through subprocesses while its alert shows. Everything it
        /// writes comes out above the alert, whole lines, in order within each stream, and the
        /// alert's line is never broken; standard output redirected to a file is left alone.
        @Suite(.serialized)
        struct OutputDemoEndToEndTests {
            /// What the demo writes at step `step`, by stream.
            static func stepLines(_ step: Int) -> (output: [String], error: [String]) {
                (
                    ["print line \(step)", "subprocess \(step) says hi", "downloading 100%"],
                    ["standard error line \(step)", "subprocess \(step) warns"]
                )
            }

            /// Every line once, in order within each stream, above the final line; no spinner or
            /// escape left, the terminal as it was.
            @Test func strayOutputComesOutAboveTheAlert() async throws {
                let demo = try DemoProcess(["output"])
                #expect(try await demo.waitForExit() == .exited(0))
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                for step in 1...5 {
                    let expected = Self.stepLines(step)
                    for line in expected.output + expected.error {
                        #expect(
                            transcript.filter { $0 == line }.count == (line == "downloading 100%" ? 5 : 1),
                            "\(line) once, whole, on a line of its own\n\(numbered(transcript))")
                    }
                }
                for stream in [\(output: [String], error: [String]).output, \.error] {
                    let expected = (1...5).flatMap { Self.stepLines($0)[keyPath: stream] }
                    let seen = transcript.filter(expected.contains)
                    #expect(seen == expected, "in the order written\n\(numbered(transcript))")
                }
                #expect(transcript.last?.hasPrefix("✔ Done (") == true, "\(numbered(transcript))")
                #expect(!transcript.contains { $0.contains("downloading 10%") }, "a \\r line replaced, not stacked")
                expectTheRegionGone(demo, transcript, isRegionLine: { $0.contains("Step ") })
            }

            /// `demo output > file`: the file holds exactly what the program and its subprocesses
            /// wrote to standard output, byte for byte (the `\r` of the progress line included),
            /// and the terminal gets only standard error and the alert.
            @Test func standardOutputRedirectedToAFileIsUntouched() async throws {
                let file = "/tmp/wait-alert-output-\(getpid()).txt"
                defer { unlink(file) }
                let demo = try DemoProcess(
                    ["-c", "exec \"$0\" output > \(file)", try DemoProcess.executable.get()], program: "/bin/sh")
                #expect(try await demo.waitForExit() == .exited(0))
                let written = try #require(readFile(file))
                // The program's own `print` lines are block-buffered (a file), written at exit.
                let subprocess = (1...5).map {
                    "subprocess \($0) says hi\ndownloading 10%\rdownloading 60%\rdownloading 100%\n"
                }
                let printed = (1...5).map { "print line \($0)\n" }
                #expect(written == (subprocess + printed).joined(), "\(escaped(written.utf8))")
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                #expect(!transcript.contains { $0.contains("print line") || $0.contains("says hi") })
                #expect(transcript.contains("standard error line 5"))
            }

            /// A megabyte on each stream from one subprocess while the alert shows: nothing lost,
            /// nothing reordered within a stream, no deadlock.
            @Test func aMegabyteOnEachStreamComesThroughWhole() async throws {
                let demo = try DemoProcess(["output", "--megabyte"])
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(0))
                let transcript = demo.screen.transcript
                for prefix in ["out", "err"] {
                    let lines = transcript.filter { $0.hasPrefix(prefix + " ") }
                    let expected = (1...90_000).map {
                        "\(prefix) " + String(repeating: "0", count: 6 - String($0).count) + "\($0)"
                    }
                    let missing = Set(expected).subtracting(lines).sorted()
                    let context = missing.first.map { first -> String in
                        let number = Int(first.dropFirst(prefix.count + 1))! - 1
                        let before =
                            "\(prefix) " + String(repeating: "0", count: 6 - String(number).count) + "\(number)"
                        if let found = demo.output.firstRange(of: Array(first.utf8)) {
                            let from = max(found.lowerBound - 300, 0)
                            return "written: "
                                + escaped(demo.output[from..<min(found.lowerBound + 300, demo.output.count)])
                        }
                        guard let at = demo.output.firstRange(of: Array(before.utf8)) else { return "" }
                        return escaped(demo.output[at.lowerBound..<min(at.lowerBound + 600, demo.output.count)])
                    }
                    #expect(
                        missing.isEmpty,
                        "\(prefix): \(missing.count) lines missing: \(missing.prefix(5))\n\(context ?? "")")
                    let firstDifference = zip(lines, expected).first { $0 != $1 }
                    #expect(
                        lines.count == expected.count && firstDifference == nil,
                        "\(prefix): every line once, in order; first difference: \(String(describing: firstDifference))"
                    )
                }
                #expect(transcript.last { !$0.isEmpty }?.hasPrefix("✔ Copied (") == true)
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// `exit()` right after printing: the lines printed just before it are shown, the
            /// terminal is restored.
            @Test func exitPrintsWhatWasWrittenAndRestores() async throws {
                let demo = try DemoProcess(["output", "--exit"])
                #expect(try await demo.waitForExit() == .exited(0))
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.suffix(2) == ["print line 3", "standard error line 3"], "\(numbered(transcript))")
                // The exit restore starts with CAN, which cancels any sequence left half written.
                expectTheRegionGone(
                    demo, transcript, isRegionLine: { $0.contains("Step ") }, isExpectedUnknown: { $0 == "\u{18}" })
            }

            /// A crash right after printing: what was printed and the crash message reach the
            /// terminal, which is restored.
            @Test func aCrashMessageReachesTheTerminal() async throws {
                let demo = try DemoProcess(["output", "--crash"], environment: ["SWIFT_BACKTRACE": "enable=no"])
                let termination = try await demo.waitForExit()
                #expect(termination == .signaled(SIGILL) || termination == .signaled(SIGTRAP), "\(termination)")
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.contains("print line 3"), "\(numbered(transcript))")
                #expect(transcript.contains("standard error line 3"), "\(numbered(transcript))")
                #expect(
                    transcript.joined(separator: "\n").contains("Fatal error: the demo crashed on purpose"),
                    "\(numbered(transcript))")
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Ctrl-C and SIGTERM mid-run: the program ends as it should and the terminal is
            /// restored, with what was written before shown.
            @Test(arguments: [SIGINT, SIGTERM])
            func signalsRestoreTheDescriptorsAndTheTerminal(signal: Int32) async throws {
                let demo = try DemoProcess(["output"])
                try await demo.waitFor(text: "print line 2")
                try await demo.waitForSpinner()
                if signal == SIGINT { try demo.sendInterrupt() } else { demo.kill(signal) }
                let termination = try await demo.waitForExit()
                #expect(termination == (signal == SIGINT ? .exited(130) : .signaled(SIGTERM)))
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.contains("print line 2"))
                #expect(demo.screen.isCursorVisible)
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A job the program started in the background while its output was caught goes on
            /// writing after the program has ended: its lines reach the terminal, as without the
            /// capture, instead of failing with EIO.
            @Test func aBackgroundJobKeepsAWorkingOutputAfterTheProgramEnds() async throws {
                // Under a shell that outlives it, as in a terminal: the end of a session's leader
                // would hang the job up.
                let demo = try DemoProcess(
                    [
                        "-c", "\"$0\" output --background; echo \"demo exited $?\"; sleep 4",
                        try DemoProcess.executable.get(),
                    ],
                    program: "/bin/sh")
                try await demo.waitFor(text: "demo exited 0")
                try await demo.waitFor(text: "background done", timeout: .seconds(4))
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                for line in ["background output", "background error", "background done"] {
                    #expect(transcript.filter { $0 == line }.count == 1, "\(numbered(transcript))")
                }
                #expect(transcript.first { $0.hasPrefix("✔ Started (") } != nil, "\(numbered(transcript))")
                _ = Glibc.kill(-demo.pid, SIGKILL)  // the shell and its sleep: the session's group
                _ = try await demo.waitForExit()
            }

            /// A subprocess's last line, unfinished when the alert ends, is written where it was
            /// left — sanitized like every other line: no title change, no alternate screen, its
            /// colour kept.
            @Test func anUnfinishedLastLineIsSanitizedWhenTheCaptureEnds() async throws {
                let demo = try DemoProcess(["output", "--hostile"])
                #expect(try await demo.waitForExit() == .exited(0))
                #expect(!demo.output.contains(bytes: "\u{1B}]0;"), "\(escaped(demo.output.suffix(200)))")
                #expect(!demo.output.contains(bytes: "\u{1B}[?1049h"), "\(escaped(demo.output.suffix(200)))")
                #expect(!demo.output.contains(bytes: "PWNED"))
                #expect(demo.output.contains(bytes: "last \u{1B}[31mred\u{1B}[0m"))
                let transcript = demo.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.contains("first line") && transcript.contains("last red"), "\(numbered(transcript))")
            }

            /// A subprocess writing through the capture that asks for the window size when it
            /// changes gets the new size, not the one before (it gets the signal with the program,
            /// possibly before the capture took the new size, and then once more after).
            @Test func aSubprocessAskingForTheWindowSizeGetsTheNewOne() async throws {
                let demo = try DemoProcess(["output", "--window"])
                try await demo.waitFor(text: "watching")
                try demo.resize(columns: 100, rows: 30)  // in the grace delay: nothing drawn yet
                try await demo.waitFor(text: "size 100 30")
                try await demo.waitForSpinner()
                try demo.resize(columns: 90, rows: 28)  // while the alert shows
                try await demo.waitFor(text: "size 90 28")
                #expect(try await demo.waitForExit() == .exited(0))
                let sizes = demo.screen.transcript.filter { $0.hasPrefix("size ") }
                #expect(sizes.last == "size 90 28", "\(sizes)")
            }

            private func readFile(_ path: String) -> String? {
                guard let file = fopen(path, "rb") else { return nil }
                defer { fclose(file) }
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
                    bytes += buffer[..<count]
                }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }
#endif

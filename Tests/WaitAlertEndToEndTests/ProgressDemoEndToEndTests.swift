// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// `wait-alert-demo progress` under a real pseudo-terminal: three downloads with byte
        /// progress under one alert, the largest stalling for 5.8 s. The environment says the
        /// terminal is Ghostty 1.2, so the overlay also shows the progress in the tab or taskbar
        /// (`OSC 9;4`): these tests read those sequences from the bytes the demo wrote, and check
        /// that the last one clears it however the demo ends. A run takes about 9.5 s of real time.
        @Suite(.serialized)
        struct ProgressDemoEndToEndTests {
            /// A window size.
            struct Size: CustomTestStringConvertible, Sendable {
                var columns: Int
                var rows: Int
                var testDescription: String { "\(columns)x\(rows)" }
            }

            /// Where the taskbar progress is supported.
            static let ghostty = ["TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.2.0"]

            static let files = ["toolchain.tar.gz", "sdk-linux.tar.gz", "docs.zip"]

            /// The whole run: the alert spins without a bar, then the header adds the files up; the
            /// taskbar goes from indeterminate to percentages that never go back, and is cleared
            /// last. No line is ever wider than the window, the bar and the percentage show, and at
            /// 80 columns so do the rate, the time left and `stalled`.
            @Test(arguments: [Size(columns: 80, rows: 24), Size(columns: 40, rows: 24)])
            func downloadsWithTaskbarProgress(size: Size) async throws {
                let demo = try DemoProcess(
                    ["progress"], environment: Self.ghostty,
                    connection: .pseudoTerminal(columns: size.columns, rows: size.rows))
                var tooWide: [String] = []
                var sawBar = false
                try await demo.waitUntil("the downloads' bars and the end", timeout: .seconds(60)) { demo in
                    tooWide += demo.screen.lines.filter { DisplayWidth.of($0) > size.columns }
                    sawBar = sawBar || demo.screen.lines.contains { $0.contains("▕") && $0.contains("%") }
                    return demo.termination != nil
                }
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                #expect(tooWide.isEmpty, "no line wider than \(size.columns) columns: \(tooWide)")
                #expect(sawBar, "a bar with its percentage\n\(escaped(demo.output))")
                if size.columns >= 80 {
                    let text = demo.text
                    #expect(text.contains(" MB/s"), "a byte rate\n\(demo.report)")
                    #expect(text.contains(#/\d+% · \d+s left · [0-9.]+ (B|kB|MB) \//#), "a time left\n\(demo.report)")
                    #expect(text.contains("% · stalled · "), "the stall\n\(demo.report)")
                    #expect(
                        text.contains(
                            #/Downloading ▕[^▏]*▏ \d+% · (\S+ left · |stalled · )?[0-9.]+ MB \/ 69\.7 MB · ([0-9.]+ [kM]?B\/s · )?\d\/3/#
                        ),
                        "the header adds the files up\n\(demo.report)")
                }

                let states = taskbarStates(demo.output)
                expectWellFormed(states)
                #expect(states.first?.state == "3;0", "indeterminate while no size is known: \(states)")
                let percents = states.compactMap { $0.state.hasPrefix("1;") ? Int($0.state.dropFirst(2)) : nil }
                #expect(!percents.isEmpty, "percentages: \(states)")
                #expect(percents == percents.sorted(), "the percentage never goes back: \(percents)")
                #expect(!states.contains { $0.state.hasPrefix("2;") }, "no error: \(states)")
                expectClearedLast(states, demo)

                let transcript = demo.screen.transcript
                for file in Self.files {
                    #expect(transcript.count { $0.hasPrefix("✔ \(file) (") } == 1, "\(file)\n\(numbered(transcript))")
                }
                for line in [
                    "Mirror: https://mirror.example.org (3 files, 69.7 MB)",
                    "toolchain.tar.gz: nothing received for 5.9 s, then resumed",
                ] {
                    // Wrapped at 40 columns.
                    #expect(
                        transcript.joined().ranges(of: line).count == 1, "\(line) once\n\(numbered(transcript))")
                }
                #expect(
                    transcript.last?.hasPrefix("✔ Downloaded 3 files (69.7 MB) (") == true, "\(numbered(transcript))")
                expectTheRegionGone(
                    demo, transcript, isRegionLine: { $0.contains("▕") },
                    isExpectedUnknown: { $0.hasPrefix("\u{1B}]9;4;") })
            }

            /// Ctrl-C while the files download, or while the largest has stalled: every download is
            /// cancelled, the demo exits with 130, and the taskbar is cleared after the last
            /// progress it showed.
            @Test(arguments: [false, true])
            func interruptClearsTheTaskbar(duringTheStall: Bool) async throws {
                let demo = try DemoProcess(["progress"], environment: Self.ghostty)
                if duringTheStall {
                    try await demo.waitFor(text: "stalled", timeout: .seconds(30))
                } else {
                    try await demo.waitUntil("a percentage in the taskbar", timeout: .seconds(30)) { demo in
                        demo.output.contains(bytes: "\u{1B}]9;4;1;")
                    }
                }
                let modesWhileRunning = try #require(demo.currentModes())
                #expect(!modesWhileRunning.echoes, "\(modesWhileRunning)")
                try demo.sendInterrupt()
                #expect(try await demo.waitForExit(timeout: .seconds(30)) == .exited(130), "\(demo.report)")

                let states = taskbarStates(demo.output)
                expectWellFormed(states)
                #expect(states.contains { $0.state.hasPrefix("1;") }, "\(states)")
                expectClearedLast(states, demo)
                let transcript = demo.screen.transcript
                #expect(
                    transcript.last?.hasPrefix("⚠ Downloading: cancelled after ") == true, "\(numbered(transcript))")
                #expect(!demo.output.contains(bytes: "^C"), "Ctrl-C is not echoed\n\(demo.report)")
                expectTheRegionGone(
                    demo, transcript, isRegionLine: { $0.contains("▕") },
                    isExpectedUnknown: { $0.hasPrefix("\u{1B}]9;4;") })
            }

            /// `SIGTERM` while the files download: the demo ends by the signal, and the taskbar is
            /// cleared before it does.
            @Test func terminationClearsTheTaskbar() async throws {
                let demo = try DemoProcess(["progress"], environment: Self.ghostty)
                try await demo.waitUntil("a percentage in the taskbar", timeout: .seconds(30)) { demo in
                    demo.output.contains(bytes: "\u{1B}]9;4;1;")
                }
                demo.kill(SIGTERM)
                #expect(try await demo.waitForExit(timeout: .seconds(30)) == .signaled(SIGTERM), "\(demo.report)")
                let states = taskbarStates(demo.output)
                expectWellFormed(states)
                expectClearedLast(states, demo)
                #expect(demo.screen.isCursorVisible, "\(demo.report)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A download fails while the others go on: the taskbar shows an error from then on (no
            /// plain percentage after it), is cleared last, and the demo exits with 1.
            @Test func failureShowsAnErrorInTheTaskbar() async throws {
                let demo = try DemoProcess(["progress", "--fail"], environment: Self.ghostty)
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(1), "\(demo.report)")
                let states = taskbarStates(demo.output)
                expectWellFormed(states)
                let firstError = try #require(
                    states.firstIndex { $0.state.hasPrefix("2;") }, "an error state: \(states)")
                #expect(
                    !states[firstError...].contains { $0.state.hasPrefix("1;") || $0.state == "3;0" },
                    "the error stays until the end: \(states)")
                expectClearedLast(states, demo)
                let transcript = demo.screen.transcript
                #expect(
                    transcript.count { $0 == "✖ sdk-linux.tar.gz: connection reset by peer" } == 1,
                    "\(numbered(transcript))")
                #expect(transcript.last == "✖ Downloading: 1 file failed", "\(numbered(transcript))")
                expectTheRegionGone(
                    demo, transcript, isRegionLine: { $0.contains("▕") },
                    isExpectedUnknown: { $0.hasPrefix("\u{1B}]9;4;") })
            }

            /// Inside tmux (`TMUX` set) the sequence would reach whatever terminal tmux runs in: it
            /// is never written, while the region still draws its bars.
            @Test func noTaskbarProgressInsideTmux() async throws {
                var environment = Self.ghostty
                environment["TMUX"] = "/tmp/x,1,0"
                let demo = try DemoProcess(["progress"], environment: environment)
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(0), "\(demo.report)")
                #expect(
                    !demo.output.contains(bytes: "\u{1B}]9;4"), "no OSC 9;4\n\(taskbarStates(demo.output))")
                #expect(demo.text.contains("▕") && demo.text.contains("%"), "the bars still show\n\(demo.report)")
                expectTheRegionGone(
                    demo, demo.screen.transcript, isRegionLine: { $0.contains("▕") },
                    isExpectedUnknown: { $0.hasPrefix("\u{1B}]9;4;") })
            }

            /// On a pipe: not one escape byte, and a few lines — never one per report.
            @Test func pipeGetsPlainLines() async throws {
                let demo = try DemoProcess(["progress"], environment: Self.ghostty, connection: .pipe)
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(0))
                #expect(!demo.output.contains(0x1B), "\(escaped(demo.output))")
                let lines = demo.text.split(separator: "\n").map(String.init)
                #expect(lines.count <= 20, "a few lines\n\(numbered(lines))")
                #expect(Set(lines).count == lines.count, "no line twice\n\(numbered(lines))")
                for file in Self.files {
                    #expect(
                        lines.count { $0 == "  ▸ \(file)" || $0 == "▸ \(file)" } == 1, "\(file)\n\(numbered(lines))")
                    #expect(lines.count { $0.hasPrefix("✔ \(file) (") } == 1, "\(file)\n\(numbered(lines))")
                }
                #expect(lines.last?.hasPrefix("✔ Downloaded 3 files (69.7 MB) (") == true, "\(numbered(lines))")
                #expect(
                    lines.contains { $0.hasPrefix("Downloading: ") && $0.contains("%") }, "the sum: \(numbered(lines))")
            }

            /// Expects every `OSC 9;4` to set a known state with a percentage from 0 to 100.
            private func expectWellFormed(
                _ states: [(offset: Int, state: String)], sourceLocation: SourceLocation = #_sourceLocation
            ) {
                let malformed = states.map(\.state).filter { state in
                    let parts = state.split(separator: ";", omittingEmptySubsequences: false)
                    guard parts.count == 2, let kind = Int(parts[0]), let value = Int(parts[1]) else { return true }
                    return ![0, 1, 2, 3].contains(kind) || !(0...100).contains(value)
                        || (kind == 0 || kind == 3) && value != 0
                }
                #expect(malformed.isEmpty, "malformed OSC 9;4: \(malformed)", sourceLocation: sourceLocation)
            }

            /// Expects the last `OSC 9;4` to clear the taskbar, after every one that set it, and
            /// nothing after it to set it again.
            private func expectClearedLast(
                _ states: [(offset: Int, state: String)], _ demo: DemoProcess,
                sourceLocation: SourceLocation = #_sourceLocation
            ) {
                let lastSet = states.lastIndex { $0.state != "0;0" }
                let lastClear = states.lastIndex { $0.state == "0;0" }
                #expect(lastSet != nil, "the taskbar was set: \(states)", sourceLocation: sourceLocation)
                #expect(
                    lastClear != nil && lastClear == states.indices.last && lastClear ?? 0 > lastSet ?? -1,
                    "cleared after the last set: \(states.map(\.state))\n\(escaped(demo.output.suffix(300)))",
                    sourceLocation: sourceLocation)
            }

        }
    }

    /// The `OSC 9;4` sequences in `bytes` (`ESC ] 9 ; 4 ; state ; progress ESC \`), in order: where
    /// each starts and its `state;progress`.
    private func taskbarStates(_ bytes: [UInt8]) -> [(offset: Int, state: String)] {
        let start = Array("\u{1B}]9;4;".utf8)
        let end = Array("\u{1B}\\".utf8)
        var states: [(offset: Int, state: String)] = []
        var searched = 0
        while let found = bytes[searched...].firstRange(of: start) {
            guard let terminator = bytes[found.upperBound...].firstRange(of: end) else {
                states.append((found.lowerBound, "unterminated"))
                break
            }
            states.append(
                (found.lowerBound, String(decoding: bytes[found.upperBound..<terminator.lowerBound], as: UTF8.self)))
            searched = terminator.upperBound
        }
        return states
    }

#endif

// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert
    import WaitAlertTesting

    extension EndToEnd {
        /// `wait-alert-demo tasks` under a real pseudo-terminal: 40 child tasks in one region at the
        /// bottom of a small (80x12) and a large (120x40) window. Once the demo has ended, everything
        /// still printed holds each task's record line exactly once, the group's recap and final line,
        /// and nothing of the region: no spinner, no progress text, no header or summary line pushed
        /// into the scrollback. A run takes about 5 s of real time; the waits are for output, with
        /// generous timeouts for a loaded machine. The tests run one at a time: under a sanitizer,
        /// several of these runs at once (40 tasks each, and a test process that follows every frame)
        /// hold the demo's main actor up for more than a second, and the demo must keep to its own
        /// timeline (the failure before the longest targets end, a sub-step past its grace delay).
        @Suite(.serialized)
        struct TasksDemoEndToEndTests {
            /// A window size.
            struct Size: CustomTestStringConvertible, Sendable {
                var columns: Int
                var rows: Int
                var testDescription: String { "\(columns)x\(rows)" }
            }

            static let sizes = [Size(columns: 80, rows: 12), Size(columns: 120, rows: 40)]

            /// The demo's targets with sub-steps, and the record line each sub-step leaves.
            static let subSteps =
                ["Core", "Parser", "Database", "UI"].flatMap {
                    ["\($0): generating sources", "\($0): emitting module"]
                }
                + ["asset catalogs", "strings", "storyboards"].map { "Resources: processing \($0)" }

            private static func launch(_ arguments: [String], _ size: Size) throws -> DemoProcess {
                try DemoProcess(arguments, connection: .pseudoTerminal(columns: size.columns, rows: size.rows))
            }

            /// Keep going: every target runs to its end, one fails; each leaves one record line, the
            /// failure's last log lines follow, the steps after compiling never run, and the demo
            /// exits with 1 leaving the terminal as it was.
            @Test(arguments: sizes)
            func keepGoingRecordsEveryTaskOnce(size: Size) async throws {
                let demo = try Self.launch(["tasks"], size)
                try await demo.waitForSpinner(timeout: .seconds(30))
                let modesWhileRunning = try #require(demo.currentModes())
                #expect(!modesWhileRunning.echoes && modesWhileRunning.isCanonical, "\(modesWhileRunning)")
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(1), "\(demo.report)")

                let transcript = demo.screen.transcript
                let records = compileRecords(transcript)
                expectEveryTargetOnce(records, transcript)
                for (name, lines) in records {
                    switch name {
                    case "Networking": #expect(lines == ["✖ Compiling Networking: 2 errors generated"])
                    case "Fixtures": #expect(lines == ["↷ Compiling Fixtures: skipped (no Swift sources)"])
                    default: #expect(lines.allSatisfy { $0.hasPrefix("✔ Compiling \(name) (") }, "\(lines)")
                    }
                }
                for subStep in Self.subSteps {
                    #expect(
                        transcript.count { $0.hasPrefix("✔ \(subStep) (") } == 1,
                        "\(subStep) once\n\(numbered(transcript))"
                    )
                }
                let tail = [
                    "Compiling Networking: 2 errors generated — last log lines:",
                    "    Networking/Socket.swift:42:17: error: cannot find 'SocketAddress' in scope",
                    "            let address = SocketAddress(host: host, port: port)",
                    "    Networking/Channel.swift:57:9: error: 'Channel' has no member 'flush'",
                    "            channel.flush()",
                    "✖ Compiling: 1 of 40 targets failed",
                    "○ Linking: not run",
                    "○ Testing: not run",
                    "✖ Building: 1 task failed",
                ]
                #expect(
                    Array(transcript.suffix(tail.count)) == tail,
                    "the recap and the final line\n\(numbered(transcript))")
                for line in [
                    "↷ Running build plugins: skipped (no plugins in the package graph)",
                    "Fetched 6 packages (2 from cache)",
                ] {
                    #expect(transcript.count { $0 == line } == 1, "\(line)\n\(numbered(transcript))")
                }
                #expect(transcript.count { $0.hasPrefix("✔ Resolved 6 packages (") } == 1, "\(numbered(transcript))")
                expectTheRegionGone(demo, transcript, isRegionLine: { $0.contains(" files") })
            }

            /// Fail fast: the failure cancels the targets still compiling; each target still leaves
            /// exactly one record line (done before the failure, or cancelled), and the demo exits
            /// with 1.
            @Test(arguments: sizes)
            func failFastCancelsTheOtherTasks(size: Size) async throws {
                let demo = try Self.launch(["tasks", "--fail-fast"], size)
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(1), "\(demo.report)")

                let transcript = demo.screen.transcript
                let records = compileRecords(transcript)
                expectEveryTargetOnce(records, transcript)
                #expect(records["Networking"] == ["✖ Compiling Networking: 2 errors generated"])
                let cancelled = records.values.joined().filter { $0.contains(": cancelled after ") }
                // The longest targets take 3.6 s; the failing one fails after 1.6 s.
                #expect(!cancelled.isEmpty, "targets still compiling were cancelled\n\(numbered(transcript))")
                for (name, lines) in records where name != "Networking" && name != "Fixtures" {
                    #expect(
                        lines.allSatisfy {
                            $0.hasPrefix("✔ Compiling \(name) (")
                                || $0.hasPrefix("⚠ Compiling \(name): cancelled after ")
                        }, "\(lines)")
                }
                #expect(
                    Array(transcript.suffix(4)) == [
                        "✖ Compiling: stopped at the first failure (Networking)", "○ Linking: not run",
                        "○ Testing: not run", "✖ Building: Compiling Networking failed",
                    ], "\(numbered(transcript))")
                #expect(
                    transcript.count { $0.hasSuffix("— last log lines:") } == 1,
                    "the failure's recap\n\(numbered(transcript))")
                expectTheRegionGone(demo, transcript, isRegionLine: { $0.contains(" files") })
            }

            /// Ctrl-C while the targets compile: every task still running is cancelled — none runs to
            /// its end afterwards — the demo exits with 130, and the terminal is as it was.
            @Test(arguments: sizes)
            func interruptCancelsEveryTask(size: Size) async throws {
                let demo = try Self.launch(["tasks"], size)
                // A compile task has run for a second: about 1 s into compiling, before most targets
                // have finished and well before the longest (3.6 s). Looked for in the bytes: a busy
                // machine may read them after later frames replaced them on screen.
                let mark = Array(" files · 1s".utf8)
                var searched = 0
                try await demo.waitUntil("a compile task running for a second", timeout: .seconds(30)) { demo in
                    defer { searched = max(demo.output.count - mark.count, 0) }
                    return demo.output[searched...].firstRange(of: mark) != nil
                }
                let modesWhileRunning = try #require(demo.currentModes())
                #expect(!modesWhileRunning.echoes, "\(modesWhileRunning)")
                try demo.sendInterrupt()
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(130), "\(demo.report)")

                let transcript = demo.screen.transcript
                let records = compileRecords(transcript)
                expectEveryTargetOnce(records, transcript)
                let cancelledAfter = records.values.joined().compactMap { line -> Double? in
                    line.firstRange(of: ": cancelled after ").flatMap { Double(line[$0.upperBound...].dropLast()) }
                }
                #expect(!cancelledAfter.isEmpty, "the running tasks were cancelled\n\(numbered(transcript))")
                // A task that succeeded ended before the Ctrl-C reached it: no later than the cancelled
                // ones were stopped (all began together; 0.5 s for the scheduling of 40 beginnings).
                let latestCancel = cancelledAfter.max() ?? 0
                for line in records.values.joined() where line.hasPrefix("✔ ") {
                    let seconds = line.split(separator: "(").last.flatMap { Double($0.dropLast(2)) }
                    #expect(
                        seconds.map { $0 <= latestCancel + 0.5 } == true,
                        "\(line) after the Ctrl-C\n\(numbered(transcript))")
                }
                for line in ["⚠ Compiling: cancelled after ", "⚠ Building: cancelled after "] {
                    #expect(transcript.count { $0.hasPrefix(line) } == 1, "\(line)\n\(numbered(transcript))")
                }
                #expect(transcript.last?.hasPrefix("⚠ Building: cancelled after ") == true, "\(numbered(transcript))")
                #expect(transcript.contains("○ Linking: not run") && transcript.contains("○ Testing: not run"))
                #expect(!demo.output.contains(bytes: "^C"), "Ctrl-C is not echoed\n\(demo.report)")
                expectTheRegionGone(demo, transcript, isRegionLine: { $0.contains(" files") })
            }

            /// On a pipe: not one escape byte, a line when a task starts (once its grace has passed)
            /// and one when it ends, each exactly once.
            @Test func pipeGetsOneLinePerTaskChange() async throws {
                let demo = try DemoProcess(["tasks"], connection: .pipe)
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(1))
                #expect(!demo.output.contains(0x1B), "\(escaped(demo.output))")
                let lines = demo.text.split(separator: "\n").map(String.init)
                let records = compileRecords(lines.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 })
                expectEveryTargetOnce(records, lines)
                let changes = lines.filter { line in
                    ["▸", "✔", "✖", "⚠", "↷", "○"].contains { line.drop { $0 == " " }.hasPrefix($0) }
                }
                #expect(Set(changes).count == changes.count, "no state change printed twice\n\(numbered(lines))")
                // Every target but the skipped one ran past its grace: one line as it started.
                let started = lines.filter { $0.hasPrefix("  ▸ ") }
                #expect(started.count == 39, "\(numbered(started))")
                #expect(lines.last == "✖ Building: 1 task failed", "\(numbered(lines))")
            }

            /// Expects `records` to name 40 targets, each with exactly one record line.
            private func expectEveryTargetOnce(
                _ records: [String: [String]], _ transcript: [String], sourceLocation: SourceLocation = #_sourceLocation
            ) {
                #expect(records.count == 40, "40 targets\n\(numbered(transcript))", sourceLocation: sourceLocation)
                let repeated = records.filter { $0.value.count != 1 }
                #expect(repeated.isEmpty, "each record line once: \(repeated)", sourceLocation: sourceLocation)
            }

        }
    }

    /// The record lines of compile tasks in `lines`, by target: each line that starts with an icon
    /// and "Compiling <target>" (not the step's own "Compiling: …" line).
    private func compileRecords(_ lines: [String]) -> [String: [String]] {
        var records: [String: [String]] = [:]
        for line in lines {
            for icon in ["✔", "✖", "⚠", "↷"] where line.hasPrefix("\(icon) Compiling ") {
                let name = line.dropFirst("\(icon) Compiling ".count).prefix { $0.isLetter }
                records[String(name), default: []].append(line)
            }
        }
        return records
    }

#endif

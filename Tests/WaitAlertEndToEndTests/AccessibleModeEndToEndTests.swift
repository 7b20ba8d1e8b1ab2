// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    extension EndToEnd {
        /// `ACCESSIBLE=1` on a real terminal: lines only, for screen readers and people who turn
        /// motion off — no cursor movement, no erase, no spinner, every line whole.
        @Suite(.serialized)
        struct AccessibleModeEndToEndTests {
            /// The escape sequences in `bytes` that are not colours (`ESC [ … m`).
            static func motion(in bytes: [UInt8]) -> [String] {
                let text = String(decoding: bytes, as: UTF8.self)
                var found: [String] = []
                var rest = Substring(text)
                while let escape = rest.firstIndex(of: "\u{1B}") {
                    let sequence = rest[escape...].prefix { !$0.isLetter || $0 == "\u{1B}" }
                    let end = rest[escape...].dropFirst(sequence.count).first
                    let whole = String(sequence) + (end.map { String($0) } ?? "")
                    let isColour =
                        whole.hasPrefix("\u{1B}[") && whole.hasSuffix("m")
                        && whole.dropFirst(2).dropLast().allSatisfy { $0.isNumber || $0 == ";" }
                    if !isColour { found.append(String(reflecting: whole)) }
                    rest = rest[rest.index(after: escape)...]
                }
                return found
            }

            /// The lines of `bytes` without colours.
            static func lines(_ bytes: [UInt8]) -> [String] {
                var text = String(decoding: bytes, as: UTF8.self)
                while let start = text.range(of: "\u{1B}["), let end = text[start.upperBound...].firstIndex(of: "m") {
                    text.removeSubrange(start.lowerBound...end)
                }
                return text.split(whereSeparator: \.isNewline).map { String($0) }
            }

            /// Whether `line` holds a spinner glyph (the braille frames).
            static func spins(_ line: String) -> Bool {
                line.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
            }

            /// The classic demo: its title once, its texts as lines (the latest of each 3 s), its
            /// final line coloured last, and the terminal as it was.
            @Test func theClassicDemoSpeaksInLines() async throws {
                let demo = try DemoProcess([], environment: ["ACCESSIBLE": "1"])
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                #expect(Self.motion(in: demo.output).isEmpty, "\(Self.motion(in: demo.output))")
                let lines = Self.lines(demo.output)
                #expect(!lines.contains(where: Self.spins), "\(lines)")
                #expect(lines.first == "Doing Something", "\(lines)")
                #expect(lines.last?.hasPrefix("✔ Done (") == true, "\(lines)")
                #expect(lines.count >= 3 && Set(lines).count == lines.count, "no line repeated: \(lines)")
                #expect(
                    lines.dropFirst().dropLast().allSatisfy {
                        ["Getting there…", "Really…", "Just about there…"].contains($0)
                    },
                    "\(lines)")
                #expect(String(decoding: demo.output, as: UTF8.self).contains("\u{1B}[32m✔ Done ("), "coloured")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// The prompt demo: each question a plain line answered with a typed line (echoed by
            /// the terminal, no key handling), a wrong answer told and asked again, the answers
            /// recorded, and not one cursor movement.
            @Test func questionsAreLinesAnsweredWithALine() async throws {
                let demo = try DemoProcess(["prompt"], environment: ["ACCESSIBLE": "1"])
                try await demo.waitFor(text: "? Name of the new project: (demo)")
                try demo.type("demo-app\r")
                try await demo.waitFor(text: "1) Retry 2) Skip 3) Abort")
                try demo.type("7\r")
                try await demo.waitFor(text: "answer a number from 1 to 3")
                // Typed once the question is asked again (an answer typed before would be echoed
                // above it).
                try await demo.waitUntil("the question asked again") { demo in
                    demo.text.ranges(of: "1) Retry 2) Skip 3) Abort").count >= 2
                }
                try demo.type("skip\r")
                try await demo.waitFor(text: "(y/N)")
                try demo.type("y\r")
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                #expect(Self.motion(in: demo.output).isEmpty, "\(Self.motion(in: demo.output))")
                let lines = Self.lines(demo.output)
                for expected in [
                    "? Name of the new project: demo-app", "? Upload failed: Skip", "? Overwrite 3 files? Yes",
                    "name: demo-app", "choice: 2 Skip", "overwrite: yes",
                ] {
                    #expect(lines.contains(expected), "\(expected)\n\(lines)")
                }
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// A secret asked as a line is typed with the terminal's echo off: it never reaches
            /// the screen, the answer is recorded masked, and the echo is back afterwards.
            @Test func aSecretIsNeverEchoed() async throws {
                let demo = try DemoProcess(["prompt", "--secret"], environment: ["ACCESSIBLE": "1"])
                try await demo.waitFor(text: "? Access token:")
                try demo.type("hunter2\r")
                #expect(try await demo.waitForExit() == .exited(0), "\(demo.report)")
                let text = String(decoding: demo.output, as: UTF8.self)
                #expect(!text.contains("hunter2"), "\(Self.lines(demo.output))")
                #expect(Self.lines(demo.output).contains("? Access token: ********"), "\(Self.lines(demo.output))")
                #expect(Self.lines(demo.output).contains("token: 7 characters"), "\(Self.lines(demo.output))")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// Ctrl-C cancels the work as it does under the interactive overlay: the alert ends
            /// as a cancelled line (below the echoed `^C`), the demo exits with 130, and the
            /// terminal is as it was.
            @Test func ctrlCCancelsTheWork() async throws {
                let demo = try DemoProcess([], environment: ["ACCESSIBLE": "1"])
                try await demo.waitFor(text: "Doing Something")
                try demo.type("\u{3}")
                #expect(try await demo.waitForExit() == .exited(130), "\(demo.report)")
                let lines = Self.lines(demo.output)
                #expect(lines.last?.hasPrefix("⚠ Doing Something: cancelled after ") == true, "\(lines)")
                #expect(Self.motion(in: demo.output).isEmpty, "\(Self.motion(in: demo.output))")
                #expect(demo.modesAtExit == demo.modesBefore)
            }

            /// The tasks demo with `NO_COLOR`: not one escape byte; each target a line when it
            /// starts and one when it ends; the outcome last.
            @Test func theTasksDemoWritesStartAndEndLines() async throws {
                let demo = try DemoProcess(
                    ["tasks", "--succeed"], environment: ["ACCESSIBLE": "1", "NO_COLOR": "1"],
                    connection: .pseudoTerminal(columns: 100, rows: 30))
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(0), "\(demo.report)")
                #expect(!demo.output.contains(0x1B), "\(Self.motion(in: demo.output))")
                let lines = Self.lines(demo.output).map { $0.drop { $0 == " " } }
                #expect(!lines.contains { Self.spins(String($0)) })
                for target in ["Core", "Networking", "UI"] {
                    #expect(lines.count { $0 == "▸ Compiling \(target)" } == 1, "\(target): \(lines)")
                    #expect(lines.count { $0.hasPrefix("✔ Compiling \(target) (") } == 1, "\(target): \(lines)")
                }
                #expect(lines.last?.hasPrefix("✔ Build") == true, "\(lines.suffix(5))")
                #expect(demo.modesAtExit == demo.modesBefore)
            }
        }
    }
#endif

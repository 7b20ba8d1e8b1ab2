// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// The demo under a real job-control shell (`bash -i` on a pty): Ctrl-Z with `bg` and `fg`, a
        /// job started in the background, and keys typed ahead while the alert shows.
        struct JobControlEndToEndTests {
            private static func shell() async throws -> DemoProcess { try await DemoProcess.interactiveBash() }

            private static let prompt = DemoProcess.shellPrompt

            private static func demo() throws -> String { try DemoProcess.executable.get() }

            private static func shellModes(_ shell: DemoProcess) async throws -> (echo: Bool, canonical: Bool) {
                try await shell.shellModes()
            }

            /// Ctrl-Z at about 1.3 s, then `bg`: the job finishes in the background without touching
            /// the shell's terminal modes and without drawing over its prompt — its final line is a
            /// plain line — and the shell still echoes what is typed afterwards.
            @Test func aJobResumedInTheBackgroundLeavesTheShellAlone() async throws {
                let shell = try await Self.shell()
                try shell.type("\(try Self.demo()) --logs\r")
                try await shell.waitFor(text: "Getting there…")
                try await Task.sleep(for: .milliseconds(300))
                try shell.type([0x1A])
                try await shell.waitForOutput("Stopped", then: Self.prompt)
                let stopped = try await Self.shellModes(shell)
                #expect(stopped.echo && stopped.canonical, "\(shell.report)")
                let resumed = shell.output.count
                try shell.type("bg\r")
                try await shell.waitUntil("the job's end", timeout: .seconds(10)) { shell in
                    String(decoding: shell.output[resumed...], as: UTF8.self).contains("Done")
                        && String(decoding: shell.output[resumed...], as: UTF8.self).contains("✔ Done (")
                }
                let background = Array(shell.output[resumed...])
                for sequence in ["\u{1B}[?25l", "\u{1B}[?7l", "\u{1B}[K", "\u{1B}[J", "\u{1B}[32m", "\u{1B}[1A"] {
                    #expect(
                        !background.contains(bytes: sequence),
                        "\(escaped(Array(sequence.utf8))) in \(escaped(background))")
                }
                #expect(
                    !spinnerScalars.contains { String(decoding: background, as: UTF8.self).unicodeScalars.contains($0) }
                )
                #expect(background.contains(bytes: "reached 3"), "log lines still print: \(escaped(background))")
                let after = try await Self.shellModes(shell)
                #expect(after.echo && after.canonical, "the shell's modes are its own\n\(shell.report)")
                let typed = shell.output.count
                try shell.type("echo visible\r")
                try await shell.waitForOutput("echo visible", after: typed)
            }

            /// Ctrl-Z, then `fg`: the overlay is drawn again where the shell left the cursor, and the
            /// demo ends as usual with the terminal as it was.
            @Test func aJobBroughtBackToTheForegroundRedraws() async throws {
                let shell = try await Self.shell()
                try shell.type("\(try Self.demo())\r")
                try await shell.waitFor(text: "Getting there…")
                try shell.type([0x1A])
                try await shell.waitForOutput("Stopped", then: Self.prompt)
                let resumed = shell.output.count
                try shell.type("fg\r")
                try await shell.waitUntil("the spinner drawn again") { shell in
                    let text = String(decoding: shell.output[resumed...], as: UTF8.self)
                    return text.unicodeScalars.contains { spinnerScalars.contains($0) }
                }
                try await shell.waitForOutput("✔ Done (", after: resumed)
                try await shell.waitForOutput(Self.prompt, after: shell.output.count - Self.prompt.utf8.count)
                let modes = try await Self.shellModes(shell)
                #expect(modes.echo && modes.canonical)
                #expect(spinnerLines(shell.screen).isEmpty, "no spinner left\n\(shell.report)")
            }

            /// Ctrl-Z, `bg`, then `fg`: `fg` on a job that runs in the background sends it no
            /// signal, yet its alert — whose text never changes — is drawn again at once, not only
            /// when its final line comes.
            @Test func aJobBroughtBackFromTheBackgroundRedrawsAtOnce() async throws {
                let shell = try await Self.shell()
                try shell.type("\(try Self.demo()) --steady\r")
                try await shell.waitForSpinner()
                try shell.type([0x1A])
                try await shell.waitForOutput("Stopped", then: Self.prompt)
                let resumed = shell.output.count
                try shell.type("bg\r")
                try await shell.waitForOutput(Self.prompt, after: resumed)
                let foreground = shell.output.count
                try shell.type("fg\r")
                try await shell.waitUntil("the alert drawn again, or its end", timeout: .seconds(20)) { shell in
                    let text = String(decoding: shell.output[foreground...], as: UTF8.self)
                    return text.contains("✔ Done (") || text.unicodeScalars.contains { spinnerScalars.contains($0) }
                }
                let text = String(decoding: shell.output[foreground...], as: UTF8.self)
                #expect(!text.contains("✔ Done ("), "drawn again before its end\n\(shell.report)")
                try shell.type([0x03])
                try await shell.waitForOutput("cancelled after", after: foreground)
                try await shell.waitForOutput(Self.prompt, after: shell.output.count - Self.prompt.utf8.count)
                let modes = try await Self.shellModes(shell)
                #expect(modes.echo && modes.canonical)
            }

            /// `demo &`: a job started in the background never draws an escape sequence and never
            /// touches the terminal modes; its final line is printed as a plain line.
            @Test func aJobStartedInTheBackgroundNeverDraws() async throws {
                let shell = try await Self.shell()
                let start = shell.output.count
                try shell.type("\(try Self.demo()) & wait\r")
                try await shell.waitForOutput("✔ Done (", after: start, timeout: .seconds(10))
                let output = Array(shell.output[start...])
                #expect(
                    !output.contains(bytes: "\u{1B}[?25l") && !output.contains(bytes: "\u{1B}[32m"),
                    "\(escaped(output))")
                #expect(
                    !String(decoding: output, as: UTF8.self).unicodeScalars.contains { spinnerScalars.contains($0) })
                try await shell.waitForOutput(Self.prompt, after: shell.output.count - Self.prompt.utf8.count)
                let modes = try await Self.shellModes(shell)
                #expect(modes.echo && modes.canonical)
            }

            /// A command typed while the alert shows is not echoed over it, and the shell runs it once
            /// the demo has ended, as with any program.
            @Test func keysTypedAheadReachTheShell() async throws {
                let shell = try await Self.shell()
                try shell.type("\(try Self.demo())\r")
                try await shell.waitFor(text: "Getting there…")
                try shell.type("echo typed-$((6*7))\r")
                try await shell.waitFor(text: "Really…")
                #expect(
                    !shell.screen.screen.contains("echo typed"), "not echoed while the alert shows\n\(shell.report)")
                try await shell.waitForOutput("typed-42", after: 0, timeout: .seconds(10))
                let done = try #require(shell.text.firstRange(of: "✔ Done ("))
                let ran = try #require(shell.text.firstRange(of: "typed-42"))
                #expect(done.lowerBound < ran.lowerBound, "the typed command runs after the demo ended")
            }
        }
    }

#endif

// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    extension EndToEnd {
        /// Real programs built on WaitAlert (`Examples/wait-alert-scenarios`), run as users run
        /// them: under a pseudo-terminal and piped, with Ctrl-C, and with Ctrl-Z and `fg` in an
        /// interactive `bash` and a plain `sh` — features together, at real sizes.
        @Suite(.serialized)
        struct ScenarioEndToEndTests {
            static func executable() throws -> String {
                let demo = try DemoProcess.executable.get()
                return String(demo.dropLast("wait-alert-demo".count)) + "wait-alert-scenarios"
            }

            /// A folder of `count` files in 10 subfolders, of sizes from 1 byte to 16 KiB (the same
            /// every run), removed when the test ends.
            final class Files {
                let path: String
                let count: Int

                init(_ count: Int) throws {
                    path = "/tmp/wait-alert-scenario-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
                    self.count = count
                    var state: UInt64 = 42
                    var bytes = [UInt8](repeating: 0, count: 16_384)
                    try #require(mkdir(path, 0o700) == 0)
                    for folder in 0..<10 { try #require(mkdir(path + "/d\(folder)", 0o700) == 0) }
                    for file in 0..<count {
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        let size = Int(state >> 33) % bytes.count + 1
                        for index in 0..<size { bytes[index] = UInt8(truncatingIfNeeded: state >> (index % 56)) }
                        let name = path + "/d\(file % 10)/f\(file).bin"
                        let descriptor = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                        try #require(descriptor >= 0)
                        try #require(write(descriptor, bytes, size) == size)
                        close(descriptor)
                    }
                }

                deinit {
                    let command = "rm -rf '\(path)'"
                    _ = command.withCString { system($0) }
                }

                var files: [String] { (0..<count).map { path + "/d\($0 % 10)/f\($0).bin" } }
            }

            /// The lines of `transcript` that print a file's hash (`<hex>  <path>`), by path.
            static func hashLines(_ transcript: [String], under folder: String) -> [String: Int] {
                var seen: [String: Int] = [:]
                for line in transcript {
                    guard let split = line.firstRange(of: "  " + folder) else { continue }
                    seen[String(line[split.lowerBound...].dropFirst(2)), default: 0] += 1
                }
                return seen
            }

            /// Ctrl-Z: the job stops, and the shell has its terminal back as it was (echo, line
            /// editing, the cursor); then `fg`. Returns where the output after `fg` begins.
            static func stopAndResume(_ shell: DemoProcess) async throws -> Int {
                try shell.type([0x1A])
                try await shell.waitForOutput("Stopped", then: DemoProcess.shellPrompt)
                let stopped = try await shell.shellModes()
                #expect(stopped.echo && stopped.canonical, "\(shell.report)")
                #expect(shell.screen.isCursorVisible, "\(shell.report)")
                let resumed = shell.output.count
                try shell.type("fg\r")
                return resumed
            }

            // MARK: - The hasher

            /// 1,000 files hashed in four child tasks on a terminal: every hash is printed once,
            /// above the region, the last line is the success, the terminal is as it was — and the
            /// run takes at most a few times the same run piped.
            @Test func hashingAThousandFiles() async throws {
                let files = try Files(1000)
                let piped = try DemoProcess(
                    ["hash", "--jobs", "4", files.path], connection: .pipe, program: try Self.executable())
                let pipedStart = ContinuousClock.now
                #expect(try await piped.waitForExit(timeout: .seconds(60)) == .exited(0), "\(piped.report)")
                let pipedTime = ContinuousClock.now - pipedStart
                #expect(piped.text.contains("✔ Hashed 1000 files ("), "\(piped.report)")
                #expect(!piped.output.contains(UInt8(0x1B)), "no escape byte in a pipe")

                let tool = try DemoProcess(
                    ["hash", "--jobs", "4", files.path], connection: .pseudoTerminal(columns: 120, rows: 30),
                    program: try Self.executable())
                let start = ContinuousClock.now
                #expect(try await tool.waitForExit(timeout: .seconds(120)) == .exited(0), "\(tool.report)")
                let time = ContinuousClock.now - start
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                let hashes = Self.hashLines(transcript, under: files.path)
                #expect(hashes.count == 1000, "every file's hash is printed")
                #expect(hashes.values.allSatisfy { $0 == 1 }, "and once")
                #expect(transcript.last?.hasPrefix("✔ Hashed 1000 files (") == true, "\(tool.report)")
                #expect(tool.screen.isCursorVisible)
                #expect(tool.modesAtExit == tool.modesBefore)
                if !EndToEndRuns.isSanitized {
                    #expect(time < pipedTime * 3 / 2 + .seconds(2), "on a terminal \(time), piped \(pipedTime)")
                }
            }

            /// 4,000 files of about two milliseconds each (`--delay 2`), four at a time: on a
            /// terminal the region shows the header counting every file and one line for the files
            /// waiting their turn, never a row each, and the run takes about as long as piped.
            @Test func hashingThousandsOfFilesCountsTheFilesWaiting() async throws {
                let files = try Files(4000)
                let arguments = ["hash", "--jobs", "4", "--quiet", "--delay", "2", files.path]
                let piped = try DemoProcess(arguments, connection: .pipe, program: try Self.executable())
                let pipedStart = ContinuousClock.now
                #expect(try await piped.waitForExit(timeout: .seconds(60)) == .exited(0), "\(piped.report)")
                let pipedTime = ContinuousClock.now - pipedStart
                #expect(piped.text.contains("4000 files hashed"), "\(piped.report)")

                let tool = try DemoProcess(
                    arguments, connection: .pseudoTerminal(columns: 120, rows: 30), program: try Self.executable())
                let start = ContinuousClock.now
                try await tool.waitUntil("the files waiting counted") { tool in
                    tool.screen.lines.contains { $0.hasPrefix("… ") && $0.hasSuffix(" pending") }
                }
                let screen = tool.screen.lines.filter { !$0.isEmpty }
                #expect(screen.contains { $0.contains("Hashing 4000 files") && $0.contains("/4000") }, "\(screen)")
                #expect(try await tool.waitForExit(timeout: .seconds(60)) == .exited(0), "\(tool.report)")
                let time = ContinuousClock.now - start
                #expect(!tool.text.contains("○ Hashing"), "no file waiting its turn has a row: \(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(transcript.suffix(2).first?.hasPrefix("✔ Hashed 4000 files (") == true, "\(tool.report)")
                #expect(transcript.last == "4000 files hashed", "\(tool.report)")
                #expect(tool.modesAtExit == tool.modesBefore)
                if !EndToEndRuns.isSanitized {
                    #expect(time < pipedTime * 3 / 2 + .seconds(2), "on a terminal \(time), piped \(pipedTime)")
                }
            }

            /// 2,000 files hashed by four OS threads of the program's own, all reporting to one
            /// alert (a chunk's bytes and each file's name): on a terminal every hash is printed
            /// once, the success says so, the terminal is as it was, and the run takes about as
            /// long as the same run piped.
            @Test func fourThreadsOnOneAlert() async throws {
                let files = try Files(2000)
                let arguments = ["hash", "--threads", "4", files.path]
                let piped = try DemoProcess(arguments, connection: .pipe, program: try Self.executable())
                let pipedStart = ContinuousClock.now
                #expect(try await piped.waitForExit(timeout: .seconds(60)) == .exited(0), "\(piped.report)")
                let pipedTime = ContinuousClock.now - pipedStart
                #expect(piped.text.contains("✔ Hashed 2000 files on 4 threads ("), "\(piped.report)")

                let tool = try DemoProcess(
                    arguments, connection: .pseudoTerminal(columns: 120, rows: 30), program: try Self.executable())
                let start = ContinuousClock.now
                #expect(try await tool.waitForExit(timeout: .seconds(120)) == .exited(0), "\(tool.report)")
                let time = ContinuousClock.now - start
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                let hashes = Self.hashLines(transcript, under: files.path)
                #expect(hashes.count == 2000 && hashes.values.allSatisfy { $0 == 1 }, "\(tool.report)")
                #expect(transcript.last?.hasPrefix("✔ Hashed 2000 files on 4 threads (") == true, "\(tool.report)")
                #expect(tool.screen.isCursorVisible)
                #expect(tool.modesAtExit == tool.modesBefore)
                if !EndToEndRuns.isSanitized {
                    #expect(time < pipedTime * 3 / 2 + .seconds(2), "on a terminal \(time), piped \(pipedTime)")
                }
            }

            /// A file that cannot be read fails its task while the others go on: the failure
            /// names it, every other file is hashed, and the tool exits 1.
            @Test func aFileThatCannotBeReadFailsAloneAndTheRestGoOn() async throws {
                let files = try Files(200)
                try #require(symlink("/nonexistent/file", files.path + "/d3/broken.bin") == 0)
                let tool = try DemoProcess(["hash", files.path], program: try Self.executable())
                #expect(try await tool.waitForExit(timeout: .seconds(60)) == .exited(1), "\(tool.report)")
                let transcript = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(Self.hashLines(transcript, under: files.path).count == 200, "\(numbered(transcript))")
                #expect(
                    transcript.contains { $0.hasPrefix("✖") && $0.contains("broken.bin") }, "\(numbered(transcript))")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// Ctrl-C while hashing: the tasks are cancelled, the alert ends as cancelled, the tool
            /// exits 130 and the terminal is as it was.
            @Test func ctrlCWhileHashing() async throws {
                let files = try Files(400)
                let tool = try DemoProcess(
                    ["hash", "--delay", "20", files.path], program: try Self.executable())
                try await tool.waitForSpinner()
                try tool.type("\u{3}")
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                #expect(
                    tool.screen.transcript.contains { $0.hasPrefix("⚠ Hashing 400 files: cancelled after") },
                    "\(tool.report)")
                #expect(tool.screen.isCursorVisible)
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// Ctrl-Z while hashing hands the terminal back to the shell with its modes as they
            /// were, `fg` goes on, and every file's hash is still printed exactly once.
            @Test(arguments: DemoProcess.Shell.allCases)
            func ctrlZAndFgWhileHashing(shell kind: DemoProcess.Shell) async throws {
                let files = try Files(400)
                let shell = try await kind.start()
                let typed = shell.output.count
                try shell.type("\(try Self.executable()) hash --delay 20 \(files.path)\r")
                try await shell.waitUntil("a spinner drawn") { shell in
                    String(decoding: shell.output[typed...], as: UTF8.self).unicodeScalars.contains {
                        spinnerScalars.contains($0)
                    }
                }
                let resumed = try await Self.stopAndResume(shell)
                try await shell.waitForOutput("✔ Hashed 400 files (", after: resumed, timeout: .seconds(60))
                try await shell.waitForOutput(DemoProcess.shellPrompt, after: shell.output.count - 20)
                let hashes = Self.hashLines(shell.screen.transcript, under: files.path)
                #expect(hashes.count == 400 && hashes.values.allSatisfy { $0 == 1 }, "\(shell.report)")
                let modes = try await shell.shellModes()
                #expect(modes.echo && modes.canonical, "\(shell.report)")
            }

            // MARK: - A subprocess under an alert

            /// `fetch` runs a script with `alert.run`: Ctrl-C while it runs ends the alert as
            /// cancelled (130) and stops the script's whole process group, its background helper
            /// too.
            @Test func ctrlCStopsACommandsWholeGroup() async throws {
                let tool = try DemoProcess(["fetch"], program: try Self.executable())
                let group = try await WaitAlertCommandEndToEndTests.commandGroup(of: tool)
                try await tool.waitFor(text: "fetched mirror")
                try tool.type("\u{3}")
                #expect(try await tool.waitForExit() == .exited(130), "\(tool.report)")
                #expect(
                    tool.screen.lines.contains { $0.hasPrefix("⚠ Fetching mirrors: cancelled after") }, "\(tool.report)"
                )
                try await WaitAlertCommandEndToEndTests.expectNothingLeft(in: group, tool)
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// A command that fails: its last lines show above the failure, which names its status.
            @Test func aFailingCommandShowsItsLastLines() async throws {
                let tool = try DemoProcess(["fetch", "--fail"], program: try Self.executable())
                #expect(try await tool.waitForExit(timeout: .seconds(30)) == .exited(1), "\(tool.report)")
                let lines = tool.screen.transcript.filter { !$0.isEmpty }
                let failure = try #require(
                    lines.lastIndex { $0.hasPrefix("✖ Fetching mirrors:") }, "\(numbered(lines))")
                #expect(lines[failure].contains("status 7"), "\(numbered(lines))")
                #expect(lines[..<failure].contains("mirror 21: connection refused"), "\(numbered(lines))")
                #expect(lines[..<failure].contains("fetched mirror 20"), "\(numbered(lines))")
            }

            /// Ctrl-Z while the command runs stops it with the tool, the shell gets its terminal
            /// back as it was, and `fg` goes on to the end.
            @Test(arguments: DemoProcess.Shell.allCases)
            func ctrlZAndFgWhileACommandRuns(shell kind: DemoProcess.Shell) async throws {
                let shell = try await kind.start()
                try shell.type("\(try Self.executable()) fetch\r")
                try await shell.waitFor(text: "fetched mirror")
                let resumed = try await Self.stopAndResume(shell)
                try await shell.waitForOutput("✔ Fetched 20 mirrors (", after: resumed, timeout: .seconds(30))
                try await shell.waitForOutput(DemoProcess.shellPrompt, after: shell.output.count - 20)
                let modes = try await shell.shellModes()
                #expect(modes.echo && modes.canonical, "\(shell.report)")
            }

            // MARK: - A deploy script under wait-alert

            /// The deploy script's directory, and the environment that puts `wait-alert` on its
            /// `PATH`.
            static func deploy() throws -> (script: String, environment: [String: String]) {
                let bin = String(try executable().dropLast("/wait-alert-scenarios".count))
                var path = #filePath
                for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
                let inherited = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
                return (path + "/Examples/deploy/deploy.sh", ["PATH": bin + ":" + inherited])
            }

            /// `wait-alert --title Deploy -- sh deploy.sh`: the hosts restart side by side as
            /// sibling rows, each showing its own steps; the host whose health check fails shows
            /// its last lines; the script's status is the alert's.
            @Test func aDeployScriptRestartsHostsSideBySide() async throws {
                let (script, environment) = try Self.deploy()
                let tool = try DemoProcess(
                    ["--title", "Deploy", "--", "sh", script, "web-1", "web-2", "web-3", "web-4"],
                    environment: environment, connection: .pseudoTerminal(columns: 100, rows: 30),
                    program: try WaitAlertCommandEndToEndTests.executable())
                var nested: [String] = []
                try await tool.waitUntil("four host rows", timeout: .seconds(30)) { tool in
                    let rows = tool.screen.lines.filter { $0.hasPrefix("  ") && $0.contains("web-") }
                    nested += rows.filter { $0.hasPrefix("    ") }
                    return rows.count == 4
                }
                #expect(try await tool.waitForExit(timeout: .seconds(30)) == .exited(1), "\(tool.report)")
                #expect(nested.isEmpty, "a host's row under another's: \(nested)")
                let lines = tool.screen.transcript.filter { !$0.isEmpty }
                for host in ["web-1", "web-2", "web-4"] {
                    #expect(lines.count { $0.hasPrefix("✔ Restarting \(host) (") } == 1, "\(numbered(lines))")
                }
                #expect(lines.count { $0 == "✖ Restarting web-3: exit status 1" } == 1, "\(numbered(lines))")
                #expect(lines.contains("    GET /health -> 503"), "the failed host's last lines\n\(numbered(lines))")
                #expect(lines.contains("uploaded 4 files"), "\(numbered(lines))")
                #expect(lines.last == "✖ Deploy: exit status 1", "\(numbered(lines))")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// Ctrl-C during the restarts: every host's command is stopped, nothing of the script's
            /// group is left, and `wait-alert` exits 130.
            @Test func ctrlCDuringADeployLeavesNothingBehind() async throws {
                let (script, environment) = try Self.deploy()
                let tool = try DemoProcess(
                    ["--title", "Deploy", "--", "sh", script], environment: environment,
                    program: try WaitAlertCommandEndToEndTests.executable())
                let group = try await WaitAlertCommandEndToEndTests.commandGroup(of: tool)
                try await tool.waitFor(text: "stopping web-2")
                try tool.type("\u{3}")
                #expect(try await tool.waitForExit(timeout: .seconds(20)) == .exited(130), "\(tool.report)")
                try await WaitAlertCommandEndToEndTests.expectNothingLeft(in: group, tool)
                #expect(tool.screen.lines.contains { $0.hasPrefix("⚠ Deploy: cancelled after") }, "\(tool.report)")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// Ctrl-Z during the restarts stops the script and every host's command with
            /// `wait-alert`; `fg` goes on, and the deploy ends as it would have.
            @Test(arguments: DemoProcess.Shell.allCases)
            func ctrlZAndFgDuringADeploy(shell kind: DemoProcess.Shell) async throws {
                let (script, environment) = try Self.deploy()
                let shell = try await kind.start()
                try shell.type(
                    "PATH='\(environment["PATH"]!)' FAIL_HOST= wait-alert --title Deploy -- sh \(script)\r")
                try await shell.waitFor(text: "stopping web-2")
                let resumed = try await Self.stopAndResume(shell)
                try await shell.waitForOutput("✔ Deploy (", after: resumed, timeout: .seconds(30))
                try await shell.waitForOutput(DemoProcess.shellPrompt, after: shell.output.count - 20)
                let transcript = shell.screen.transcript
                for host in ["web-1", "web-2", "web-3"] {
                    #expect(transcript.contains { $0.hasPrefix("✔ Restarting \(host) (") }, "\(shell.report)")
                }
                let modes = try await shell.shellModes()
                #expect(modes.echo && modes.canonical, "\(shell.report)")
            }

            // MARK: - One tool under another

            /// `backup` runs `archive` under its alert; the child's questions show on the parent's
            /// terminal, the answers typed reach it, and `tar` writes the archive it was told to.
            @Test func aChildToolsQuestionsAreAskedByItsParent() async throws {
                let files = try Files(50)
                let archives = files.path + "-archives"
                try #require(mkdir(archives, 0o700) == 0)
                defer { _ = "rm -rf '\(archives)'".withCString { system($0) } }
                let tool = try DemoProcess(
                    ["backup", files.path, "--to", archives], program: try Self.executable())
                try await tool.waitFor(text: "? Archive 50 files? (Y/n)")
                try tool.type("y")
                try await tool.waitFor(text: "? Archive name:")
                try tool.type("night/ly\r")
                try await tool.waitFor(text: "A name cannot contain")
                try tool.type("\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}nightly\r")
                #expect(try await tool.waitForExit(timeout: .seconds(30)) == .exited(0), "\(tool.report)")
                var status = stat()
                #expect(stat(archives + "/nightly.tar", &status) == 0, "the archive the user named\n\(tool.report)")
                let lines = tool.screen.transcript.filter { !$0.isEmpty }
                #expect(lines.contains("archived 50 files to nightly.tar"), "\(numbered(lines))")
                #expect(lines.contains("? Archive name: nightly"), "\(numbered(lines))")
                #expect(lines.last?.hasPrefix("✔ Backed up ") == true, "\(numbered(lines))")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// Ctrl-Z while the child's question shows, then `fg`: the question is drawn again and
            /// answered; the shell had its terminal back meanwhile.
            @Test(arguments: DemoProcess.Shell.allCases)
            func ctrlZAndFgAtAChildsQuestion(shell kind: DemoProcess.Shell) async throws {
                let files = try Files(20)
                let archives = files.path + "-archives"
                try #require(mkdir(archives, 0o700) == 0)
                defer { _ = "rm -rf '\(archives)'".withCString { system($0) } }
                let shell = try await kind.start()
                try shell.type("\(try Self.executable()) backup \(files.path) --to \(archives)\r")
                try await shell.waitFor(text: "? Archive 20 files? (Y/n)")
                let resumed = try await Self.stopAndResume(shell)
                try await shell.waitForOutput("Archive 20 files?", after: resumed)
                try shell.type("y")
                try await shell.waitForOutput("Archive name:", after: resumed)
                try shell.type("\r")
                try await shell.waitForOutput("✔ Backed up ", after: resumed, timeout: .seconds(30))
                var status = stat()
                #expect(stat(archives + "/backup.tar", &status) == 0, "\(shell.report)")
                let modes = try await shell.shellModes()
                #expect(modes.echo && modes.canonical, "\(shell.report)")
            }

            /// Piped answers: the child reads them from the standard input it shares with its
            /// parent, as a script expects, and no question is drawn.
            @Test func aChildToolAnsweredByAScript() async throws {
                let files = try Files(10)
                let archives = files.path + "-archives"
                try #require(mkdir(archives, 0o700) == 0)
                defer { _ = "rm -rf '\(archives)'".withCString { system($0) } }
                let shell = try DemoProcess(
                    [
                        "-c", #"printf 'y\nscripted\n' | "$0" backup "$1" --to "$2" 2>&1"#, try Self.executable(),
                        files.path, archives,
                    ],
                    connection: .pipe, program: "/bin/sh")
                #expect(try await shell.waitForExit(timeout: .seconds(30)) == .exited(0), "\(shell.report)")
                var status = stat()
                #expect(stat(archives + "/scripted.tar", &status) == 0, "\(shell.report)")
                #expect(!shell.output.contains(UInt8(0x1B)), "no escape byte in a pipe")
            }
        }
    }
#endif

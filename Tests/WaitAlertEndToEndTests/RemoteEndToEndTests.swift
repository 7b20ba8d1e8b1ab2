// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    /// Whether an OpenSSH server can be started for the remote tests: `/usr/sbin/sshd` exists.
    /// `.ci/run` installs it and sets `WAIT_ALERT_SSH=required`, which makes its absence a failure.
    enum SSHAvailability {
        static let sshd = "/usr/sbin/sshd"
        static let isInstalled = access(sshd, X_OK) == 0 && access("/usr/bin/ssh", X_OK) == 0
        static let isRequired = getenv("WAIT_ALERT_SSH").map { String(cString: $0) == "required" } ?? false
        /// Sanitized programs start slowly on the far side too, and add nothing the plain build
        /// does not check here: the remote suite runs with the plain build.
        static let runs = (isInstalled || isRequired) && !EndToEndRuns.isSanitized
    }

    extension EndToEnd {
        /// Progress from another machine, over the channels users have: a real OpenSSH server on
        /// loopback (keys made for the run), `wait-alert` running `ssh` — the remote program's
        /// event stream (`WAIT_ALERT_PROGRESS=json`) read from ssh's output, or the socket
        /// forwarded with `ssh -R`. Both show the remote rows; Ctrl-C stops the remote work; a
        /// dropped connection ends its rows as cancelled.
        @Suite(.serialized, .enabled(if: SSHAvailability.runs, "needs an OpenSSH server (/usr/sbin/sshd)"))
        final class RemoteEndToEndTests {
            let server: SSHServer

            init() async throws {
                #expect(SSHAvailability.isInstalled, "WAIT_ALERT_SSH=required, but sshd is not installed")
                server = try await SSHServer.start()
            }

            /// A unique `--seed` for the remote demo: its processes are found by it.
            static func seed() -> String { "\(getpid())\(UInt32.random(in: 100_000...999_999))" }

            /// `wait-alert --title remote -- ssh … 'WAIT_ALERT_PROGRESS=json demo tasks …'`.
            func eventsOverSSH(_ demoArguments: String, connection: DemoProcess.Connection) throws -> DemoProcess {
                let remote = "WAIT_ALERT_PROGRESS=json \(try DemoProcess.executable.get()) \(demoArguments)"
                return try DemoProcess(
                    ["--title", "remote", "--"] + server.ssh + [remote], connection: connection,
                    program: try WaitAlertCommandEndToEndTests.executable())
            }

            /// `wait-alert --title remote -- sh -c 'ssh -R SOCK:$WAIT_ALERT_SOCKET … demo tasks …'`.
            func socketOverSSH(_ demoArguments: String) throws -> DemoProcess {
                let socket = server.directory + "/forwarded.sock"
                let remote =
                    "WAIT_ALERT_SOCKET=\(socket) WAIT_ALERT_SOCKET_TIMEOUT=5s \(try DemoProcess.executable.get()) \(demoArguments)"
                let ssh = server.ssh.map { "'\($0)'" }.joined(separator: " ")
                let script = "\(ssh) -o StreamLocalBindUnlink=yes -R '\(socket)':\"$WAIT_ALERT_SOCKET\" '\(remote)'"
                return try DemoProcess(
                    ["--title", "remote", "--", "sh", "-c", script],
                    program: try WaitAlertCommandEndToEndTests.executable())
            }

            /// Waits until a row the remote program reports shows under the alert.
            static func waitForARemoteRow(_ tool: DemoProcess) async throws {
                try await tool.waitUntil("a remote row under the alert") { tool in
                    tool.screen.lines.contains { $0.hasPrefix("  ") && $0.contains("Building") }
                }
            }

            /// A remote build long enough to interrupt, reported the `way` asked (`events` or
            /// `socket`) on a terminal, once its first row shows; and the unique seed its processes
            /// are found by.
            func longRemoteRun(_ way: String) async throws -> (DemoProcess, String) {
                let seed = Self.seed()
                let arguments = "tasks --count 40 --jobs 1 --succeed --seed \(seed)"
                let tool =
                    way == "events"
                    ? try eventsOverSSH(arguments, connection: .pseudoTerminal(columns: 80, rows: 24))
                    : try socketOverSSH(arguments)
                try await Self.waitForARemoteRow(tool)
                return (tool, seed)
            }

            /// The remote rows show under `remote` on the terminal, the run ends with both final
            /// lines, and no event line is left on the screen.
            @Test func eventsPrintedThroughSSHAreRows() async throws {
                let tool = try eventsOverSSH(
                    "tasks --count 6 --jobs 3 --succeed", connection: .pseudoTerminal(columns: 80, rows: 24))
                try await Self.waitForARemoteRow(tool)
                #expect(try await tool.waitForExit(timeout: .seconds(60)) == .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript
                #expect(transcript.contains { $0.hasPrefix("✔ Build succeeded") }, "\(tool.report)")
                #expect(transcript.contains { $0.hasPrefix("✔ remote (") }, "\(tool.report)")
                #expect(!transcript.contains { $0.contains("{\"v\":1") }, "\(tool.report)")
                #expect(tool.modesAtExit == tool.modesBefore)
            }

            /// On a pipe (CI): plain lines, the remote rows as `▸` lines, no event line.
            @Test func eventsPrintedThroughSSHAreRowsInPlainLines() async throws {
                let tool = try eventsOverSSH("tasks --count 6 --jobs 3 --succeed", connection: .pipe)
                #expect(try await tool.waitForExit(timeout: .seconds(60)) == .exited(0), "\(tool.report)")
                let lines = String(decoding: tool.output, as: UTF8.self).split(separator: "\n").map(String.init)
                #expect(lines.contains("▸ Building"), "\(lines)")
                #expect(lines.contains { $0.hasPrefix("  ✔ Compiling (") }, "\(lines)")
                #expect(lines.last?.hasPrefix("✔ remote (") == true, "\(lines)")
                #expect(!lines.contains { $0.contains("{\"v\":1") }, "\(lines)")
            }

            /// The socket forwarded over ssh: the remote program reports into this alert.
            @Test func theSocketForwardedOverSSHShowsTheRemoteRows() async throws {
                let tool = try socketOverSSH("tasks --count 6 --jobs 3 --succeed")
                try await Self.waitForARemoteRow(tool)
                #expect(try await tool.waitForExit(timeout: .seconds(60)) == .exited(0), "\(tool.report)")
                #expect(tool.screen.transcript.contains { $0.hasPrefix("✔ remote (") }, "\(tool.report)")
            }

            /// Ctrl-C ends the remote program too, by either way; nothing of it is left running.
            @Test(arguments: ["events", "socket"])
            func ctrlCStopsTheRemoteWork(_ way: String) async throws {
                let (tool, seed) = try await longRemoteRun(way)
                try tool.sendInterrupt()
                let ended = try await tool.waitForExit(timeout: .seconds(20))
                #expect(ended != .exited(0), "\(tool.report)")
                #expect(tool.screen.transcript.contains { $0.hasPrefix("⚠ remote: cancelled after") }, "\(tool.report)")
                try await Self.expectGone(seed, tool)
            }

            /// The connection drops (the ssh client is killed): the rows it reported end as
            /// cancelled, the alert fails, and the remote program, its reader gone, stops.
            @Test(arguments: ["events", "socket"])
            func aDroppedConnectionEndsTheRowsAsCancelled(_ way: String) async throws {
                let (tool, seed) = try await longRemoteRun(way)
                // The client itself, not wait-alert or the shell whose command lines name it.
                let client = try #require(
                    ProcessTable.running(withCommandLineContaining: seed).first {
                        ProcessTable.commandLine(of: $0)?.hasPrefix("ssh -F /dev/null") == true
                    }, "the ssh client")
                kill(client, SIGKILL)
                #expect(try await tool.waitForExit(timeout: .seconds(20)) != .exited(0), "\(tool.report)")
                let transcript = tool.screen.transcript
                #expect(transcript.contains { $0.contains("Building: cancelled after") }, "\(tool.report)")
                #expect(transcript.contains { $0.hasPrefix("✖ remote") }, "\(tool.report)")
                try await Self.expectGone(seed, tool)
            }

            /// Waits until no process with `seed` on its command line runs (on this machine, the
            /// far side is this machine too).
            static func expectGone(_ seed: String, _ tool: DemoProcess) async throws {
                let deadline = ContinuousClock.now + .seconds(15)
                while !ProcessTable.running(withCommandLineContaining: "--seed \(seed)").isEmpty,
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(100))
                }
                let left = ProcessTable.running(withCommandLineContaining: "--seed \(seed)")
                #expect(left.isEmpty, "the remote work still runs: \(left)\n\(tool.report)")
                for pid in left { kill(pid, SIGKILL) }
            }
        }
    }

    /// An OpenSSH server on loopback for one test: host and user keys made for it, in a private
    /// directory, started on a free port, stopped (with its sessions) when the test ends.
    final class SSHServer {
        let directory: String
        let port: UInt16
        let process: DemoProcess

        /// The `ssh` command that runs a command on it, but for the command.
        var ssh: [String] {
            [
                "ssh", "-F", "/dev/null", "-i", directory + "/user", "-o", "StrictHostKeyChecking=no", "-o",
                "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "-p", "\(port)",
                "\(Self.userName())@127.0.0.1",
            ]
        }

        private init(directory: String, port: UInt16, process: DemoProcess) {
            self.directory = directory
            self.port = port
            self.process = process
        }

        deinit {
            process.kill(SIGTERM)
            for file in [
                "host", "host.pub", "user", "user.pub", "authorized_keys", "sshd_config", "sshd.pid", "forwarded.sock",
            ] {
                unlink(directory + "/" + file)
            }
            rmdir(directory)
        }

        static func userName() -> String {
            guard let entry = getpwuid(getuid()) else { return "root" }
            return String(cString: entry.pointee.pw_name)
        }

        /// A port nothing listens on now.
        static func freePort() throws -> UInt16 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
                }
            }
            guard bound else { throw EndToEndFailure("cannot find a free port") }
            return UInt16(bigEndian: address.sin_port)
        }

        static func start() async throws -> SSHServer {
            var template = Array("/tmp/wait-alert-sshd-XXXXXX".utf8CString)
            guard let path = mkdtemp(&template) else { throw EndToEndFailure("mkdtemp failed") }
            let directory = String(cString: path)
            let port = try freePort()
            let config = """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(directory)/host
                AuthorizedKeysFile \(directory)/authorized_keys
                PidFile \(directory)/sshd.pid
                StrictModes no
                UsePAM no
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PermitRootLogin prohibit-password
                AllowStreamLocalForwarding yes
                StreamLocalBindUnlink yes
                LogLevel ERROR

                """
            let setup = """
                set -e
                cd '\(directory)'
                ssh-keygen -q -t ed25519 -N '' -f host
                ssh-keygen -q -t ed25519 -N '' -f user
                cp user.pub authorized_keys
                chmod 600 authorized_keys
                printf '%s' '\(config)' > sshd_config
                if [ "$(id -u)" = 0 ]; then mkdir -p /run/sshd; fi
                \(SSHAvailability.sshd) -t -f sshd_config
                """
            let prepared = try DemoProcess(["-c", setup], connection: .pipe, program: "/bin/sh")
            guard try await prepared.waitForExit(timeout: .seconds(30)) == .exited(0) else {
                throw EndToEndFailure("setting up sshd failed: \(prepared.report)")
            }
            let server = try DemoProcess(
                ["-D", "-e", "-f", directory + "/sshd_config"], connection: .pipe, program: SSHAvailability.sshd)
            let made = SSHServer(directory: directory, port: port, process: server)
            // Ready once it answers.
            let deadline = ContinuousClock.now + .seconds(15)
            while true {
                let probe = try DemoProcess(
                    Array(made.ssh.dropFirst()) + ["true"], connection: .pipe, program: "/usr/bin/ssh")
                if try await probe.waitForExit(timeout: .seconds(15)) == .exited(0) { break }
                guard ContinuousClock.now < deadline else {
                    throw EndToEndFailure("sshd did not answer: \(probe.report)\n\(server.report)")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            return made
        }
    }
#endif

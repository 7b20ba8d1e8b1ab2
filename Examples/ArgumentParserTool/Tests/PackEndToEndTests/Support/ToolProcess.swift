// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Synchronization
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    /// The `pack` binary running under a pseudo-terminal, as a user runs it, or with its output on
    /// pipes, as a script does.
    ///
    /// Under a pty, everything `pack` writes is read from the master without blocking and fed into
    /// ``screen``, an ``InMemoryTerminal`` of the pty's size. `pack` is a session leader whose
    /// controlling terminal is the pty, so `0x03` typed on the master raises `SIGINT` in it as
    /// Ctrl-C does. The test keeps the slave open to read its terminal modes before and after.
    ///
    /// Waiting never sleeps a fixed time: every wait polls for a condition (text on screen, exit)
    /// and fails after a generous timeout with the screen and the last bytes received.
    final class ToolProcess {
        /// Where the tool's standard input, output and error go.
        enum Connection {
            /// All three on the slave of a new 100x30 pty.
            case pseudoTerminal
            /// Standard output and error on pipes of their own, standard input from `/dev/null`.
            case pipes
        }

        let arguments: [String]
        let pid: pid_t
        /// The screen of an xterm-like terminal the size of the pty (on pipes: what standard error
        /// would show).
        let screen: InMemoryTerminal
        /// The slave's terminal modes before the tool started (`nil` on pipes).
        let modesBefore: TerminalModes?
        /// The slave's terminal modes right after the tool ended (`nil` on pipes or while running).
        private(set) var modesAtExit: TerminalModes?
        /// How the tool ended, once it has been reaped.
        private(set) var termination: Termination?
        /// Every byte read from the pty, or from the standard error pipe.
        private(set) var output: [UInt8] = []
        /// Every byte read from the standard output pipe (empty under a pty).
        private(set) var standardOutput: [UInt8] = []

        private var readDescriptor: Int32
        private var outputDescriptor: Int32 = -1
        private var slaveDescriptor: Int32 = -1
        private var endOfOutput = false
        private var endOfStandardOutput = false
        private let started = ContinuousClock.now

        /// Starts `pack` with `arguments`, and `environment`'s variables besides `TERM`, `PATH`,
        /// `LD_LIBRARY_PATH`, `HOME` and `TMPDIR`.
        init(
            _ arguments: [String], connection: Connection = .pseudoTerminal, environment: [String: String] = [:]
        ) throws {
            let executable = try ToolProcess.executable.get()
            self.arguments = arguments
            var variables = ["TERM": "xterm-256color"]
            for name in ["PATH", "LD_LIBRARY_PATH", "HOME", "TMPDIR"] {
                if let value = getenv(name) { variables[name] = String(cString: value) }
            }
            variables.merge(environment) { $1 }
            switch connection {
            case .pseudoTerminal:
                screen = InMemoryTerminal(columns: 100, rows: 30)
                var master: Int32 = -1
                var slave: Int32 = -1
                let launched = try spawnLock.withLock { _ throws(ToolFailure) -> (pid_t, termios) in
                    var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
                    guard openpty(&master, &slave, nil, nil, &size) == 0 else {
                        throw ToolFailure("openpty failed: \(String(cString: strerror(errno)))")
                    }
                    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
                    var path = [CChar](repeating: 0, count: 256)
                    var modes = termios()
                    _ = tcgetattr(slave, &modes)
                    do throws(ToolFailure) {
                        guard ttyname_r(slave, &path, path.count) == 0 else {
                            throw ToolFailure("ttyname_r failed on the pty's slave")
                        }
                        let pid = try ToolProcess.spawn(executable, arguments, variables) { actions in
                            // After setsid, opening the slave by path makes it the controlling terminal.
                            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)
                            posix_spawn_file_actions_adddup2(&actions, 0, 1)
                            posix_spawn_file_actions_adddup2(&actions, 0, 2)
                        }
                        return (pid, modes)
                    } catch {
                        close(master)
                        close(slave)
                        throw error
                    }
                }
                pid = launched.0
                modesBefore = TerminalModes(launched.1)
                readDescriptor = master
                slaveDescriptor = slave

            case .pipes:
                screen = InMemoryTerminal(columns: 100, rows: 30, isInteractive: false)
                var errors: [Int32] = [-1, -1]
                var outputs: [Int32] = [-1, -1]
                pid = try spawnLock.withLock { _ throws(ToolFailure) -> pid_t in
                    guard pipe(&errors) == 0 else { throw ToolFailure("pipe failed") }
                    guard pipe(&outputs) == 0 else {
                        errors.forEach { close($0) }
                        throw ToolFailure("pipe failed")
                    }
                    for descriptor in errors + outputs { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
                    defer {
                        close(errors[1])
                        close(outputs[1])
                    }
                    do throws(ToolFailure) {
                        return try ToolProcess.spawn(executable, arguments, variables) { actions in
                            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                            posix_spawn_file_actions_adddup2(&actions, outputs[1], 1)
                            posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
                        }
                    } catch {
                        close(errors[0])
                        close(outputs[0])
                        throw error
                    }
                }
                modesBefore = nil
                readDescriptor = errors[0]
                outputDescriptor = outputs[0]
            }
            for descriptor in [readDescriptor, outputDescriptor] where descriptor >= 0 {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            }
        }

        deinit {
            if termination == nil {
                _ = Glibc.kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
            for descriptor in [readDescriptor, outputDescriptor, slaveDescriptor] where descriptor >= 0 {
                close(descriptor)
            }
        }

        // MARK: - Interacting

        /// Types `text` on the keyboard (writes it to the pty's master).
        func type(_ text: String) throws {
            guard slaveDescriptor >= 0 else { throw ToolFailure("type(_:) needs a running tool on a pty") }
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(readDescriptor, $0.baseAddress, $0.count) }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR || errno == EAGAIN {
                    continue
                } else {
                    throw ToolFailure("writing to the pty's master failed: \(String(cString: strerror(errno)))")
                }
            }
        }

        /// Presses Ctrl-C: the line discipline raises `SIGINT` in the tool (or, while a question
        /// reads keys in raw mode, the tool reads it as a key).
        func pressControlC() throws {
            try type("\u{3}")
        }

        // MARK: - Waiting

        /// Waits until `text` is on ``screen``, or was (a busy machine may read the output late,
        /// after a later frame replaced it).
        func waitFor(text: String, timeout: Duration = .seconds(30)) async throws {
            try await waitUntil("\"\(text)\" drawn", timeout: timeout) { tool in
                tool.screen.screen.contains(text) || tool.output.firstRange(of: Array(text.utf8)) != nil
            }
        }

        /// Waits until a spinner shows on a line of ``screen`` that contains `text`: that alert
        /// or row is drawn and its work runs.
        func waitForSpinner(on text: String, timeout: Duration = .seconds(30)) async throws {
            try await waitUntil("a spinner on the line of \"\(text)\"", timeout: timeout) { tool in
                tool.screen.lines.contains { $0.contains(text) && isSpinning($0) }
            }
        }

        /// Reads output until `condition` holds; fails with the screen after `timeout`, or as soon as
        /// the tool has ended with all its output read and the condition still false.
        func waitUntil(
            _ what: @autoclosure () -> String, timeout: Duration = .seconds(30), _ condition: (ToolProcess) -> Bool
        ) async throws {
            let deadline = ContinuousClock.now + timeout
            while true {
                pump()
                if condition(self) { return }
                if try await reapIfEnded() {
                    if condition(self) { return }
                    throw failure("the tool ended before \(what())")
                }
                guard ContinuousClock.now < deadline else {
                    throw failure("timed out after \(timeout) waiting for \(what())")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        /// Waits for the tool to end, reading its output meanwhile, then reads what is left; on
        /// timeout kills it and fails with the screen.
        @discardableResult
        func waitForExit(timeout: Duration = .seconds(60)) async throws -> Termination {
            let deadline = ContinuousClock.now + timeout
            while true {
                pump()
                if try await reapIfEnded(), let termination { return termination }
                guard ContinuousClock.now < deadline else {
                    let message = failure("timed out after \(timeout) waiting for the tool to end; killed it")
                    _ = Glibc.kill(pid, SIGKILL)
                    _ = try await reapIfEnded(blocking: true)
                    throw message
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        // MARK: - Reading

        /// Reads everything available now without blocking; returns whether anything was read.
        @discardableResult
        func pump() -> Bool {
            var any = false
            if !endOfOutput, let bytes = Self.readAvailable(readDescriptor, ended: &endOfOutput) {
                output += bytes
                screen.write(bytes)
                any = true
            }
            if outputDescriptor >= 0, !endOfStandardOutput,
                let bytes = Self.readAvailable(outputDescriptor, ended: &endOfStandardOutput)
            {
                standardOutput += bytes
                any = true
            }
            return any
        }

        private static func readAvailable(_ descriptor: Int32, ended: inout Bool) -> [UInt8]? {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 {
                    bytes += buffer[..<count]
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    // 0: end of a pipe; EIO: the pty's slave is closed everywhere and drained.
                    if count == 0 || errno != EAGAIN { ended = true }
                    break
                }
            }
            return bytes.isEmpty ? nil : bytes
        }

        /// Reaps the tool if it has ended: records how, the slave's modes, and drains its output.
        private func reapIfEnded(blocking: Bool = false) async throws -> Bool {
            if termination != nil { return true }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            } while result < 0 && errno == EINTR
            guard result == pid else { return false }
            termination = Termination(waitStatus: status)
            if slaveDescriptor >= 0 {
                var modes = termios()
                if tcgetattr(slaveDescriptor, &modes) == 0 { modesAtExit = TerminalModes(modes) }
                // With no slave left open, the master reads what is buffered, then EIO: all output is in.
                close(slaveDescriptor)
                slaveDescriptor = -1
            }
            let deadline = ContinuousClock.now + .seconds(5)
            while !(endOfOutput && (outputDescriptor < 0 || endOfStandardOutput)), ContinuousClock.now < deadline {
                if !pump() { try await Task.sleep(for: .milliseconds(5)) }
            }
            return true
        }

        // MARK: - Reporting

        /// Everything still printed on the screen, without blank lines.
        var transcript: [String] { screen.transcript.filter { !$0.isEmpty } }

        /// A failure that shows what the user would see.
        func failure(_ message: String) -> ToolFailure {
            let state = termination.map { "ended with \($0)" } ?? "still running"
            return ToolFailure(
                """
                \(message)
                pack \(arguments.joined(separator: " ")) — \(state), \(ContinuousClock.now - started) after launch
                \(screen)
                last bytes: \(escaped(output.suffix(400)))
                """)
        }

        /// What a user would see, for `#expect` comments.
        var report: String {
            "\(numbered(transcript))\nbytes: \(escaped(output.suffix(600)))"
        }

        // MARK: - Launching

        /// The `pack` binary, found next to the test bundle in the build directory.
        static let executable: Result<String, ToolFailure> = {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard length > 0 else { return .failure(ToolFailure("readlink /proc/self/exe failed")) }
            var directory = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            while let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
                directory = String(directory[..<slash])
                let candidate = directory + "/pack"
                var info = stat()
                if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                    return .success(candidate)
                }
            }
            return .failure(ToolFailure("pack not found above the test binary; swift build --build-tests builds it"))
        }()

        private static func spawn(
            _ executable: String, _ arguments: [String], _ environment: [String: String],
            fileActions: (inout posix_spawn_file_actions_t) -> Void
        ) throws(ToolFailure) -> pid_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            fileActions(&actions)

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            let setSessionID: Int32 = 0x80  // POSIX_SPAWN_SETSID (a GNU extension Swift does not import)
            posix_spawnattr_setflags(&attributes, Int16(setSessionID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var mask = sigset_t()
            sigemptyset(&mask)
            posix_spawnattr_setsigmask(&attributes, &mask)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGPIPE, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD] {
                sigaddset(&defaults, signal)
            }
            posix_spawnattr_setsigdefault(&attributes, &defaults)

            let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var pid: pid_t = 0
            let error = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard error == 0 else {
                throw ToolFailure("posix_spawn \(executable) failed: \(String(cString: strerror(error)))")
            }
            return pid
        }
    }

    /// Serializes creating descriptors and spawning children across concurrently running tests, so
    /// a descriptor never leaks into another test's child before `FD_CLOEXEC` is set on it.
    private let spawnLock = Mutex(())

    /// How a child process ended.
    enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        init(waitStatus status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }

        var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    /// The parts of a `termios` that matter, comparable.
    struct TerminalModes: Equatable, CustomStringConvertible {
        var input: tcflag_t
        var output: tcflag_t
        var control: tcflag_t
        var local: tcflag_t
        var controlCharacters: [cc_t]

        init(_ modes: termios) {
            input = modes.c_iflag
            output = modes.c_oflag
            control = modes.c_cflag
            local = modes.c_lflag
            controlCharacters = withUnsafeBytes(of: modes.c_cc) { Array($0) }
        }

        var description: String {
            let hex = { (value: tcflag_t) in "0x" + String(value, radix: 16) }
            return
                "iflag \(hex(input)) oflag \(hex(output)) cflag \(hex(control)) lflag \(hex(local)) cc \(controlCharacters)"
        }
    }

    /// A failure of the harness, with what the user would have seen.
    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Bytes with escapes and controls spelled out: `\e[K`, `\r`, `\n`, `\u{18}`.
    func escaped(_ bytes: some Sequence<UInt8>) -> String {
        var result = ""
        for scalar in String(decoding: Array(bytes), as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\u{1B}": result += "\\e"
            case "\r": result += "\\r"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `line` shows a spinner (a braille glyph).
    func isSpinning(_ line: String) -> Bool {
        line.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
    }

    /// Lines, numbered, for a failing expectation.
    func numbered(_ lines: [String]) -> String {
        lines.enumerated().map { "\($0.offset)\t\($0.element)" }.joined(separator: "\n")
    }
#endif

// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Synchronization
    import Testing
    import WaitAlertTesting

    #if canImport(Glibc)
        import Glibc
    #endif

    /// The `wait-alert-demo` binary running under a pseudo-terminal (or with its output on a pipe),
    /// and what a user would see of it.
    ///
    /// Everything the demo writes is read from the pty's master without blocking and fed into
    /// ``screen``, an ``InMemoryTerminal`` of the pty's size, and into any mirrors given at launch.
    /// The demo is a session leader whose controlling terminal is the pty, so `0x03` typed on the
    /// master raises `SIGINT` in it and a window-size change sends it `SIGWINCH`, as for a user at a
    /// real terminal. The parent keeps the slave open to read its terminal modes before and after.
    ///
    /// Waiting never sleeps a fixed time: every wait polls for a condition (output on screen, exit)
    /// and fails after a generous timeout with the screen and the last bytes received.
    final class DemoProcess {
        /// Where the demo's standard input, output and error go.
        enum Connection: Hashable, Sendable {
            /// All three on the slave of a new pty of this size.
            case pseudoTerminal(columns: Int, rows: Int)
            /// Standard output and error on one pipe, standard input from `/dev/null`.
            case pipe
        }

        let arguments: [String]
        /// The program's name, for reports.
        let program: String
        let pid: pid_t
        /// The screen of a terminal that behaves like xterm (cuts lines on resize), sized like the pty.
        let screen: InMemoryTerminal
        /// More terminals fed the same bytes and resized at the same points of the byte stream.
        let mirrors: [InMemoryTerminal]
        /// Every byte read so far.
        private(set) var output: [UInt8] = []
        /// The offsets in ``output`` at which ``resize(columns:rows:)`` took effect.
        private(set) var resizeOffsets: [Int] = []
        /// The slave's terminal modes before the demo started (`nil` on a pipe).
        let modesBefore: TerminalModes?
        /// The slave's terminal modes right after the demo ended (`nil` on a pipe or while running).
        private(set) var modesAtExit: TerminalModes?
        /// How the demo ended, once it has been reaped.
        private(set) var termination: Termination?
        /// Where a sanitizer-built demo writes its reports (the prefix; the process id follows).
        private let sanitizerReportPrefix: String

        private var readDescriptor: Int32
        private var slaveDescriptor: Int32
        private var endOfOutput = false
        private let started = ContinuousClock.now

        /// Starts the demo.
        ///
        /// - Parameters:
        ///   - arguments: the demo's options, such as `--hostile`.
        ///   - environment: added to `TERM=xterm-256color` (and `PATH`); may override `TERM`.
        ///   - connection: a pty of a given size (80x24 by default) or a pipe.
        ///   - mirrors: more in-memory terminals to feed, e.g. one that reflows on resize.
        ///   - program: the executable to run instead of the demo (a shell, for job control).
        init(
            _ arguments: [String] = [],
            environment: [String: String] = [:],
            connection: Connection = .pseudoTerminal(columns: 80, rows: 24),
            mirrors: [InMemoryTerminal] = [],
            program: String? = nil
        ) throws {
            let executable = try program ?? DemoProcess.executable.get()
            self.arguments = arguments
            self.program = program.map { String($0.split(separator: "/").last ?? "") } ?? "wait-alert-demo"
            self.mirrors = mirrors
            var variables = ["TERM": "xterm-256color"]
            for name in ["PATH", "LD_LIBRARY_PATH"] {
                if let value = getenv(name) { variables[name] = String(cString: value) }
            }
            // Built with a sanitizer, the demo writes its reports to files checked when it ends
            // (not over the screen under test); leaks at exit are not reported (a program may
            // leave its memory to the exit).
            let reports = DemoProcess.sanitizerReports()
            for (name, extra) in [("TSAN_OPTIONS", ""), ("ASAN_OPTIONS", " detect_leaks=0"), ("UBSAN_OPTIONS", "")] {
                let inherited = getenv(name).map { String(cString: $0) + " " } ?? ""
                variables[name] = inherited + "log_path=\(reports)" + extra
            }
            self.sanitizerReportPrefix = reports
            variables.merge(environment) { $1 }

            switch connection {
            case .pseudoTerminal(let columns, let rows):
                screen = InMemoryTerminal(columns: columns, rows: rows)
                var master: Int32 = -1
                var slave: Int32 = -1
                // Creating descriptors and spawning share one lock, so a descriptor never leaks into a
                // child that another test spawns before FD_CLOEXEC is set on it.
                let launched = try spawnLock.withLock { _ throws(EndToEndFailure) -> (pid_t, termios) in
                    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
                    guard openpty(&master, &slave, nil, nil, &size) == 0 else {
                        throw EndToEndFailure("openpty failed: \(String(cString: strerror(errno)))")
                    }
                    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
                    var path = [CChar](repeating: 0, count: 256)
                    guard ttyname_r(slave, &path, path.count) == 0 else {
                        close(master)
                        close(slave)
                        throw EndToEndFailure("ttyname_r failed on the pty's slave")
                    }
                    var modes = termios()
                    _ = tcgetattr(slave, &modes)
                    do throws(EndToEndFailure) {
                        let pid = try DemoProcess.spawn(executable, arguments, variables) { actions in
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

            case .pipe:
                screen = InMemoryTerminal(columns: 80, rows: 24, isInteractive: false)
                var ends: [Int32] = [-1, -1]
                pid = try spawnLock.withLock { _ throws(EndToEndFailure) -> pid_t in
                    guard pipe(&ends) == 0 else {
                        throw EndToEndFailure("pipe failed: \(String(cString: strerror(errno)))")
                    }
                    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
                    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
                    defer { close(ends[1]) }
                    do throws(EndToEndFailure) {
                        return try DemoProcess.spawn(executable, arguments, variables) { actions in
                            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
                            posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
                        }
                    } catch {
                        close(ends[0])
                        throw error
                    }
                }
                modesBefore = nil
                readDescriptor = ends[0]
                slaveDescriptor = -1
            }
            _ = fcntl(readDescriptor, F_SETFL, fcntl(readDescriptor, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            if termination == nil {
                _ = Glibc.kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
            // The program was started in a session and process group of its own: whatever it left
            // in that group (a process relaying its output after it exited, a child it started)
            // ends with the test, and cannot go on using the machine under the tests after it.
            _ = Glibc.kill(-pid, SIGKILL)
            if readDescriptor >= 0 { close(readDescriptor) }
            if slaveDescriptor >= 0 { close(slaveDescriptor) }
        }

        // MARK: - Interacting

        /// Types `bytes` on the keyboard (writes them to the pty's master).
        func type(_ bytes: [UInt8]) throws {
            guard slaveDescriptor >= 0 else { throw EndToEndFailure("type(_:) needs a running demo on a pty") }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(readDescriptor, $0.baseAddress, $0.count) }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR || errno == EAGAIN {
                    continue
                } else {
                    throw EndToEndFailure("writing to the pty's master failed: \(String(cString: strerror(errno)))")
                }
            }
        }

        /// Types `text` on the keyboard.
        func type(_ text: String) throws {
            try type(Array(text.utf8))
        }

        /// Presses Ctrl-C: the line discipline raises `SIGINT` in the demo (ISIG is on).
        func sendInterrupt() throws {
            try type([0x03])
        }

        /// Changes the pty's window size (the kernel sends `SIGWINCH` to the demo) and resizes the
        /// in-memory terminals at the same point of the byte stream.
        func resize(columns: Int, rows: Int) throws {
            guard slaveDescriptor >= 0 else { throw EndToEndFailure("resize needs a running demo on a pty") }
            pump()
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            guard ioctl(readDescriptor, UInt(TIOCSWINSZ), &size) == 0 else {
                throw EndToEndFailure("TIOCSWINSZ failed: \(String(cString: strerror(errno)))")
            }
            resizeOffsets.append(output.count)
            for terminal in [screen] + mirrors {
                terminal.resize(columns: columns, rows: rows)
            }
        }

        /// Sends `signal` to the demo.
        func kill(_ signal: Int32) {
            _ = Glibc.kill(pid, signal)
        }

        /// How many typed bytes wait in the terminal for a program to read them (in canonical mode,
        /// complete lines only), or `nil` when the slave is not open any more. Every key typed
        /// before them has been through the line discipline: Ctrl-C and Ctrl-Z raised their signals.
        func typedBytesWaiting() -> Int? {
            guard slaveDescriptor >= 0 else { return nil }
            var count: Int32 = 0
            guard ioctl(slaveDescriptor, UInt(FIONREAD), &count) == 0 else { return nil }
            return Int(count)
        }

        /// The slave's terminal modes now, or `nil` when the slave is not open any more.
        func currentModes() -> TerminalModes? {
            guard slaveDescriptor >= 0 else { return nil }
            var modes = termios()
            guard tcgetattr(slaveDescriptor, &modes) == 0 else { return nil }
            return TerminalModes(modes)
        }

        // MARK: - Waiting

        /// Waits until the demo has drawn `text`: it is on ``screen``, or was (a busy machine may
        /// read the output late, after a later text replaced it).
        func waitFor(text: String, timeout: Duration = .seconds(15)) async throws {
            try await waitUntil("\"\(text)\" drawn", timeout: timeout) { demo in
                demo.screen.screen.contains(text) || demo.output.contains(bytes: text)
            }
        }

        /// Waits until a spinner line is on ``screen``: the alert is showing and its work runs
        /// (from the grace delay to the end of the work: a window of seconds, not a single text's).
        func waitForSpinner(timeout: Duration = .seconds(15)) async throws {
            try await waitUntil("a spinner line on screen", timeout: timeout) { !spinnerLines($0.screen).isEmpty }
        }

        /// Reads output until `condition` holds; fails with the screen after `timeout`, or as soon as
        /// the demo has ended with all its output read and the condition still false.
        func waitUntil(
            _ what: @autoclosure () -> String,
            timeout: Duration = .seconds(15),
            _ condition: (DemoProcess) -> Bool
        ) async throws {
            let deadline = ContinuousClock.now + timeout
            while true {
                pump()
                if condition(self) { return }
                if try await reapIfEnded() {
                    if condition(self) { return }
                    throw failure("the demo ended before \(what())")
                }
                guard ContinuousClock.now < deadline else {
                    throw failure("timed out after \(timeout) waiting for \(what())")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        /// Waits for the demo to end, reading its output meanwhile, then reads what is left.
        ///
        /// On timeout the demo is killed with `SIGKILL` and the wait fails with the screen.
        @discardableResult
        func waitForExit(timeout: Duration = .seconds(20)) async throws -> Termination {
            let deadline = ContinuousClock.now + timeout
            while true {
                pump()
                if try await reapIfEnded(), let termination { return termination }
                guard ContinuousClock.now < deadline else {
                    let message = failure("timed out after \(timeout) waiting for the demo to end; killed it")
                    kill(SIGKILL)
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
            guard readDescriptor >= 0, !endOfOutput else { return false }
            var any = false
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                var request = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&request, 1, 0)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { break }
                let count = read(readDescriptor, &buffer, buffer.count)
                if count > 0 {
                    consume(Array(buffer[..<count]))
                    any = true
                } else if count < 0, errno == EINTR || errno == EAGAIN {
                    continue
                } else {
                    // 0: end of a pipe; EIO: the pty's slave is closed everywhere and drained.
                    endOfOutput = true
                    break
                }
            }
            return any
        }

        private func consume(_ bytes: [UInt8]) {
            output += bytes
            for terminal in [screen] + mirrors {
                terminal.write(bytes)
            }
        }

        /// Reaps the demo if it has ended: records how, the slave's modes, and drains its output.
        ///
        /// - Returns: whether the demo has ended.
        private func reapIfEnded(blocking: Bool = false) async throws -> Bool {
            if termination != nil { return true }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            } while result < 0 && errno == EINTR
            guard result == pid else { return false }
            termination = Termination(waitStatus: status)
            checkSanitizerReports()
            if slaveDescriptor >= 0 {
                modesAtExit = currentModes()
                // With no slave left open, the master reads what is buffered, then EIO: all output is in.
                close(slaveDescriptor)
                slaveDescriptor = -1
            }
            let deadline = ContinuousClock.now + .seconds(5)
            while !endOfOutput, ContinuousClock.now < deadline {
                if !pump() { try await Task.sleep(for: .milliseconds(5)) }
            }
            return true
        }

        // MARK: - Reporting

        /// A prefix no other run uses, in the system's temporary directory.
        private static func sanitizerReports() -> String {
            let number = reportCounter.withLock { counter -> Int in
                counter += 1
                return counter
            }
            return "/tmp/wait-alert-e2e-\(getpid())-\(number)"
        }

        /// Fails the test with any report a sanitizer-built demo wrote (a race, a memory error).
        private func checkSanitizerReports() {
            let path = "\(sanitizerReportPrefix).\(pid)"
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
                bytes += buffer[..<count]
            }
            close(descriptor)
            unlink(path)
            let text = String(decoding: bytes, as: UTF8.self)
            Issue.record("the demo's sanitizer reported:\n\(text)")
        }

        var elapsed: Duration { ContinuousClock.now - started }

        /// The output decoded as UTF-8.
        var text: String { String(decoding: output, as: UTF8.self) }

        /// A failure that shows what the user would see.
        func failure(_ message: String) -> EndToEndFailure {
            let state = termination.map { "ended with \($0)" } ?? "still running"
            return EndToEndFailure(
                """
                \(message)
                \(([program] + arguments).joined(separator: " ")) — \(state), \(elapsed) after launch
                \(screen)
                last bytes: \(escaped(output.suffix(400)))
                """)
        }

        /// What a user would see, for `#expect` comments.
        var report: String {
            "\(screen)\nbytes: \(escaped(output.suffix(600)))"
        }

        /// Whether a signal's handler runs as soon as the signal arrives. Not under
        /// ThreadSanitizer (the demo is built like the tests): its runtime defers a handler until
        /// the thread the signal reached calls an intercepted function, and the idle worker
        /// thread that usually takes a process-directed signal sleeps in a `futex` system call
        /// until its next job — at worst the end of the demo's timeline. Two signals deferred
        /// together also become one. Tests bound the time from a signal to the exit only where
        /// this holds.
        static let signalsRunAtOnce = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil

        // MARK: - Launching

        /// The demo binary, found next to the test bundle in the build directory.
        static let executable: Result<String, EndToEndFailure> = {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard length > 0 else { return .failure(EndToEndFailure("readlink /proc/self/exe failed")) }
            let bytes = buffer[..<length].map { UInt8(bitPattern: $0) }
            var directory = String(decoding: bytes, as: UTF8.self)
            let start = directory
            while let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
                directory = String(directory[..<slash])
                let candidate = directory + "/wait-alert-demo"
                var info = stat()
                if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                    return .success(candidate)
                }
            }
            return .failure(
                EndToEndFailure(
                    """
                    wait-alert-demo not found in any directory above the test binary \(start); \
                    build it first (swift build --build-tests builds it: the test target depends on it)
                    """))
        }()

        private static func spawn(
            _ executable: String,
            _ arguments: [String],
            _ environment: [String: String],
            fileActions: (inout posix_spawn_file_actions_t) -> Void
        ) throws(EndToEndFailure) -> pid_t {
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
            // Every signal at its default, whatever the test process does with it.
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in Int32(1)...__libc_current_sigrtmax() where signal != SIGKILL && signal != SIGSTOP {
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
                throw EndToEndFailure("posix_spawn \(executable) failed: \(String(cString: strerror(error)))")
            }
            return pid
        }
    }

    /// Serializes creating descriptors and spawning children across concurrently running tests.
    private let spawnLock = Mutex(())

    /// Numbers the sanitizer report prefixes of this test process.
    private let reportCounter = Mutex(0)

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
        var lineDiscipline: cc_t
        var controlCharacters: [cc_t]
        var inputSpeed: speed_t
        var outputSpeed: speed_t

        init(_ modes: termios) {
            input = modes.c_iflag
            output = modes.c_oflag
            control = modes.c_cflag
            local = modes.c_lflag
            lineDiscipline = modes.c_line
            controlCharacters = withUnsafeBytes(of: modes.c_cc) { Array($0) }
            inputSpeed = modes.c_ispeed
            outputSpeed = modes.c_ospeed
        }

        var echoes: Bool { local & tcflag_t(ECHO) != 0 }
        var isCanonical: Bool { local & tcflag_t(ICANON) != 0 }
        var raisesSignals: Bool { local & tcflag_t(ISIG) != 0 }

        var description: String {
            let hex = { (value: tcflag_t) in "0x" + String(value, radix: 16) }
            return "iflag \(hex(input)) oflag \(hex(output)) cflag \(hex(control)) lflag \(hex(local)) "
                + "(ECHO \(echoes), ICANON \(isCanonical)) cc \(controlCharacters) speed \(inputSpeed)/\(outputSpeed)"
        }
    }

    /// A failure of the end-to-end harness, with what the user would have seen.
    struct EndToEndFailure: Error, CustomStringConvertible {
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

    extension Array where Element == UInt8 {
        /// Whether the bytes contain `needle`'s UTF-8 bytes in a row.
        func contains(bytes needle: String) -> Bool {
            firstRange(of: Array(needle.utf8)) != nil
        }
    }
#endif

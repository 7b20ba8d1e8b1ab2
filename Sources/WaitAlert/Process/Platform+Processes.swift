#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Processes and their groups, and reading descriptors: what running a command and watching its
/// output need of the system.
extension Platform {
    // MARK: - Processes

    /// Sends `signal` to every process of `group`; `false` when none received it.
    @discardableResult
    package static func signal(group: Int32, _ signal: Int32) -> Bool { killpg(group, signal) == 0 }

    /// Sends `signal` to the process `pid`. Async-signal-safe.
    @discardableResult
    package static func signal(process pid: Int32, _ signal: Int32) -> Bool { kill(pid, signal) == 0 }

    /// Whether the child `pid` has ended, leaving it to be reaped (``reap(_:)``).
    package static func hasEnded(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// Waits for the child `pid` to end and reaps it: its wait status.
    package static func reap(_ pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }

    /// The signal that stopped the child `pid` since the last call (`SIGSTOP`, `SIGTTIN`…), or
    /// `nil` when it has not stopped.
    package static func stopSignal(of pid: Int32) -> Int32? {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WSTOPPED | WNOHANG) == 0, info.si_signo == SIGCHLD else { return nil }
        #if canImport(Darwin)
            return info.si_status
        #else
            return info._sifields._sigchld.si_status
        #endif
    }

    // MARK: - Starting a command

    /// Why a command could not be started: the step that failed and the system's error number.
    package struct SpawnFailure: Error {
        package var step: String
        package var code: Int32
    }

    /// Starts `command` (its first word looked up in `PATH` unless it holds a `/`) in a process
    /// group of its own: standard input `/dev/null` when `nullInput`, each `redirections` entry's
    /// descriptor duplicated onto the command's descriptors it names, in `workingDirectory`, with
    /// exactly `environment` (`NAME=value` each), no blocked signal, and `SIGPIPE` at its default
    /// even when this program ignores it. Returns the command's process id (its group's id too).
    package static func spawnInOwnGroup(
        _ command: [String], nullInput: Bool, redirections: [(from: Int32, onto: [Int32])],
        workingDirectory: String?, environment: [String]
    ) -> Result<Int32, SpawnFailure> {
        guard let program = command.first, !program.isEmpty else {
            return .failure(SpawnFailure(step: "posix_spawn", code: ENOENT))
        }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if nullInput { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        for (source, targets) in redirections {
            for target in targets { posix_spawn_file_actions_adddup2(&actions, source, target) }
        }
        if let workingDirectory {
            guard let changeDirectory = addChangeDirectory else {
                return .failure(SpawnFailure(step: "change to \(workingDirectory)", code: ENOSYS))
            }
            _ = changeDirectory(&actions, workingDirectory)
        }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        _ = posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        _ = posix_spawnattr_setpgroup(&attributes, 0)
        var mask = sigset_t()
        sigemptyset(&mask)
        _ = posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)  // often ignored by the program, never meant for the command
        _ = posix_spawnattr_setsigdefault(&attributes, &defaults)

        let arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { variables.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, &attributes, arguments, variables)
        return result == 0 ? .success(pid) : .failure(SpawnFailure(step: "posix_spawn", code: result))
    }

    /// `posix_spawn_file_actions_addchdir_np`, looked up at run time: the C library's module does
    /// not export it to Swift on Linux (glibc 2.29 and later have it; so does macOS).
    private static let addChangeDirectory: (@convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32)? =
        {
            #if canImport(Darwin)
                let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
            #else
                let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
            #endif
            guard let symbol = dlsym(everywhere, "posix_spawn_file_actions_addchdir_np") else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32).self)
        }()

    /// This program's environment, `NAME=value` each.
    package static func environmentEntries() -> [String] {
        #if canImport(Darwin)
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
        #else
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        var variables: [String] = []
        while let pointer = entry?.pointee {
            variables.append(String(cString: pointer))
            entry = entry?.advanced(by: 1)
        }
        return variables
    }

    /// A pipe, both ends close-on-exec and blocking: its read end, then its write end.
    package static func makePipe() -> Result<(read: Int32, write: Int32), SpawnFailure> {
        var ends: [Int32] = [-1, -1]
        guard systemPipe(&ends) == 0 else { return .failure(SpawnFailure(step: "pipe", code: errno)) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return .success((ends[0], ends[1]))
    }

    /// Has the terminal `device` pass a program's "\n" on as it was written, not as "\r\n" (a
    /// pseudo-terminal whose output is copied to a real terminal, which turns it into "\r\n"
    /// itself).
    package static func keepNewlines(_ device: Int32) {
        var modes = termios()
        guard tcgetattr(device, &modes) == 0 else { return }
        modes.c_oflag &= ~tcflag_t(ONLCR)
        _ = tcsetattr(device, TCSANOW, &modes)
    }

    /// Makes reads and writes of `descriptor` return at once instead of waiting.
    package static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    // MARK: - Descriptors

    /// What reading a descriptor gave.
    package enum ReadResult: Equatable {
        /// This many bytes, at the start of the buffer.
        case bytes(Int)
        /// Nothing now (interrupted, or nothing to read from a non-blocking descriptor): try again.
        case again
        /// The end: a pipe whose writers are gone, a pseudo-terminal whose device is closed
        /// everywhere (`EIO`), or an error.
        case end
    }

    /// What a read of `count` bytes (its result) gave. Reads `errno`: call it at once.
    static func readResult(_ count: Int) -> ReadResult {
        if count > 0 { return .bytes(count) }
        if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return .again }
        return .end
    }

    /// Reads up to `count` bytes from `descriptor` into `buffer`: how many (0 at the end, below 0
    /// on an error or with nothing to read). Async-signal-safe.
    static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int) -> Int {
        read(descriptor, buffer, count)
    }

    /// Reads what `descriptor` holds into `buffer`.
    package static func readChunk(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        readResult(readSome(descriptor, into: buffer.baseAddress, count: buffer.count))
    }

    /// Waits up to `milliseconds` (-1: as long as it takes) for any of `descriptors` to have
    /// something to read, or its end: which are ready, in order (a descriptor below 0 is never
    /// ready); `nil` when the wait failed or timed out with none ready. A signal that interrupts
    /// the wait starts it again.
    package static func waitForInput(_ descriptors: [Int32], milliseconds: Int32) -> [Bool]? {
        while true {
            switch waitReadable(descriptors, milliseconds: milliseconds) {
            case .ready(let ready): return ready
            case .interrupted: continue
            case .timedOut, .failed: return nil
            }
        }
    }

    /// Which of `descriptors` have something to read (or their end) after waiting up to
    /// `milliseconds` (-1: as long as it takes): none when the time ran out or a signal
    /// interrupted the wait; `nil` when the wait failed.
    package static func readiness(of descriptors: [Int32], milliseconds: Int32) -> [Bool]? {
        switch waitReadable(descriptors, milliseconds: milliseconds) {
        case .ready(let ready): ready
        case .timedOut, .interrupted: descriptors.map { _ in false }
        case .failed: nil
        }
    }

    private enum Readable {
        case ready([Bool])
        case timedOut, interrupted, failed
    }

    /// One `poll` of `descriptors` for something to read.
    private static func waitReadable(_ descriptors: [Int32], milliseconds: Int32) -> Readable {
        var requests = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&requests, nfds_t(requests.count), milliseconds)
        if ready > 0 { return .ready(requests.map { $0.revents != 0 }) }
        if ready == 0 { return .timedOut }
        return errno == EINTR ? .interrupted : .failed
    }

    /// Whether every writer of `descriptor` (a pipe's read end, a pseudo-terminal's controller)
    /// has gone, without reading.
    package static func isHungUp(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0 && request.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Closes `descriptor`. Async-signal-safe.
    package static func close(_ descriptor: Int32) { _ = systemClose(descriptor) }

    /// Whether the terminal `descriptor` reads lines (canonical mode) rather than every key as it
    /// comes; `nil` when it is not a terminal.
    package static func readsLines(_ descriptor: Int32) -> Bool? {
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0 else { return nil }
        return modes.c_lflag & tcflag_t(ICANON) != 0
    }

    /// Makes `target` another descriptor of what `descriptor` reaches; `false` when refused.
    /// Async-signal-safe.
    @discardableResult
    package static func duplicate(_ descriptor: Int32, onto target: Int32) -> Bool { dup2(descriptor, target) >= 0 }

    /// A close-on-exec duplicate of `descriptor`, numbered 3 or above; `nil` when refused.
    package static func duplicateAboveStandard(_ descriptor: Int32) -> Int32? {
        let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        return duplicate >= 0 ? duplicate : nil
    }

    /// Gives the terminal `device` the modes of the terminal `descriptor`.
    package static func copyTerminalModes(from descriptor: Int32, to device: Int32) {
        var modes = termios()
        if tcgetattr(descriptor, &modes) == 0 { _ = tcsetattr(device, TCSANOW, &modes) }
    }
}

/// `close(2)`, named apart from ``Platform``'s own.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }

private func systemPipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { pipe(ends) }

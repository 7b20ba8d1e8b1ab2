#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Subprocess {
    /// Starts `command` (its first word looked up in `PATH` unless it holds a `/`) in a process
    /// group of its own, its outputs connected as `channels` say: each channel a pseudo-terminal
    /// sized like the terminal it stands for, or a pipe. A standard output or error no channel
    /// carries is inherited as it is.
    ///
    /// The command gets the program's environment with `environment` added (a variable named there
    /// replaces the program's), no blocked signal, and `SIGPIPE` at its default even when the
    /// program ignores it. The group is registered with ``ProcessGroupGuard`` before this returns;
    /// a Ctrl-Z that comes meanwhile waits for it.
    package static func spawn(
        _ command: [String], channels: [SubprocessChannel], standardInput: StandardInput = .inherited,
        environment: [String: String] = [:], workingDirectory: String? = nil
    ) throws(SubprocessSpawnError) -> Subprocess {
        guard let program = command.first, !program.isEmpty else {
            throw SubprocessSpawnError(step: "posix_spawn", code: ENOENT)
        }
        var reading: [Output] = []
        var writing: [Int32] = []
        func closeAll() {
            reading.forEach { close($0.descriptor) }
            writing.forEach { close($0) }
        }
        for channel in channels {
            do throws(SubprocessSpawnError) {
                let (read, write) = try makeChannel(channel)
                reading.append(Output(descriptor: read, channel: channel))
                writing.append(write)
            } catch {
                closeAll()
                throw error
            }
        }
        defer { writing.forEach { close($0) } }

        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if standardInput == .null { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        for (channel, write) in zip(channels, writing) {
            for descriptor in channel.descriptors { posix_spawn_file_actions_adddup2(&actions, write, descriptor) }
        }
        if let workingDirectory {
            guard let changeDirectory = Self.addChangeDirectory else {
                closeAll()
                throw SubprocessSpawnError(step: "change to \(workingDirectory)", code: ENOSYS)
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
        let variables: [UnsafeMutablePointer<CChar>?] = Self.environment(adding: environment).map { strdup($0) } + [nil]
        defer { variables.forEach { free($0) } }
        var pid: pid_t = 0
        ProcessGroupGuard.beginStart(
            actions: .init(get: TerminalGuard.programAction(for:), set: TerminalGuard.setProgramAction(_:for:)))
        let result = posix_spawnp(&pid, program, &actions, &attributes, arguments, variables)
        guard result == 0 else {
            ProcessGroupGuard.endStart(group: nil)
            closeAll()
            throw SubprocessSpawnError(step: "posix_spawn", code: result)
        }
        ProcessGroupGuard.endStart(group: pid)
        for output in reading {
            _ = fcntl(output.descriptor, F_SETFL, fcntl(output.descriptor, F_GETFL) | O_NONBLOCK)
        }
        return Subprocess(pid: pid, outputs: reading)
    }

    /// The program's environment, `NAME=value` each, with `added` in place of the variables of
    /// the same names.
    static func environment(adding added: [String: String]) -> [String] {
        #if canImport(Darwin)
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
        #else
            var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        var variables: [String] = []
        while let pointer = entry?.pointee {
            let variable = String(cString: pointer)
            let name = variable.prefix { $0 != "=" }
            if added[String(name)] == nil { variables.append(variable) }
            entry = entry?.advanced(by: 1)
        }
        for (name, value) in added.sorted(by: { $0.key < $1.key }) { variables.append("\(name)=\(value)") }
        return variables
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

    /// A pseudo-terminal or a pipe: the end to read, the end the command writes, both
    /// close-on-exec.
    private static func makeChannel(_ channel: SubprocessChannel) throws(SubprocessSpawnError) -> (Int32, Int32) {
        if let terminal = channel.terminal {
            guard let (controller, device) = Platform.openPseudoTerminal() else {
                throw SubprocessSpawnError(step: "open a pseudo-terminal", code: errno)
            }
            // The command's "\n" reaches the program as it was written: a real terminal the bytes
            // are copied to turns it into "\r\n" itself.
            var modes = termios()
            if tcgetattr(device, &modes) == 0 {
                modes.c_oflag &= ~tcflag_t(ONLCR)
                _ = tcsetattr(device, TCSANOW, &modes)
            }
            if let size = Platform.windowSize(of: terminal) { Platform.setWindowSize(size, of: controller) }
            return (controller, device)
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SubprocessSpawnError(step: "pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}

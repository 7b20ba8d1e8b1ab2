#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command, started in a process group of its own, with standard input inherited and its
/// standard output and error connected as an ``OutputPlan`` says.
struct ChildProcess: Sendable {
    /// A channel's end that `wait-alert` reads (a pseudo-terminal's master, a pipe's read end).
    struct Output: Sendable {
        let descriptor: Int32
        let channel: OutputPlan.Channel
    }

    /// The command's process id, which is also its process group's id.
    let pid: pid_t
    let outputs: [Output]

    /// Starts `command` (looked up in `PATH`) connected as `plan` says; each pseudo-terminal is
    /// sized like the terminal it stands for. A standard descriptor the plan does not connect is
    /// inherited as it is, or stays closed (``StandardDescriptors``).
    static func spawn(_ command: [String], plan: OutputPlan) throws(SpawnError) -> ChildProcess {
        var reading: [Output] = []
        var writing: [Int32] = []
        func closeAll() {
            reading.forEach { close($0.descriptor) }
            writing.forEach { close($0) }
        }
        for channel in plan.channels {
            do throws(SpawnError) {
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
        for (channel, write) in zip(plan.channels, writing) {
            for descriptor in channel.descriptors { posix_spawn_file_actions_adddup2(&actions, write, descriptor) }
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
        sigaddset(&defaults, SIGPIPE)  // ignored by wait-alert, not by the command
        _ = posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #if canImport(Darwin)
            let environment = _NSGetEnviron().pointee
        #else
            let environment = environ
        #endif
        let result = posix_spawnp(&pid, command[0], &actions, &attributes, argv, environment)
        guard result == 0 else {
            closeAll()
            throw SpawnError(step: "posix_spawn", code: result)
        }
        for output in reading {
            _ = fcntl(output.descriptor, F_SETFL, fcntl(output.descriptor, F_GETFL) | O_NONBLOCK)
        }
        return ChildProcess(pid: pid, outputs: reading)
    }

    /// A pseudo-terminal or a pipe: the end to read, the end the command writes.
    private static func makeChannel(_ channel: OutputPlan.Channel) throws(SpawnError) -> (Int32, Int32) {
        if channel.isTerminal {
            let terminal = try PseudoTerminal.open(sizeLike: channel.sizeSource)
            return (terminal.master, terminal.slave)
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnError(step: "pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a working output for the background processes a command left running (a daemon it
/// started with `&`): once the command has ended, a process of its own takes over the channels
/// they still hold and copies what comes through each, unchanged, to where it was going — or
/// reads and drops it, for a channel whose bytes were kept — until the last of them has closed
/// it; then it exits. Without it, their writes would fail (`EIO` on a pseudo-terminal, `SIGPIPE`
/// on a pipe) once the program stopped reading.
///
/// The relay process runs only system calls on memory made before it was forked, with default
/// signal handling and no blocked signal, and holds no descriptor of the program's but the
/// channels and the descriptors it copies to. It joins the command's process group, where the
/// processes it serves are, and is nobody's child to reap: it is forked from a process that
/// exits at once.
enum SubprocessHandOff {
    /// Forks the relay for `channels` (each a descriptor to read and where to copy what comes,
    /// `nil` to drop it), in process group `group`. The caller closes its own copies afterwards.
    static func start(_ channels: [(source: Int32, target: Int32?)], group: Int32) {
        let count = channels.count
        let fds = UnsafeMutablePointer<pollfd>.allocate(capacity: count)
        let targets = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
        defer {
            fds.deallocate()
            targets.deallocate()
            buffer.deallocate()
        }
        for (index, channel) in channels.enumerated() {
            fds[index] = pollfd(fd: channel.source, events: Int16(POLLIN), revents: 0)
            targets[index] = channel.target ?? -1
        }
        let highest = min(getdtablesize(), 65_536)
        guard let fork = Self.systemFork else { return }
        let middle = fork()
        if middle > 0 {
            var status: Int32 = 0
            while waitpid(middle, &status, 0) < 0, errno == EINTR {}
        }
        guard middle == 0 else { return }
        // The process in the middle: forks the relay and exits, so init adopts it.
        guard fork() == 0 else { _exit(0) }
        // The relay process.
        _ = setpgid(0, group)
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        var defaultAction = sigaction()
        sigemptyset(&defaultAction.sa_mask)  // SIG_DFL
        for signal in Int32(1)..<Int32(65) where signal != SIGKILL && signal != SIGSTOP {
            sigaction(signal, &defaultAction, nil)  // fails harmlessly past the system's last signal
        }
        for descriptor in 0..<max(highest, 3) where !keeps(descriptor, fds, targets, count) {
            close(descriptor)
        }
        while true {
            var open = 0
            for index in 0..<count where fds[index].fd >= 0 { open += 1 }
            guard open > 0 else { break }
            guard poll(fds, nfds_t(count), -1) >= 0 || errno == EINTR else { break }
            for index in 0..<count where fds[index].fd >= 0 {
                let events = Int32(fds[index].revents)
                fds[index].revents = 0
                if events & Int32(POLLIN) != 0 {
                    while case let read = read(fds[index].fd, buffer.baseAddress, buffer.count), read > 0 {
                        if targets[index] >= 0 {
                            _ = Platform.writeAll(
                                UnsafeRawBufferPointer(rebasing: buffer[..<read]), to: targets[index], patience: -1)
                        }
                    }
                }
                if events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 { fds[index].fd = -1 }
            }
        }
        _exit(0)
    }

    /// `fork`: the C library's, looked up at run time where Swift's module of it marks it
    /// unavailable (Darwin's).
    private static let systemFork: (@convention(c) () -> pid_t)? = {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
            guard let symbol = dlsym(everywhere, "fork") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) () -> pid_t).self)
        #else
            return { fork() }
        #endif
    }()

    /// Whether the relay process keeps `descriptor`: one of the channels, or a target.
    private static func keeps(
        _ descriptor: Int32, _ fds: UnsafeMutablePointer<pollfd>, _ targets: UnsafeMutablePointer<Int32>, _ count: Int
    ) -> Bool {
        for index in 0..<count where fds[index].fd == descriptor || targets[index] == descriptor { return true }
        return false
    }
}

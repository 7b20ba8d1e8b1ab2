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

    /// Reads what `descriptor` holds into `buffer`.
    package static func readChunk(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return .again }
        return .end
    }

    /// Waits up to `milliseconds` (-1: as long as it takes) for any of `descriptors` to have
    /// something to read, or its end: which are ready, in order (a descriptor below 0 is never
    /// ready); `nil` when the wait failed or timed out with none ready. A signal that interrupts
    /// the wait starts it again.
    package static func waitForInput(_ descriptors: [Int32], milliseconds: Int32) -> [Bool]? {
        var requests = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var ready = poll(&requests, nfds_t(requests.count), milliseconds)
        while ready < 0, errno == EINTR { ready = poll(&requests, nfds_t(requests.count), milliseconds) }
        guard ready > 0 else { return nil }
        return requests.map { $0.revents != 0 }
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
}

/// `read(2)` and `close(2)`, named apart from ``Platform``'s own.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Local sockets (`AF_UNIX`), their private directory, and the environment a child inherits:
/// what the event socket between a program and the commands it runs needs of the system.
extension Platform {
    // MARK: - Files

    /// A new directory only this user can enter (mode 0700) in `TMPDIR` (else `/tmp`), its name
    /// starting with `prefix`; `nil` when the system refuses.
    package static func makePrivateDirectory(prefix: String) -> String? {
        let base = environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return String(cString: made)
    }

    /// Removes the file `path` (not a directory).
    package static func removeFile(_ path: String) { _ = unlink(path) }

    /// Removes the empty directory `path`.
    package static func removeDirectory(_ path: String) { _ = rmdir(path) }

    /// Sets the environment variable `name` to `value`, for this process and those it starts.
    package static func setEnvironment(_ name: String, _ value: String) { _ = setenv(name, value, 1) }

    // MARK: - Local sockets

    /// A socket listening at `path` (mode 0600), close-on-exec and non-blocking; `nil` when the
    /// path is too long or the system refuses (nothing is left at `path` then).
    package static func listenLocally(at path: String, backlog: Int32 = 64) -> Int32? {
        guard let descriptor = localSocket(), let bound = withAddress(path, { bind(descriptor, $0, $1) }) else {
            return nil
        }
        guard bound == 0, chmod(path, 0o600) == 0, listen(descriptor, backlog) == 0 else {
            close(descriptor)
            _ = unlink(path)
            return nil
        }
        setNonBlocking(descriptor)
        return descriptor
    }

    /// A socket connected to the one listening at `path`, close-on-exec; `nil` when nobody listens
    /// there.
    package static func connectLocally(to path: String) -> Int32? {
        guard let descriptor = localSocket() else { return nil }
        guard withAddress(path, { connect(descriptor, $0, $1) }) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// A connection waiting on the listening socket `listener`, close-on-exec and non-blocking;
    /// `.none` when none waits, `.exhausted` when the process or the system has no descriptor or
    /// memory to give now (try again later).
    package static func acceptConnection(on listener: Int32) -> Accepted {
        let descriptor = accept(listener, nil, nil)
        guard descriptor >= 0 else {
            return errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM ? .exhausted : .none
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        setNonBlocking(descriptor)
        return .connection(descriptor)
    }

    /// What ``acceptConnection(on:)`` found.
    package enum Accepted: Equatable {
        case connection(Int32)
        case none
        case exhausted
    }

    /// Whether `path` is a socket owned by this user.
    package static func isSocketOfThisUser(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK && status.st_uid == getuid()
    }

    /// Whether the process at the other end of the connected local socket `descriptor` runs as
    /// this user.
    package static func peerIsThisUser(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            var user = uid_t()
            var group = gid_t()
            return getpeereid(descriptor, &user, &group) == 0 && user == getuid()
        #else
            // `struct ucred`: the process id, the user id, the group id.
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout.size(ofValue: credentials))
            return getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0
                && length == socklen_t(MemoryLayout.size(ofValue: credentials)) && credentials.uid == getuid()
        #endif
    }

    /// Sends `bytes` on the connected socket `descriptor`, without `SIGPIPE` when the other end
    /// has gone, waiting while it takes no more; returns how many went
    /// (all of them, unless the other end has gone or shut the connection down).
    package static func send(_ bytes: [UInt8], on descriptor: Int32) -> Int {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        return bytes.withUnsafeBytes { buffer in
            transferAll(buffer, on: descriptor, patience: -1) { systemSend(descriptor, $0, $1, flags) }
        }
    }

    /// Shuts the connected socket `descriptor` down both ways: the other end reads its end.
    package static func shutDown(_ descriptor: Int32) {
        #if canImport(Darwin)
            _ = shutdown(descriptor, SHUT_RDWR)
        #else
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #endif
    }

    /// Receives what the connected socket `descriptor` holds into `buffer`.
    package static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        readResult(recv(descriptor, buffer.baseAddress, buffer.count, 0))
    }

    /// Waits, as long as it takes, until the other end of the connected socket `descriptor`
    /// shuts the connection down or goes (`true`), or `stop` has something to read or is closed
    /// at its other end (`false`).
    package static func waitForHangUp(of descriptor: Int32, or stop: Int32) -> Bool {
        #if os(Linux)
            let hangUp = Int16(0x2000)  // POLLRDHUP: the other end shut its writing down
        #else
            let hangUp = Int16(0)  // POLLHUP and POLLERR come unasked
        #endif
        while true {
            var requests = [
                pollfd(fd: descriptor, events: hangUp, revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&requests, 2, -1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0, requests[1].revents == 0 else { return false }
            if requests[0].revents != 0 { return true }
        }
    }

    private static func localSocket() -> Int32? {
        #if canImport(Darwin)
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// Calls `body` with `path` as a local socket's address and its length; `nil` when `path` is
    /// too long for one.
    private static func withAddress(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

}

private func systemSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, buffer, count, flags)
}

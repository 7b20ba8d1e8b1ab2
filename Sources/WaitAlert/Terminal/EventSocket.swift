import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Unix socket through which processes a program starts report into its alerts: a listening
/// socket in a private directory, named by `WAIT_ALERT_SOCKET` in the environment of the
/// processes started while it exists, and the connection a child process makes to it.
///
/// A connection begins with one line from the listener: `{"v":1,"event":"hello"}` when an alert
/// runs that the child's events can go under; otherwise the listener closes it, and the child
/// draws its alerts itself. Then the child writes event lines (``WaitAlertEvent``'s schema).
package enum EventSocket {
    /// The environment variable naming the socket.
    package static let variable = "WAIT_ALERT_SOCKET"
    /// The listener's greeting.
    package static let hello = "{\"v\":1,\"event\":\"hello\"}\n"
    /// The line a listener that takes its children's questions (``PromptMessage``) sends right
    /// after its greeting, in the same write. A child that reads only the greeting never sees it.
    package static let acceptsQuestions = "{\"v\":1,\"event\":\"accepts\",\"questions\":true}\n"
    /// What a listener sends a connection it accepts.
    package static var greeting: [UInt8] { Array((hello + acceptsQuestions).utf8) }

    /// The path of this process's own listening socket, once made: never connected to as a
    /// parent's.
    private static let ownPath = Mutex<String?>(nil)

    /// A listening socket: its descriptor, its path, and the private directory it is in.
    package struct Listener: Sendable {
        package var descriptor: Int32
        package var path: String
        package var directory: String

        /// Removes the socket and its directory. Async-signal-safe but for the path strings
        /// being made: call it from an exit hook, not a signal handler.
        package func remove() {
            unlink(path)
            rmdir(directory)
        }
    }

    /// Makes a listening socket in a new directory only this user can enter (mode 0700), the socket
    /// itself mode 0600; `nil` when the system refuses (the program then has no socket to export).
    package static func listen() -> Listener? {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/wait-alert-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let directory = String(cString: made)
        let path = directory + "/events"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            rmdir(directory)
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        #if canImport(Darwin)
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard descriptor >= 0 else {
            rmdir(directory)
            return nil
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, chmod(path, 0o600) == 0, systemListen(descriptor, 64) == 0 else {
            close(descriptor)
            unlink(path)
            rmdir(directory)
            return nil
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        ownPath.withLock { $0 = path }
        return Listener(descriptor: descriptor, path: path, directory: directory)
    }

    /// Connects to the socket `WAIT_ALERT_SOCKET` names and waits up to `patience` milliseconds
    /// for the greeting; returns the connected descriptor, or `nil` when the variable is unset,
    /// names something that is not a socket of this user, nobody listens, or no alert runs there.
    package static func connectToParent(patience: Int32 = 500) -> Int32? {
        connect(patience: patience)?.descriptor
    }

    /// A connection to the parent's socket, and whether the parent takes questions.
    package struct Parent: Sendable {
        package var descriptor: Int32
        package var acceptsQuestions: Bool
    }

    /// Connects as ``connectToParent(patience:)`` does, and reads whether the parent takes
    /// questions (``acceptsQuestions``, sent with the greeting).
    package static func connect(patience: Int32 = 500) -> Parent? {
        guard let value = getenv(variable) else { return nil }
        let path = String(cString: value)
        var status = stat()
        guard !path.isEmpty, ownPath.withLock({ $0 }) != path, lstat(path, &status) == 0,
            status.st_mode & S_IFMT == S_IFSOCK,
            status.st_uid == getuid()
        else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        #if canImport(Darwin)
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0, receivesHello(descriptor, patience: patience) else {
            close(descriptor)
            return nil
        }
        return Parent(descriptor: descriptor, acceptsQuestions: receivesAcceptsQuestions(descriptor))
    }

    /// Whether the line after the greeting, already received with it, says the parent takes
    /// questions; the line is read only then. Nothing is waited for: a parent sends both at once.
    private static func receivesAcceptsQuestions(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            let flags = MSG_PEEK | MSG_DONTWAIT
        #else
            let flags = Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)
        #endif
        let expected = Array(acceptsQuestions.utf8)
        var buffer = [UInt8](repeating: 0, count: expected.count)
        var count = 0
        repeat {
            count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
        } while count < 0 && errno == EINTR
        guard count == expected.count, buffer == expected else { return false }
        return buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) } == expected.count
    }

    /// Whether the greeting arrives on `descriptor` within `patience` milliseconds.
    private static func receivesHello(_ descriptor: Int32, patience: Int32) -> Bool {
        let expected = Array(hello.utf8)
        var received: [UInt8] = []
        let deadline = Platform.monotonicNow() + .milliseconds(Int(patience))
        while received.count < expected.count {
            let left = deadline - Platform.monotonicNow()
            guard left > .zero else { return false }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(left / .milliseconds(1), 1))
            let ready = poll(&request, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return false }
            var byte: UInt8 = 0
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return false }
            received.append(byte)
            guard expected.starts(with: received) else { return false }
        }
        return true
    }

    /// Sends every byte of `bytes` on the connected socket `descriptor`, without `SIGPIPE` when the
    /// other end has gone; returns whether it did.
    package static func send(_ bytes: [UInt8], on descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        var offset = 0
        return bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let sent = systemSend(descriptor, buffer.baseAddress! + offset, buffer.count - offset, flags)
                if sent > 0 {
                    offset += sent
                } else if sent < 0, errno == EINTR {
                    continue
                } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, 1000)
                } else {
                    return false
                }
            }
            return true
        }
    }
}

// The C library's `listen`, `connect` and `send`, which `EventSocket`'s own names shadow inside it.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
private func systemSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, buffer, count, flags)
}

extension EventSocket {
    /// A connection to the parent's socket, written to like a terminal that is not interactive:
    /// what the event stream writes goes to the parent. Once the parent has gone, writes fail.
    package final class Connection: WaitAlertTerminal {
        private let descriptor: Int32

        /// The start of a line from the parent whose end has not come yet.
        private let partial = Mutex<[UInt8]>([])

        package init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Reads what the parent sends (its answers), on the calling thread, and hands each batch
        /// of whole lines to `deliver`, until `wanted` says no more is wanted (asked at least
        /// every 200 ms) or the parent has gone. One reader at a time.
        ///
        /// - Returns: whether the parent is still there.
        package func readLines(while wanted: () -> Bool, deliver: ([String]) -> Void) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while wanted() {
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&request, 1, 200)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else {
                    if ready < 0 { return false }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                guard count > 0 else { return false }
                let lines = partial.withLock { partial -> [String] in
                    var lines: [String] = []
                    var start = 0
                    for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                        lines.append(String(decoding: partial + buffer[start..<index], as: UTF8.self))
                        partial = []
                        start = index + 1
                    }
                    partial += buffer[start..<count]
                    if partial.count > 1 << 20 { partial = [] }  // no answer is that long
                    return lines
                }
                if !lines.isEmpty { deliver(lines) }
            }
            return true
        }

        package var columns: Int? { nil }
        package var isInteractive: Bool { false }

        @discardableResult
        package func write(_ bytes: [UInt8]) -> Bool {
            EventSocket.send(bytes, on: descriptor)
        }
    }
}

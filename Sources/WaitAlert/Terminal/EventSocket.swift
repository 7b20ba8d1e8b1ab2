import Dispatch
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
///
/// A child that knows which row it is (`WAIT_ALERT_PARENT`, a ``ParentChain``) says so in its
/// first line, `{"v":1,"event":"attach","parent":"…"}` (without `parent` when it does not know),
/// and waits for the answer `{"v":1,"event":"attached","key":"…"}`: its events go under that row,
/// or under the nearest one above it that still runs, and `key` names its own alerts in the
/// `WAIT_ALERT_PARENT` of the processes it starts. The listener closes the connection instead
/// when the row and every alert above it have ended. A listener that lets a connection go (the
/// alert it reports under has ended) shuts it down: the child's writes fail from then on, and
/// it attaches again or draws for itself.
package enum EventSocket {
    /// The environment variable naming the socket.
    package static let variable = "WAIT_ALERT_SOCKET"
    /// The environment variable naming the row a process reports under (a ``ParentChain``).
    package static let parentVariable = "WAIT_ALERT_PARENT"
    /// The listener's greeting.
    package static let hello = "{\"v\":1,\"event\":\"hello\"}\n"

    /// The path of this process's own listening socket, once made: never connected to as a
    /// parent's.
    private static let ownPath = Mutex<String?>(nil)

    /// How this process's alerts are named to the processes it starts: the key of its own
    /// listener or of its connection to its parent, and the chain that connection attached under
    /// (which the chains of its alerts go on with). `nil` while it has neither.
    private static let naming = Mutex<(key: String, inherited: ParentChain)?>(nil)

    /// The environment under which a process started now reports under this process's alert
    /// `ids` — the alert first, then those above it — or, with no ids, under its alert that began
    /// last and still runs: `WAIT_ALERT_SOCKET` and `WAIT_ALERT_PARENT`. Empty while this process
    /// neither listens nor reports to a parent.
    package static func environment(under ids: [UInt64]) -> [String: String] {
        guard let naming = naming.withLock({ $0 }), let socket = Platform.environment(variable) else { return [:] }
        let own = (ids.filter { $0 != 0 } + [0]).map { ParentChain.Link(key: naming.key, id: $0) }
        return [variable: socket, parentVariable: ParentChain(own + naming.inherited.links).text]
    }

    /// A listening socket: its descriptor, its path, and the private directory it is in.
    package struct Listener: Sendable {
        package var descriptor: Int32
        package var path: String
        package var directory: String
        /// The key naming this program's own alerts in a ``ParentChain``.
        package var key: String

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
        let base = Platform.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
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
        let key = ParentChain.makeKey()
        naming.withLock { $0 = (key, ParentChain([])) }
        return Listener(descriptor: descriptor, path: path, directory: directory, key: key)
    }

    /// Whether the process at the other end of the connected socket `descriptor` runs as this
    /// user (the socket's directory already keeps others out; this holds whatever its mode).
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

    /// Connects to the socket `WAIT_ALERT_SOCKET` names, attaches under the row
    /// `WAIT_ALERT_PARENT` names, and waits up to `patience` milliseconds for the answer; returns
    /// the connection, or `nil` when the variable is unset, names something that is not a socket
    /// of this user, nobody listens, or no alert runs there that this process belongs under.
    package static func connectToParent(patience: Int32 = 2000) -> Connection? {
        guard let path = Platform.environment(variable) else { return nil }
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
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // Attaching again, under the chain it attached under the first time.
        let inherited =
            naming.withLock { $0?.inherited }
            ?? ParentChain(parsing: Platform.environment(parentVariable) ?? "")
        var attach = "{\"v\":1,\"event\":\"attach\""
        if !inherited.links.isEmpty { attach += ",\"parent\":\"\(inherited.text)\"" }
        attach += "}\n"
        guard connected == 0, send(Array(attach.utf8), on: descriptor),
            let (key, acceptsQuestions) = receivesAttached(descriptor, patience: patience)
        else {
            close(descriptor)
            return nil
        }
        naming.withLock { $0 = (key, inherited) }
        // The processes it starts go under its alert that began last, then under its own parents.
        setenv(parentVariable, ParentChain([ParentChain.Link(key: key, id: 0)] + inherited.links).text, 1)
        return Connection(descriptor: descriptor, key: key, acceptsQuestions: acceptsQuestions)
    }

    /// The key the listener's answer to an `attach` gives, and whether it takes the child's
    /// questions (``PromptMessage``), when it arrives on `descriptor` within `patience`
    /// milliseconds (after the greeting, which a listener sends every connection).
    private static func receivesAttached(_ descriptor: Int32, patience: Int32) -> (String, Bool)? {
        var line: [UInt8] = []
        let deadline = Platform.monotonicNow() + .milliseconds(Int(patience))
        while true {
            let left = deadline - Platform.monotonicNow()
            guard left > .zero else { return nil }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(left / .milliseconds(1), 1))
            let ready = poll(&request, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0, errno == EINTR { continue }
            guard count == 1, line.count < 512 else { return nil }
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            let fields = JSONText.object(String(decoding: line, as: UTF8.self))
            line = []
            switch fields?["event"]?.string {
            case "hello": continue
            case "attached":
                guard let key = fields?["key"]?.string, ParentChain.isKey(key) else { return nil }
                return (key, fields?["questions"] == .bool(true))
            default: return nil
            }
        }
    }

    /// Sends every byte of `bytes` on the connected socket `descriptor`, without `SIGPIPE` when the
    /// other end has gone; returns whether it did.
    package static func send(_ bytes: [UInt8], on descriptor: Int32) -> Bool {
        sent(bytes, on: descriptor) == bytes.count
    }

    /// Sends `bytes` on the connected socket `descriptor`, without `SIGPIPE` when the other end
    /// has gone; returns how many of them went (all of them, unless the other end has gone or
    /// shut the connection down).
    package static func sent(_ bytes: [UInt8], on descriptor: Int32) -> Int {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        var offset = 0
        bytes.withUnsafeBytes { buffer in
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
                    return
                }
            }
        }
        return offset
    }
}

// The C library's `listen` and `send`, which `EventSocket`'s own names shadow inside it.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, buffer, count, flags)
}

extension EventSocket {
    /// A connection to the parent's socket, written to like a terminal that is not interactive:
    /// what the event stream writes goes to the parent. Once the parent has gone, or has let the
    /// connection go, writes fail.
    package final class Connection: WaitAlertTerminal {
        private let descriptor: Int32
        /// The key naming this process's alerts in the parent (``ParentChain``).
        package let key: String
        /// Whether the parent takes this process's questions (``PromptMessage``).
        package let acceptsQuestions: Bool
        /// The pipe that ends the watch of ``watchHangUp(_:)``: closed with the connection.
        private let stopWatch = Mutex<Int32?>(nil)
        /// The start of a line from the parent whose end has not come yet.
        private let partial = Mutex<[UInt8]>([])

        package init(descriptor: Int32, key: String, acceptsQuestions: Bool = false) {
            self.descriptor = descriptor
            self.key = key
            self.acceptsQuestions = acceptsQuestions
        }

        deinit {
            // Closing the pipe's write end wakes the watch (nothing written: its read end may be
            // closed already, and a write would raise SIGPIPE).
            if let stop = stopWatch.withLock({ $0 }) { close(stop) }
            close(descriptor)
        }

        package var columns: Int? { nil }
        package var isInteractive: Bool { false }

        @discardableResult
        package func write(_ bytes: [UInt8]) -> Bool {
            EventSocket.send(bytes, on: descriptor)
        }

        /// Reads what the parent sends (its answers), on the calling thread, and hands each batch
        /// of whole lines to `deliver`, until `wanted` says no more is wanted (asked at least
        /// every 200 ms) or the parent has gone or let the connection go. One reader at a time.
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

        /// Sends `bytes`; returns how many went before the parent went or let the connection go.
        package func sent(_ bytes: [UInt8]) -> Int {
            EventSocket.sent(bytes, on: descriptor)
        }

        /// Calls `handler` once, on a thread of its own, when the parent shuts the connection down
        /// or goes; never after the connection is released. Reads nothing from it.
        package func watchHangUp(_ handler: @escaping @Sendable () -> Void) {
            guard let (read, write) = Platform.nonBlockingPipe() else { return }
            stopWatch.withLock { $0 = write }
            let descriptor = descriptor
            DispatchQueue(label: "WaitAlert.EventSocket.hangUp").async {
                defer { close(read) }
                while true {
                    var requests = [
                        pollfd(fd: descriptor, events: Int16(Self.hangUpEvents), revents: 0),
                        pollfd(fd: read, events: Int16(POLLIN), revents: 0),
                    ]
                    let ready = poll(&requests, 2, -1)
                    if ready < 0, errno == EINTR { continue }
                    guard ready > 0, requests[1].revents == 0 else { return }
                    if requests[0].revents != 0 { return handler() }
                }
            }
        }

        /// What the watch waits for: the other end shut down or gone (`POLLHUP` and `POLLERR`
        /// come unasked). Linux says a shutdown of the other end's writing as `POLLRDHUP`.
        private static var hangUpEvents: Int32 {
            #if os(Linux)
                0x2000
            #else
                0
            #endif
        }
    }
}

/// A connection to the alert of the program this one runs under, through its event socket.
typealias ParentConnection = EventSocket.Connection

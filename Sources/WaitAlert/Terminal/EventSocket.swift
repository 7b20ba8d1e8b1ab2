import Dispatch
import Synchronization

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
            Platform.removeFile(path)
            Platform.removeDirectory(directory)
        }
    }

    /// Makes a listening socket in a new directory only this user can enter (mode 0700), the socket
    /// itself mode 0600; `nil` when the system refuses (the program then has no socket to export).
    package static func listen() -> Listener? {
        guard let directory = Platform.makePrivateDirectory(prefix: "wait-alert-") else { return nil }
        let path = directory + "/events"
        guard let descriptor = Platform.listenLocally(at: path) else {
            Platform.removeDirectory(directory)
            return nil
        }
        ownPath.withLock { $0 = path }
        let key = ParentChain.makeKey()
        naming.withLock { $0 = (key, ParentChain([])) }
        return Listener(descriptor: descriptor, path: path, directory: directory, key: key)
    }

    /// Whether the process at the other end of the connected socket `descriptor` runs as this
    /// user (the socket's directory already keeps others out; this holds whatever its mode).
    package static func peerIsThisUser(_ descriptor: Int32) -> Bool { Platform.peerIsThisUser(descriptor) }

    /// The environment variable setting how long a child waits for the listener's answer:
    /// `5s`, `1500ms`, or seconds (`2.5`). For a socket forwarded over a slow link (`ssh -R`).
    package static let timeoutVariable = "WAIT_ALERT_SOCKET_TIMEOUT"

    /// How long a child waits for the listener's answer, in milliseconds: `WAIT_ALERT_SOCKET_TIMEOUT`
    /// (at most two minutes), else 2 seconds. A value that names no time is reported once on
    /// standard error, and left out.
    package static var patience: Int32 {
        guard let value = Platform.environment(timeoutVariable), !value.isEmpty else { return 2000 }
        guard let milliseconds = milliseconds(in: value) else {
            if !reportedTimeout.exchange(true, ordering: .relaxed) {
                let message =
                    "wait-alert: \(timeoutVariable)=\(TextSanitizer.line(value)) is not a time from 1ms to 120s "
                    + "(such as 10s, 1500ms or 2.5); waiting 2s\n"
                _ = WaitAlertStandardError.shared.write(Array(message.utf8))
            }
            return 2000
        }
        return milliseconds
    }

    private static let reportedTimeout = Atomic<Bool>(false)

    /// The milliseconds `text` names (`5s`, `1500ms`, `2.5`), from 1 ms to 2 minutes; `nil` for
    /// anything else.
    package static func milliseconds(in text: String) -> Int32? {
        var number = Substring(text.lowercased())
        var scale = 1000.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
            scale = 1
        } else if number.hasSuffix("s") {
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        let milliseconds = (value * scale).rounded()
        guard milliseconds >= 1, milliseconds <= 120_000 else { return nil }
        return Int32(milliseconds)
    }

    /// Connects to the socket `WAIT_ALERT_SOCKET` names, attaches under the row
    /// `WAIT_ALERT_PARENT` names, and waits up to `patience` milliseconds for the answer
    /// (``patience``: 2 seconds unless `WAIT_ALERT_SOCKET_TIMEOUT` says otherwise); returns
    /// the connection, or `nil` when the variable is unset, names something that is not a socket
    /// of this user, nobody listens, or no alert runs there that this process belongs under.
    package static func connectToParent(patience: Int32 = EventSocket.patience) -> Connection? {
        guard let path = Platform.environment(variable) else { return nil }
        guard !path.isEmpty, ownPath.withLock({ $0 }) != path, Platform.isSocketOfThisUser(path),
            let descriptor = Platform.connectLocally(to: path)
        else { return nil }
        // Attaching again, under the chain it attached under the first time.
        let inherited =
            naming.withLock { $0?.inherited }
            ?? ParentChain(parsing: Platform.environment(parentVariable) ?? "")
        var attach = "{\"v\":1,\"event\":\"attach\""
        if !inherited.links.isEmpty { attach += ",\"parent\":\"\(inherited.text)\"" }
        attach += "}\n"
        guard send(Array(attach.utf8), on: descriptor),
            let (key, acceptsQuestions) = receivesAttached(descriptor, patience: patience)
        else {
            Platform.close(descriptor)
            return nil
        }
        naming.withLock { $0 = (key, inherited) }
        // The processes it starts go under its alert that began last, then under its own parents.
        Platform.setEnvironment(parentVariable, ParentChain([ParentChain.Link(key: key, id: 0)] + inherited.links).text)
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
            let milliseconds = Int32(max(left / .milliseconds(1), 1))
            guard Platform.waitForInput([descriptor], milliseconds: milliseconds) != nil else { return nil }
            var byte: UInt8 = 0
            let received = withUnsafeMutableBytes(of: &byte) { Platform.receive(descriptor, into: $0) }
            if received == .again { continue }
            guard received == .bytes(1), line.count < 512 else { return nil }
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
        Platform.send(bytes, on: descriptor)
    }
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
            if let stop = stopWatch.withLock({ $0 }) { Platform.close(stop) }
            Platform.close(descriptor)
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
                guard Platform.waitForInput([descriptor], milliseconds: 200) != nil else { continue }
                let received = buffer.withUnsafeMutableBytes { Platform.receive(descriptor, into: $0) }
                if received == .again { continue }
                guard case .bytes(let count) = received else { return false }
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
                defer { Platform.close(read) }
                if Platform.waitForHangUp(of: descriptor, or: read) { handler() }
            }
        }
    }
}

/// A connection to the alert of the program this one runs under, through its event socket.
typealias ParentConnection = EventSocket.Connection

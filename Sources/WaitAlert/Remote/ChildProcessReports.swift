import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reports from the processes a program starts, shown as child tasks of its alerts: the listening
/// end of `WAIT_ALERT_SOCKET`.
///
/// The first alert of a presenter whose overlay draws on standard error makes the socket and
/// exports its path to the processes the program starts from then on; it is removed when the
/// program exits. A connection goes under the alert that began last and still runs when it
/// connects (its *target*; none: the connection is closed, and the child draws for itself). Its
/// lines are read off the main actor and applied there in order, like a reporter's calls:
///
/// - `start` begins a child task of the target (or of the connection's own task `parent`);
/// - `text`, `progress` and `log` go to the connection's task `id`, or without an `id` to the
///   target;
/// - `end` ends the connection's task `id` (a connection never ends the target).
///
/// Ids belong to their connection: a child cannot reach another's tasks. Texts are shown like
/// any text (sanitized where a terminal draws them) and cut at 4,096 characters. A line that is
/// not an event is dropped and counted, and the count is logged once when the connection closes;
/// a line longer than 64 KiB is dropped too. At most ``ReportedTasks/openTaskLimit`` tasks of a connection are
/// open at once. A connection that closes with tasks open ends them as cancelled. Reading stops
/// while the main actor has ``pendingLimit`` batches to apply, so a flooding child waits on its
/// socket instead of growing the program's memory; the display never waits for a child.
@MainActor
final class ChildProcessReports {
    /// The reports of this process, once made.
    private static var serving: ChildProcessReports?
    /// Whether making the socket was tried (it is tried once).
    private static var tried = false
    /// Whether the socket is served: only then does an alert's end wait for its children
    /// (``settle(_:)``).
    nonisolated static let isServing = Atomic<Bool>(false)

    nonisolated static let pendingLimit = 16
    nonisolated static let lineLimit = 65_536

    /// Starts serving `presenter`'s alerts to child processes, unless this process already does.
    static func serve(_ presenter: WaitAlertPresenter) {
        guard !tried else { return }
        tried = true
        guard let listener = EventSocket.listen() else { return }
        guard let inbox = Inbox() else {
            systemClose(listener.descriptor)
            listener.remove()
            return
        }
        setenv(EventSocket.variable, listener.path, 1)
        ProcessExit.add(.restore) { listener.remove() }
        let reports = ChildProcessReports(presenter: presenter, inbox: inbox)
        serving = reports
        isServing.store(true, ordering: .relaxed)
        let reader = Reader(listener: listener.descriptor, inbox: reports.inbox)
        DispatchQueue(label: "WaitAlert.ChildProcessReports").async { reader.run() }
    }

    private let presenter: WaitAlertPresenter
    fileprivate let inbox: Inbox
    private var connections: [Int: Connection] = [:]
    /// Connections waiting for an alert to go under: the lines they sent meanwhile, and whether
    /// they closed.
    private var waiting: [Int: (lines: [WaitAlertEvent.Received?], closed: Bool)] = [:]

    /// A connection's state on the main actor.
    private struct Connection {
        let target: AlertSession
        var tasks: ReportedTasks
        /// Whether its target ended while it stayed connected: what it sends is dropped.
        var detached = false
        /// Its questions being asked, by its numbers.
        var questions: [UInt64: WaitAlertPrompt] = [:]
    }

    /// Waits, when connections report under `session` or an alert under it, until they have
    /// closed and what they sent is applied — at most a second: a process that ended (the usual
    /// case) has its last lines shown before the alert it reported into ends. Connections still
    /// open then are detached, their open tasks ended as cancelled.
    static func settle(_ session: AlertSession) async {
        guard let serving, serving.reports(under: session) else { return }
        let deadline = ContinuousClock.now + .seconds(1)
        while serving.reports(under: session), ContinuousClock.now < deadline {
            // A pause the alert's cancellation does not cut short: a cancelled task's `Task.sleep`
            // returns at once, which would spin here for the whole second, and Ctrl-C is when a
            // child's last lines matter most.
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { resumed.resume() }
            }
        }
        for (id, var connection) in serving.connections where Self.isUnder(connection.target, session) {
            connection.tasks.cancelOpen(on: serving.presenter)
            connection.detached = true
            serving.connections[id] = connection
        }
    }

    /// Whether a connection not detached, or one waiting for its target, reports under `session`.
    private func reports(under session: AlertSession) -> Bool {
        !waiting.isEmpty || connections.values.contains { !$0.detached && Self.isUnder($0.target, session) }
    }

    private static func isUnder(_ target: AlertSession, _ session: AlertSession) -> Bool {
        var current: AlertSession? = target
        while let alert = current {
            if alert === session { return true }
            current = alert.parent
        }
        return false
    }

    private init(presenter: WaitAlertPresenter, inbox: Inbox) {
        self.presenter = presenter
        self.inbox = inbox
        inbox.reports = self
    }

    /// What the reader thread hands the main actor, in order.
    fileprivate enum Message: Sendable {
        /// A connection was accepted: the main actor decides whether it has a target.
        case opened(Int)
        /// Lines of a connection, read in order (`nil` for one that is not an event).
        case lines(Int, [WaitAlertEvent.Received?])
        /// A question of a connection, or its withdrawal, in order with its lines.
        case prompt(Int, PromptMessage)
        case closed(Int)
    }

    /// Applies the messages waiting in the inbox.
    fileprivate func drain() {
        for message in inbox.take() {
            switch message {
            case .opened(let connection): open(connection)
            case .lines(let connection, let events): apply(events, on: connection)
            case .prompt(let connection, let message): apply(message, on: connection)
            case .closed(let connection): close(connection)
            }
        }
    }

    /// Takes `connection` under the current alert; with none, waits up to 400 ms for one to begin
    /// (a program may start a process just before its alert), then turns it away.
    private func open(_ connection: Int, attempt: Int = 0) {
        if attempt == 0 { waiting[connection] = ([], false) }
        guard let target = presenter.sessionForChildProcesses() else {
            guard attempt < 8, waiting[connection]?.closed == false else {
                waiting[connection] = nil
                inbox.decide(connection, accepted: false)
                return
            }
            Task { @MainActor in
                try? await Task.sleep(for: .milliseconds(50))
                self.open(connection, attempt: attempt + 1)
            }
            return
        }
        connections[connection] = Connection(target: target, tasks: ReportedTasks(target: target))
        inbox.decide(connection, accepted: true)
        guard let early = waiting.removeValue(forKey: connection) else { return }
        apply(early.lines, on: connection)
        if early.closed { close(connection) }
    }

    private func apply(_ events: [WaitAlertEvent.Received?], on id: Int) {
        guard var connection = connections[id] else {
            waiting[id]?.lines += events
            return
        }
        defer { connections[id] = connection }
        for event in events where !connection.detached {
            connection.tasks.apply(event, on: presenter)
        }
    }

    /// Asks a connection's question as this program's own — it owns the terminal — and sends the
    /// answer back; or stops asking one the child withdrew.
    private func apply(_ message: PromptMessage, on id: Int) {
        switch message {
        case .ask(let question):
            guard let connection = connections[id], !connection.detached, connection.questions[question.ask] == nil
            else {
                let reason = "the alert it reports into has ended"
                inbox.reply(
                    PromptMessage.answer(ask: question.ask, .failed(.cannotAsk(prompt: "", reason: reason))), to: id)
                return
            }
            let prompt = question.makePrompt()
            connections[id]?.questions[question.ask] = prompt
            Task { @MainActor in
                let ending = await presenter.ask(prompt, timeout: nil)
                // Not withdrawn meanwhile, nor its connection closed: the child waits for it.
                guard connections[id]?.questions.removeValue(forKey: question.ask) != nil else { return }
                inbox.reply(.answer(ask: question.ask, ending), to: id)
            }
        case .withdraw(let ask):
            connections[id]?.questions.removeValue(forKey: ask)?.cancel()
        case .answer:
            connections[id]?.tasks.countMalformed()
        }
    }

    private func close(_ id: Int) {
        guard var connection = connections.removeValue(forKey: id) else {
            waiting[id]?.closed = true
            return
        }
        for question in connection.questions.values { question.cancel() }
        connection.tasks.cancelOpen(on: presenter)
        let malformed = connection.tasks.malformed
        if malformed > 0 {
            let lines = malformed == 1 ? "1 line" : "\(malformed) lines"
            connection.target.mailbox.log("wait-alert: a child process wrote \(lines) that were not events; ignored")
        }
    }
}

/// The messages from the reader thread to the main actor, and the main actor's answers to new
/// connections.
///
/// The reader thread sleeps in `poll` until a descriptor has something for it, with no timeout:
/// the main actor wakes it through a pipe when it answers a connection, and when what it applied
/// lets reading go on (the waiting batches fall below ``ChildProcessReports/pendingLimit``). A
/// program that reports nothing costs no wake-up.
private final class Inbox: Sendable {
    private let state = Mutex<
        (messages: [ChildProcessReports.Message], draining: Bool, decisions: [Int: Bool], replies: [(Int, [UInt8])])
    >(([], false, [:], []))
    /// Batches handed over and not applied yet.
    let pending = Atomic<Int>(0)
    nonisolated(unsafe) weak var reports: ChildProcessReports?
    /// The pipe that wakes the reader thread: it polls the read end.
    let wakeRead: Int32
    private let wakeWrite: Int32

    init?() {
        guard let (read, write) = Platform.nonBlockingPipe() else { return nil }
        (wakeRead, wakeWrite) = (read, write)
    }

    /// Wakes the reader thread from `poll`. A full pipe already wakes it.
    private func wakeReader() {
        var byte = UInt8(1)
        _ = write(wakeWrite, &byte, 1)
    }

    /// Hands `message` to the main actor (which applies the messages in the order they came).
    func send(_ message: ChildProcessReports.Message) {
        pending.add(1, ordering: .relaxed)
        let startsDrain = state.withLock { state -> Bool in
            state.messages.append(message)
            defer { state.draining = true }
            return !state.draining
        }
        guard startsDrain else { return }
        Task { @MainActor [weak self] in self?.reports?.drain() }
    }

    /// The messages waiting, taken.
    func take() -> [ChildProcessReports.Message] {
        let messages = state.withLock { state in
            state.draining = false
            defer { state.messages = [] }
            return state.messages
        }
        let (before, after) = pending.subtract(messages.count, ordering: .sequentiallyConsistent)
        // The reader stopped reading at the limit and sleeps until woken. It drains the pipe
        // before it reads `pending` again, so it sees this count or is woken by this byte.
        if before >= ChildProcessReports.pendingLimit, after < ChildProcessReports.pendingLimit { wakeReader() }
        return messages
    }

    func decide(_ connection: Int, accepted: Bool) {
        state.withLock { $0.decisions[connection] = accepted }
        wakeReader()
    }

    func takeDecisions() -> [Int: Bool] {
        state.withLock { state in
            defer { state.decisions = [:] }
            return state.decisions
        }
    }

    /// Sends `message` to a connection (the reader thread writes it).
    func reply(_ message: PromptMessage, to connection: Int) {
        let line = Array((message.jsonLine + "\n").utf8)
        state.withLock { $0.replies.append((connection, line)) }
        wakeReader()
    }

    func takeReplies() -> [(Int, [UInt8])] {
        state.withLock { state in
            defer { state.replies = [] }
            return state.replies
        }
    }
}

/// The thread that accepts connections and reads their lines. It alone opens, reads, writes and
/// closes their descriptors.
private final class Reader: @unchecked Sendable {
    private let listener: Int32
    private let inbox: Inbox
    private var next = 0
    private var connections: [Int: Peer] = [:]
    /// While the process has no descriptor left for a new connection: when to try accepting
    /// again. The waiting connection keeps the listener readable, so polling it meanwhile would
    /// spin.
    private var acceptAgainAt: ContinuousClock.Instant?

    private struct Peer {
        var descriptor: Int32
        var partial: [UInt8] = []
        /// Whether the current line passed the length limit (the rest of it is skipped).
        var overlong = false
        /// Whether the greeting was sent (lines read before it are handed over all the same: a
        /// script may write without waiting for it).
        var isAccepted = false
    }

    init(listener: Int32, inbox: Inbox) {
        self.listener = listener
        self.inbox = inbox
    }

    func run() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var woken = false
        while true {
            // The wake-up bytes go first: what woke the thread is read after them.
            if woken { Platform.discardPending(inbox.wakeRead) }
            for (connection, accepted) in inbox.takeDecisions() {
                guard var peer = connections[connection] else { continue }
                guard accepted, EventSocket.send(EventSocket.greeting, on: peer.descriptor) else {
                    drop(connection)
                    continue
                }
                peer.isAccepted = true
                connections[connection] = peer
            }
            for (connection, line) in inbox.takeReplies() {
                guard let peer = connections[connection] else { continue }
                if !EventSocket.send(line, on: peer.descriptor) { drop(connection) }
            }
            let reading = inbox.pending.load(ordering: .sequentiallyConsistent) < ChildProcessReports.pendingLimit
            let watched = reading ? connections.keys.sorted() : []
            var timeout: Int32 = -1
            if let again = acceptAgainAt {
                let left = again - .now
                if left <= .zero {
                    acceptAgainAt = nil
                } else {
                    timeout = Int32(clamping: Int((left / .milliseconds(1)).rounded(.up)))
                }
            }
            var requests = [
                pollfd(fd: inbox.wakeRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: acceptAgainAt == nil ? listener : -1, events: Int16(POLLIN), revents: 0),
            ]
            requests += watched.map { pollfd(fd: connections[$0]!.descriptor, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&requests, nfds_t(requests.count), timeout)
            guard ready > 0 else { continue }
            woken = requests[0].revents != 0
            if requests[1].revents != 0 { accept() }
            for (index, connection) in watched.enumerated() where requests[index + 2].revents != 0 {
                read(connection, into: &buffer)
            }
        }
    }

    private func accept() {
        while true {
            let descriptor = systemAccept(listener)
            guard descriptor >= 0 else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    acceptAgainAt = .now + .milliseconds(100)
                }
                return
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            next += 1
            connections[next] = Peer(descriptor: descriptor)
            inbox.send(.opened(next))
        }
    }

    private func read(_ connection: Int, into buffer: inout [UInt8]) {
        guard var peer = connections[connection] else { return }
        let count = buffer.withUnsafeMutableBytes { recv(peer.descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return }
        guard count > 0 else {
            drop(connection)
            return
        }
        var events: [WaitAlertEvent.Received?] = []
        var start = 0
        for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
            if peer.overlong {
                peer.overlong = false
            } else {
                let line = String(decoding: peer.partial + buffer[start..<index], as: UTF8.self)
                if let message = PromptMessage.read(line) {
                    // In order with the events around it.
                    if !events.isEmpty { inbox.send(.lines(connection, events)) }
                    events = []
                    inbox.send(.prompt(connection, message))
                } else {
                    events.append(WaitAlertEvent.received(line))
                }
            }
            peer.partial = []
            start = index + 1
        }
        if !peer.overlong {
            peer.partial += buffer[start..<count]
            if peer.partial.count > ChildProcessReports.lineLimit {
                peer.partial = []
                peer.overlong = true
                events.append(nil)
            }
        }
        connections[connection] = peer
        if !events.isEmpty { inbox.send(.lines(connection, events)) }
    }

    /// Closes a connection; the main actor ends what it left open.
    private func drop(_ connection: Int) {
        guard let peer = connections.removeValue(forKey: connection) else { return }
        close(peer.descriptor)
        inbox.send(.closed(connection))
    }
}

/// The C library's `accept`, which ``Reader``'s own method shadows inside it.
private func systemAccept(_ listener: Int32) -> Int32 { accept(listener, nil, nil) }

/// The C library's `close`, which ``ChildProcessReports``'s own method shadows inside it.
private func systemClose(_ descriptor: Int32) { close(descriptor) }

import Dispatch
import Synchronization

/// Reports from the processes a program starts, shown as child tasks of its alerts: the listening
/// end of `WAIT_ALERT_SOCKET`.
///
/// The first alert of a presenter whose overlay draws on standard error makes the socket and
/// exports its path to the processes the program starts from then on; it is removed when the
/// program exits. Each connection reports under one alert, its *target*:
///
/// - the row its first line names (`{"event":"attach","parent":…}`, from `WAIT_ALERT_PARENT`, a
///   ``ParentChain``), or the nearest one above it that still runs; when the chain names the
///   latest alert of a stream in which none has begun yet (a process started just before the
///   alert it belongs under), it waits up to 1.5 s for it. When every alert of the chain that
///   this program knows has ended, the connection is closed and the child draws for itself;
/// - otherwise (no chain, or none this program knows) this program's own alert (not a row
///   another process reports) that began last and still runs, waiting up to 400 ms for one to
///   begin; with none, the connection is closed.
///
/// Its lines are read off the main actor and applied there in order, like a reporter's calls:
///
/// - `start` begins a child task of the target (or of the connection's own task `parent`);
/// - `text`, `progress` and `log` go to the connection's task `id`, or without an `id` to the
///   target;
/// - `end` ends the connection's task `id` (a connection never ends the target).
///
/// Ids belong to their connection: a child cannot reach another's tasks. Only processes of this
/// user are accepted. Texts are shown like
/// any text (sanitized where a terminal draws them) and cut at 4,096 characters. A line that is
/// not an event is dropped and counted, and the count is logged once when the connection closes;
/// a line longer than 64 KiB is dropped too. At most ``ReportedTasks/openTaskLimit`` tasks of a connection are
/// open at once. A connection that closes with tasks open ends them as cancelled. Reading stops
/// while the main actor has ``pendingLimit`` batches to apply, so a flooding child waits on its
/// socket instead of growing the program's memory; the display never waits for a child.
///
/// When its target ends while it is still connected — after waiting up to a second for it to
/// close, for an alert of this program — a connection is let go: shut down, so the child's
/// writes fail from then on, what it sent before is read and applied, and its open tasks leave
/// the display without a trace. The child then attaches again, under the nearest alert of its
/// chain that still runs, or draws its alerts itself.
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
    /// How many times, 50 ms apart, a connection is decided again while it waits for an alert:
    /// one its chain names (1.5 s), or any alert (400 ms).
    static let chainAttempts = 30
    static let fallbackAttempts = 8

    /// Starts serving `presenter`'s alerts to child processes, unless this process already does.
    static func serve(_ presenter: WaitAlertPresenter) {
        guard !tried else { return }
        tried = true
        guard let listener = EventSocket.listen() else { return }
        guard let inbox = Inbox() else {
            Platform.close(listener.descriptor)
            listener.remove()
            return
        }
        Platform.setEnvironment(EventSocket.variable, listener.path)
        // The processes it starts go under its alert that began last, unless told otherwise.
        Platform.setEnvironment(EventSocket.parentVariable, ParentChain([.init(key: listener.key, id: 0)]).text)
        ProcessExit.add(.restore) { listener.remove() }
        let reports = ChildProcessReports(presenter: presenter, key: listener.key, inbox: inbox)
        serving = reports
        isServing.store(true, ordering: .relaxed)
        let reader = Reader(listener: listener.descriptor, inbox: reports.inbox)
        DispatchQueue(label: "WaitAlert.ChildProcessReports").async { reader.run() }
    }

    /// An alert of the served presenter began: a chain naming the program's latest alert
    /// (`KEY.0`) no longer waits for one.
    static func ownAlertBegan() {
        serving?.ownAlertBegan = true
    }

    private let presenter: WaitAlertPresenter
    /// The key naming this program's own alerts in a chain.
    private let key: String
    fileprivate let inbox: Inbox
    private var connections: [Int: Connection] = [:]
    /// The connections by the key naming their tasks in a chain.
    private var byKey: [String: Int] = [:]
    private var ownAlertBegan = false
    /// The alerts ending once the connections under them are let go: no connection goes under them.
    private var ending: Set<WaitAlertID> = []

    /// Whether a connection may go under `alert`: it runs, and is not ending.
    private func takes(_ alert: AlertSession) -> Bool {
        guard alert.isRunning else { return false }
        var current: AlertSession? = alert
        while let session = current {
            if ending.contains(session.id) { return false }
            current = session.parent
        }
        return true
    }

    /// This program's own alert (not a row another process reports) that began last and still
    /// runs, if it takes connections.
    private func latestOwnAlert() -> AlertSession? {
        let reported = Set(connections.values.flatMap { $0.tasks?.open.values.map(\.id) ?? [] })
        guard let alert = presenter.sessionForChildProcesses(excluding: reported) else { return nil }
        return takes(alert) ? alert : nil
    }

    /// A connection's state on the main actor.
    private struct Connection {
        /// The key naming its tasks in a chain (given in the answer to its `attach`).
        let key = ParentChain.makeKey()
        var phase = Phase.deciding
        /// Its tasks, under its target, once decided.
        var tasks: ReportedTasks?
        /// Lines that came while it was being decided.
        var held: [WaitAlertEvent.Received?] = []
        var closed = false
        /// Whether its first line was an `attach` (it is then answered), and the chain it named.
        var attached = false
        var chain: ParentChain?
        /// How many times it was decided; whether it is to be decided again.
        var attempts = 0
        var retrying = false
        /// Its questions being asked, by its numbers.
        var questions: [UInt64: WaitAlertPrompt] = [:]

        /// Whether it reports under `session` or an alert under it.
        func reports(under session: AlertSession) -> Bool {
            guard phase == .reporting, let target = tasks?.target else { return false }
            var current: AlertSession? = target
            while let alert = current {
                if alert === session { return true }
                current = alert.parent
            }
            return false
        }
    }

    private enum Phase {
        /// Waiting for its target.
        case deciding
        case reporting
        /// Shut down: what it sent before is being read.
        case lettingGo
    }

    /// Waits, when connections report under `session` or an alert under it, until they have
    /// closed and what they sent is applied — at most a second: a process that ended (the usual
    /// case) has its last lines shown before the alert it reported into ends. Connections still
    /// open then are let go (their tasks leave the display; the child goes on showing them).
    static func settle(_ session: AlertSession) async {
        guard let serving, serving.reports(under: session) else { return }
        await pause(upTo: .seconds(1)) { serving.reports(under: session) }
        let lettingGo = serving.connections.filter { $0.value.reports(under: session) }.map(\.key)
        guard !lettingGo.isEmpty else { return }
        // A child let go attaches again at once: never under the alert that is ending.
        serving.ending.insert(session.id)
        defer { serving.ending.remove(session.id) }
        lettingGo.forEach(serving.letGo)
        await pause(upTo: .milliseconds(500)) { lettingGo.contains { serving.connections[$0] != nil } }
    }

    /// Waits while `holds`, at most `limit`.
    ///
    /// A pause the alert's cancellation does not cut short: a cancelled task's `Task.sleep`
    /// returns at once, which would spin here, and Ctrl-C is when a child's last lines matter most.
    private static func pause(upTo limit: Duration, while holds: () -> Bool) async {
        let deadline = ContinuousClock.now + limit
        while holds(), ContinuousClock.now < deadline {
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { resumed.resume() }
            }
        }
    }

    /// Whether a connection being decided, or one reporting, reports under `session`.
    private func reports(under session: AlertSession) -> Bool {
        connections.values.contains { $0.phase == .deciding || $0.reports(under: session) }
    }

    private init(presenter: WaitAlertPresenter, key: String, inbox: Inbox) {
        self.presenter = presenter
        self.key = key
        self.inbox = inbox
        inbox.reports = self
    }

    /// What the reader thread hands the main actor, in order.
    fileprivate enum Message: Sendable {
        /// A connection was accepted: the main actor decides whether it has a target.
        case opened(Int)
        /// The connection's first line attaches it under the rows of `chain` (none: it only
        /// asks for the answer, which carries its key).
        case attach(Int, ParentChain?)
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
            case .opened(let id):
                let connection = Connection()
                connections[id] = connection
                byKey[connection.key] = id
                decide(id)
            case .attach(let id, let chain): attach(id, under: chain)
            case .lines(let id, let events): apply(events, on: id)
            case .prompt(let id, let message): apply(message, on: id)
            case .closed(let id): close(id)
            }
        }
        letGoOfOrphans()
    }

    private func attach(_ id: Int, under chain: ParentChain?) {
        guard var connection = connections[id], connection.phase != .lettingGo else { return }
        // The first line: nothing was applied yet, so the connection is decided again.
        connection.attached = true
        connection.chain = chain
        connection.phase = .deciding
        connection.tasks = nil
        connection.attempts = 0
        connections[id] = connection
        if !connection.retrying { decide(id) }
    }

    /// Where a chain leads.
    private enum Resolution {
        case row(AlertSession)
        /// The latest alert of a stream in which none has begun yet.
        case wait
        /// Every alert it names that this program knows has ended.
        case ended
        /// It names nothing this program knows.
        case unknown
    }

    /// The nearest alert of `chain` that still runs.
    private func resolve(_ chain: ParentChain, patient: Bool) -> Resolution {
        var known = false
        for link in chain.links {
            if link.key == key {
                known = true
                if link.id == 0 {
                    if let alert = latestOwnAlert() { return .row(alert) }
                    if patient, !ownAlertBegan { return .wait }
                } else if let alert = presenter.session(WaitAlertID(rawValue: link.id)), takes(alert),
                    alert.timeline.kind == .waitAlert
                {
                    return .row(alert)
                }
            } else if let id = byKey[link.key], let connection = connections[id], connection.phase == .reporting,
                let tasks = connection.tasks
            {
                known = true
                if let task = tasks.running(link.id), takes(task) { return .row(task) }
                if link.id == 0, patient, !tasks.began { return .wait }
            }
        }
        return known ? .ended : .unknown
    }

    /// Finds `id`'s target, or waits for one (50 ms at a time), or turns it away.
    private func decide(_ id: Int) {
        guard var connection = connections[id], connection.phase == .deciding else { return }
        connection.retrying = false
        connection.attempts += 1
        connections[id] = connection
        let resolution = connection.chain.map { resolve($0, patient: connection.attempts <= Self.chainAttempts) }
        switch resolution ?? .unknown {
        case .row(let target): accept(id, under: target)
        case .wait: retry(id)
        case .ended: reject(id)
        case .unknown:
            if let target = latestOwnAlert() {
                accept(id, under: target)
            } else if connection.attempts <= Self.fallbackAttempts, !connection.closed {
                retry(id)
            } else {
                reject(id)
            }
        }
    }

    private func retry(_ id: Int) {
        connections[id]?.retrying = true
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(50))
            self.decide(id)
        }
    }

    private func accept(_ id: Int, under target: AlertSession) {
        guard var connection = connections[id] else { return }
        connection.phase = .reporting
        connection.tasks = ReportedTasks(target: target)
        let held = connection.held
        connection.held = []
        connections[id] = connection
        inbox.decide(id, .accept(attachedKey: connection.attached ? connection.key : nil))
        apply(held, on: id)
        if connection.closed { close(id) }
    }

    private func reject(_ id: Int) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        byKey[connection.key] = nil
        inbox.decide(id, .reject)
    }

    /// Shuts `id` down: its tasks leave the display once what it sent before is applied.
    private func letGo(_ id: Int) {
        guard connections[id]?.phase == .reporting else { return }
        connections[id]?.phase = .lettingGo
        cancelQuestions(of: id)
        inbox.decide(id, .letGo)
    }

    /// Lets go of the connections whose target has ended (a child task another connection
    /// reported, a fire-and-forget alert).
    private func letGoOfOrphans() {
        for (id, connection) in connections where connection.phase == .reporting {
            if let target = connection.tasks?.target, !target.isRunning { letGo(id) }
        }
    }

    private func apply(_ events: [WaitAlertEvent.Received?], on id: Int) {
        guard var connection = connections[id] else { return }
        guard var tasks = connection.tasks else {
            connection.held += events
            connections[id] = connection
            return
        }
        for event in events { tasks.apply(event, on: presenter) }
        connection.tasks = tasks
        connections[id] = connection
    }

    /// Asks a connection's question as this program's own — it owns the terminal — and sends the
    /// answer back; or stops asking one the child withdrew.
    private func apply(_ message: PromptMessage, on id: Int) {
        switch message {
        case .ask(let question):
            guard let connection = connections[id], connection.phase == .reporting,
                connection.questions[question.ask] == nil
            else {
                let reason = "the alert it reports into has ended"
                inbox.reply(.answer(ask: question.ask, .failed(.cannotAsk(prompt: "", reason: reason))), to: id)
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
            connections[id]?.tasks?.countMalformed()
        }
    }

    /// Stops asking a connection's questions: it has gone, or is let go.
    private func cancelQuestions(of id: Int) {
        guard let questions = connections[id]?.questions.values, !questions.isEmpty else { return }
        connections[id]?.questions = [:]
        for question in questions { question.cancel() }
    }

    private func close(_ id: Int) {
        cancelQuestions(of: id)
        guard var connection = connections[id] else { return }
        guard var tasks = connection.tasks else {
            connection.closed = true
            connections[id] = connection
            return
        }
        connections[id] = nil
        byKey[connection.key] = nil
        tasks.endOpen(on: presenter, with: connection.phase == .lettingGo ? .dismissed : .cancelled)
        let malformed = tasks.malformed
        if malformed > 0, let target = tasks.target {
            let lines = malformed == 1 ? "1 line that was not an event" : "\(malformed) lines that were not events"
            target.mailbox.log("wait-alert: a child process wrote \(lines); ignored")
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
        (
            messages: [ChildProcessReports.Message], draining: Bool, decisions: [(Int, Decision)],
            replies: [(Int, [UInt8])]
        )
    >(([], false, [], []))
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
        _ = Platform.writeAll([1], to: wakeWrite, patience: 0)
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

    /// What the main actor decided about a connection, for the reader thread to carry out.
    enum Decision: Sendable {
        /// Send the greeting (once), and the answer to its `attach` with its key, if it sent one.
        case accept(attachedKey: String?)
        /// Close it: no alert it belongs under runs.
        case reject
        /// Shut it down, read what it sent before, then close it.
        case letGo
    }

    func decide(_ connection: Int, _ decision: Decision) {
        state.withLock { $0.decisions.append((connection, decision)) }
        wakeReader()
    }

    func takeDecisions() -> [(Int, Decision)] {
        state.withLock { state in
            defer { state.decisions = [] }
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
        /// Whether its first line was read (only the first may be an `attach`).
        var readFirstLine = false
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
            for (connection, decision) in inbox.takeDecisions() {
                guard var peer = connections[connection] else { continue }
                switch decision {
                case .accept(let key):
                    var answer = peer.isAccepted ? "" : EventSocket.hello
                    // It takes the child's questions (``PromptMessage``).
                    if let key { answer += "{\"v\":1,\"event\":\"attached\",\"key\":\"\(key)\",\"questions\":true}\n" }
                    guard EventSocket.send(Array(answer.utf8), on: peer.descriptor) else {
                        drop(connection)
                        continue
                    }
                    peer.isAccepted = true
                    connections[connection] = peer
                case .reject: drop(connection)
                case .letGo:
                    // The child's writes fail from now on; what it wrote before is still read.
                    Platform.shutDown(peer.descriptor)
                }
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
            let descriptors =
                [inbox.wakeRead, acceptAgainAt == nil ? listener : -1] + watched.map { connections[$0]!.descriptor }
            guard let ready = Platform.waitForInput(descriptors, milliseconds: timeout) else { continue }
            woken = ready[0]
            if ready[1] { accept() }
            for (index, connection) in watched.enumerated() where ready[index + 2] {
                read(connection, into: &buffer)
            }
        }
    }

    private func accept() {
        while true {
            let descriptor: Int32
            switch Platform.acceptConnection(on: listener) {
            case .connection(let accepted): descriptor = accepted
            case .exhausted:
                acceptAgainAt = .now + .milliseconds(100)
                return
            case .none: return
            }
            guard EventSocket.peerIsThisUser(descriptor) else {
                Platform.close(descriptor)
                continue
            }
            next += 1
            connections[next] = Peer(descriptor: descriptor)
            inbox.send(.opened(next))
        }
    }

    private func read(_ connection: Int, into buffer: inout [UInt8]) {
        guard var peer = connections[connection] else { return }
        let received = buffer.withUnsafeMutableBytes { Platform.receive(peer.descriptor, into: $0) }
        if received == .again { return }
        guard case .bytes(let count) = received else {
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
                if !peer.readFirstLine, let fields = JSONText.object(line), fields["event"]?.string == "attach" {
                    let chain = fields["parent"]?.string.map(ParentChain.init(parsing:))
                    inbox.send(.attach(connection, chain.flatMap { $0.links.isEmpty ? nil : $0 }))
                } else if let message = PromptMessage.read(line) {
                    // In order with the events around it.
                    if !events.isEmpty { inbox.send(.lines(connection, events)) }
                    events = []
                    inbox.send(.prompt(connection, message))
                } else {
                    events.append(WaitAlertEvent.received(line))
                }
            }
            peer.readFirstLine = true
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
        Platform.close(peer.descriptor)
        inbox.send(.closed(connection))
    }
}

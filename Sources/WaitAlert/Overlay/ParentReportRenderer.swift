import Dispatch

/// The output of a program started under another program's alert (`WAIT_ALERT_SOCKET`): its
/// alerts go to that program as the event stream (``WaitAlertEvent``), where they show as child
/// tasks, and nothing is drawn here.
///
/// The parent lets the connection go when the alert it reports under ends while this program
/// still runs, and it goes when the parent exits. Either way the writes fail or the connection
/// hangs up, and this program attaches again — under the nearest alert of its
/// `WAIT_ALERT_PARENT` chain that still runs — or, with none, draws its alerts itself, through
/// the renderer the overlay would have chosen without a parent. The alerts still shown start
/// again there as they are now; the log lines and endings the parent did not take come out
/// there.
@MainActor
final class ParentReportRenderer: WaitAlertRenderer, WaitAlertFrameRenderer {
    /// The connection reported to; `nil` while attaching again, and once drawing here.
    private(set) var connection: ParentConnection?
    private var stream = EventStream()
    /// Events not yet written, and log lines waiting for the instant of their batch.
    private var pending: [Pending] = []
    /// Where in ``pending`` the log lines not yet timed begin.
    private var untimed = 0
    private var latest = Duration.zero
    /// The latest snapshot of each alert shown: what starts again elsewhere. An alert gone is
    /// forgotten once its end was written.
    private var shown: [WaitAlertID: WaitAlertSnapshot] = [:]
    /// Log lines the parent did not take, while attaching again.
    private var carried: [(line: String, alert: WaitAlertID?)] = []
    /// Makes the renderer that draws here.
    private let makeLocal: @MainActor () -> any WaitAlertFrameRenderer
    /// The renderer drawing here, once no parent takes the alerts.
    private(set) var local: (any WaitAlertFrameRenderer)?
    /// Called once the renderer drawing here is made and attached.
    var onLocal: (@MainActor (any WaitAlertFrameRenderer, WaitAlertRendererContext) -> Void)?
    private var context: WaitAlertRendererContext?
    let wantsFrames: Bool

    private enum Pending {
        case event(WaitAlertEvent)
        case log(String, WaitAlertID?)
    }

    /// Makes a renderer reporting through `connection`; `makeLocal` makes the renderer that
    /// draws here when no parent takes the alerts, and `localWantsFrames` says whether it will
    /// draw spinner frames (a presenter decides once whether its alerts wake for frames).
    init(
        connection: ParentConnection, localWantsFrames: Bool,
        makeLocal: @escaping @MainActor () -> any WaitAlertFrameRenderer
    ) {
        self.connection = connection
        self.makeLocal = makeLocal
        self.wantsFrames = localWantsFrames
        watch(connection)
    }

    /// Whether the alerts go to a parent (or are about to, while attaching again).
    var reportsToParent: Bool { local == nil }

    /// An interactive renderer turns its spinners itself on the system clock: frames then wake
    /// nothing while the alerts go to the parent.
    var drawsSpinnerFramesItself: Bool {
        local?.drawsSpinnerFramesItself ?? (wantsFrames && context?.systemClockNow != nil)
    }

    func didAttach(to context: WaitAlertRendererContext) {
        self.context = context
    }

    func redrawDeadline(for alert: WaitAlertID) -> Duration? { local?.redrawDeadline(for: alert) }

    var heldBackUntil: Duration? { local?.heldBackUntil }

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        if let local { return local.render(snapshot, of: alert, at: instant) }
        shown[alert] = snapshot
        latest = max(latest, instant)
        guard connection != nil else { return }
        stamp(at: instant)
        pending += stream.apply(snapshot, of: alert, at: instant).map(Pending.event)
        untimed = pending.count
    }

    func log(_ line: String, from alert: WaitAlertID) {
        if let local { return local.log(line, from: alert) }
        if connection == nil { return carried.append((line, alert)) }
        pending.append(.log(line, alert))
    }

    func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool {
        if let local { return local.print(line, to: stream) }
        guard stream == .standardError else { return false }
        if connection == nil {
            carried.append((line, nil))
        } else {
            pending.append(.log(line, nil))
            write(at: latest)
        }
        return true
    }

    func flush(at instant: Duration) {
        if let local { return local.flush(at: instant) }
        latest = max(latest, instant)
        write(at: instant)
    }

    /// Times the log lines that came before `instant`'s renders with it (a presenter hands an
    /// alert's log lines over just before its snapshot, at the same instant).
    private func stamp(at instant: Duration) {
        for index in untimed..<pending.count {
            if case .log(let line, let alert) = pending[index] {
                pending[index] = .event(stream.log(line, from: alert, at: max(latest, instant)))
            }
        }
        untimed = pending.count
    }

    /// Writes every pending event, in one write; when the parent takes only part of it, lets
    /// the connection go with the rest.
    private func write(at instant: Duration) {
        guard let connection else { return }
        stamp(at: instant)
        guard !pending.isEmpty else { return }
        var bytes: [UInt8] = []
        var ends: [(end: Int, event: WaitAlertEvent)] = []
        for case .event(let event) in pending {
            bytes += (event.jsonLine + "\n").utf8
            ends.append((bytes.count, event))
        }
        pending.removeAll(keepingCapacity: true)
        untimed = 0
        let sent = connection.sent(bytes)
        guard sent == bytes.count else {
            // A line the parent did not take whole was not applied: its log lines come out
            // where the alerts go next; the rest is in the snapshots that start again there.
            for (end, event) in ends where end > sent {
                if case .log(let line) = event.kind { carried.append((line, event.alert)) }
            }
            return lostParent()
        }
        shown = shown.filter { $0.value.phase != .gone }
    }

    /// Watches `connection` for the parent hanging up, which a program with nothing to write
    /// would otherwise notice only at its next write.
    private func watch(_ connection: ParentConnection) {
        let watched = ObjectIdentifier(connection)
        connection.watchHangUp { [weak self] in
            Task { @MainActor in
                guard let self, let current = self.connection, ObjectIdentifier(current) == watched else { return }
                self.write(at: self.latest)
                if self.connection != nil { self.lostParent() }
            }
        }
    }

    /// The parent let the connection go or has gone: attaches again off the main actor (the
    /// listener may wait for the alert the chain names), then shows the alerts there or here.
    private func lostParent() {
        connection = nil
        pending.removeAll()
        untimed = 0
        DispatchQueue.global().async {
            let connection = TerminalSession.process.connectToParent()
            Task { @MainActor in self.attached(connection) }
        }
    }

    private func attached(_ connection: ParentConnection?) {
        let alerts = shown.sorted { $0.key < $1.key }
        let lines = carried
        carried = []
        guard let connection else { return drawHere(alerts, lines) }
        self.connection = connection
        stream = EventStream()
        for (alert, snapshot) in alerts {
            pending += stream.apply(snapshot, of: alert, at: latest).map(Pending.event)
        }
        pending += lines.map { .event(stream.log($0.line, from: $0.alert, at: latest)) }
        untimed = pending.count
        watch(connection)
        write(at: latest)
    }

    /// No parent takes the alerts: the renderer made here draws them from now on.
    private func drawHere(
        _ alerts: [(key: WaitAlertID, value: WaitAlertSnapshot)], _ lines: [(line: String, alert: WaitAlertID?)]
    ) {
        let local = makeLocal()
        self.local = local
        shown = [:]
        if let context {
            local.didAttach(to: context)
            onLocal?(local, context)
        }
        for (alert, snapshot) in alerts { local.render(snapshot, of: alert, at: latest) }
        for (line, alert) in lines {
            if let alert { local.log(line, from: alert) } else { _ = local.print(line, to: .standardError) }
        }
        local.flush(at: latest)
    }
}

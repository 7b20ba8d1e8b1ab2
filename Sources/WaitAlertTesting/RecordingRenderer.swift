public import WaitAlert

/// A renderer that records everything it is given, for assertions in tests.
///
/// ```swift
/// let recorder = RecordingRenderer()
/// let presenter = WaitAlertPresenter(renderers: [recorder], clock: clock)
/// // …
/// #expect(recorder.texts == ["Doing Something", "Getting there…", "Done"])
/// ```
///
/// ``texts``, ``snapshots`` and ``logs`` cover every alert, child tasks' rows included, in the
/// order they came. To check one alert, find it by its title with ``alert(titled:)`` and ask for
/// its own with ``texts(of:)``, ``snapshots(of:)`` and ``logs(of:)``:
///
/// ```swift
/// let build = try #require(recorder.alert(titled: "Building"))
/// #expect(recorder.texts(of: build) == ["Building", "Built"])
/// ```
@MainActor
public final class RecordingRenderer: WaitAlertRenderer, WaitAlertFrameRenderer {
    /// One thing the renderer was given.
    public enum Event: Sendable, Hashable {
        /// A new snapshot of an alert.
        case snapshot(WaitAlertSnapshot, of: WaitAlertID)
        /// A log line printed on behalf of an alert.
        case log(String, from: WaitAlertID)
        /// A line the program printed around the alerts (`WaitAlertPresenter.print(_:to:)`).
        case printed(String, to: WaitAlertOutputStream)
        /// The alerts were taken off the screen (`WaitAlertPresenter.withAlertsSuspended(_:)`).
        case suspended
        /// The alerts came back.
        case resumed
    }

    /// Everything given so far, in order.
    public private(set) var events: [Event] = []
    /// The instant of each of ``events`` on the presenter's clock: a snapshot's own, and for the
    /// others the clock's time when they came.
    package private(set) var instants: [Duration] = []
    /// The presenter's clock, once attached.
    private var now: (@Sendable () -> Duration)?
    /// Whether alerts also wake for every spinner frame.
    public let wantsFrames: Bool
    private var waiters: [(condition: (Event) -> Bool, continuation: CheckedContinuation<Event, Never>)] = []

    /// Makes a recorder; with `wantsFrames`, alerts also wake for every spinner frame.
    public init(wantsFrames: Bool = false) {
        self.wantsFrames = wantsFrames
    }

    package func didAttach(to context: WaitAlertRendererContext) {
        now = context.now
    }

    public func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        record(.snapshot(snapshot, of: alert), at: instant)
    }

    public func log(_ line: String, from alert: WaitAlertID) {
        record(.log(line, from: alert))
    }

    /// Records the line; it is not written anywhere.
    public func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool {
        record(.printed(line, to: stream))
        return true
    }

    public func suspend() {
        record(.suspended)
    }

    public func resume() {
        record(.resumed)
    }

    /// Every line printed around the alerts, in order.
    public var printed: [String] {
        events.compactMap { if case .printed(let line, _) = $0 { line } else { nil } }
    }

    /// Every snapshot, of every alert, in order.
    public var snapshots: [WaitAlertSnapshot] {
        events.compactMap { if case .snapshot(let snapshot, _) = $0 { snapshot } else { nil } }
    }

    /// The latest snapshot of any alert.
    public var latest: WaitAlertSnapshot? { snapshots.last }

    /// The distinct texts shown, in order (consecutive repeats collapsed), excluding hidden phases:
    /// of every alert, child tasks' rows included. ``texts(of:)`` gives one alert's.
    public var texts: [String] {
        Self.distinctTexts(of: snapshots)
    }

    /// Every alert recorded, each once, in the order of its first snapshot: top-level alerts and
    /// child tasks alike (a child task's snapshots name its `parent`).
    public var alerts: [WaitAlertID] {
        var seen: Set<WaitAlertID> = []
        return events.compactMap { event in
            guard case .snapshot(_, let alert) = event, seen.insert(alert).inserted else { return nil }
            return alert
        }
    }

    /// The first alert recorded whose title is `title`: the text it began with (`withWaitAlert`'s
    /// title, a child task's title, a toast's text), whatever it shows now or showed since.
    ///
    /// ```swift
    /// let importing = try #require(bed.recorder.alert(titled: "Importing…"))
    /// #expect(bed.recorder.logs(of: importing) == ["imported a.json", "imported b.json"])
    /// ```
    public func alert(titled title: String) -> WaitAlertID? {
        var seen: Set<WaitAlertID> = []
        for case .snapshot(let snapshot, let alert) in events where seen.insert(alert).inserted {
            if snapshot.text == title { return alert }
        }
        return nil
    }

    /// Every snapshot of `alert`, in order (its child tasks' not included).
    public func snapshots(of alert: WaitAlertID) -> [WaitAlertSnapshot] {
        events.compactMap { if case .snapshot(let snapshot, alert) = $0 { snapshot } else { nil } }
    }

    /// The distinct texts `alert` showed, in order (consecutive repeats collapsed), excluding hidden
    /// phases: ``texts`` for one alert, without its child tasks' rows. Its final message is its
    /// last text.
    public func texts(of alert: WaitAlertID) -> [String] {
        Self.distinctTexts(of: snapshots(of: alert))
    }

    /// The final message `alert` ended with (`"Imported"`, `"Importing: disk full"`), or `nil`
    /// while it has not ended. Shown or not: with `.immediate` timing the final
    /// message does not linger, so it is not among ``texts(of:)``.
    public func finalText(of alert: WaitAlertID) -> String? {
        snapshots(of: alert).last { $0.finalText != nil }?.finalText
    }

    /// The log lines printed on behalf of `alert`, in order (its child tasks' not included).
    public func logs(of alert: WaitAlertID) -> [String] {
        events.compactMap { if case .log(let line, alert) = $0 { line } else { nil } }
    }

    private static func distinctTexts(of snapshots: [WaitAlertSnapshot]) -> [String] {
        snapshots.filter(\.isOnScreen).map(\.text).reduce(into: []) { texts, text in
            if texts.last != text { texts.append(text) }
        }
    }

    /// The phases gone through, in order (consecutive repeats collapsed).
    public var phases: [WaitAlertPhase] {
        snapshots.map(\.phase).reduce(into: []) { phases, phase in
            if phases.last != phase { phases.append(phase) }
        }
    }

    /// Every log line, in order.
    public var logs: [String] {
        events.compactMap { if case .log(let line, _) = $0 { line } else { nil } }
    }

    /// The first snapshot that satisfies `condition`: one already recorded, or else the next one.
    public func snapshot(where condition: @escaping (WaitAlertSnapshot) -> Bool = { _ in true }) async
        -> WaitAlertSnapshot
    {
        if let recorded = snapshots.first(where: condition) { return recorded }
        return await nextSnapshot(where: condition)
    }

    /// Waits for the next snapshot that satisfies `condition` (one already recorded does not count).
    public func nextSnapshot(where condition: @escaping (WaitAlertSnapshot) -> Bool = { _ in true }) async
        -> WaitAlertSnapshot
    {
        let event = await nextEvent {
            if case .snapshot(let snapshot, _) = $0 { condition(snapshot) } else { false }
        }
        guard case .snapshot(let snapshot, _) = event else { preconditionFailure("unreachable") }
        return snapshot
    }

    /// Waits for the next event that satisfies `condition`.
    public func nextEvent(where condition: @escaping (Event) -> Bool) async -> Event {
        await withCheckedContinuation { waiters.append((condition, $0)) }
    }

    /// Forgets everything recorded so far.
    public func reset() {
        events = []
        instants = []
    }

    private func record(_ event: Event, at instant: Duration? = nil) {
        events.append(event)
        instants.append(instant ?? now?() ?? instants.last ?? .zero)
        let ready = waiters.filter { $0.condition(event) }
        waiters.removeAll { $0.condition(event) }
        ready.forEach { $0.continuation.resume(returning: event) }
    }
}

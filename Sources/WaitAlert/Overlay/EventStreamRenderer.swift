/// Writes what alerts do as a stream of events, one line of JSON each (NDJSON): for CI systems,
/// IDEs and programs that read a tool's progress (see ``WaitAlertEvent`` for the schema).
///
/// Every alert and child task starts, changes text, reports progress, logs and ends as one line
/// each, also when it ends within its grace delay; nothing is drawn, no escape byte is written,
/// and nothing waits for a frame: the lines of a batch of changes go out in one write when the
/// batch ends. Progress events come at most once a frame per alert (the presenter coalesces
/// reports). Lines the program prints on standard error through the presenter
/// (``WaitAlertPresenter/print(_:to:)``) become `log` events without an `id`, so the stream stays
/// JSON; standard output is left alone. A question the program asks (``askText(_:message:default:placeholder:secret:maximumLength:validate:timeout:onTimeout:presenter:)``
/// and the others) is a `question` event when it is asked, and its answer a `log` line.
///
/// `WAIT_ALERT_PROGRESS=json` makes ``TerminalOverlay`` (so the shared presenter) write this stream
/// to standard error; in code:
///
/// ```swift
/// WaitAlertPresenter.shared = WaitAlertPresenter(
///     renderers: [EventStreamRenderer(terminal: WaitAlertStandardError.shared)],
///     timing: .terminal
/// )
/// ```
@MainActor
public final class EventStreamRenderer: WaitAlertRenderer, WaitAlertFrameRenderer {
    /// Where the stream goes.
    package let terminal: any WaitAlertTerminal
    private var stream = EventStream()
    /// Events not yet written, and log lines waiting for the instant of their batch.
    private var pending: [Pending] = []
    /// Where in ``pending`` the log lines not yet timed begin.
    private var untimed = 0
    private var latest = Duration.zero
    /// Set once the terminal refused a write (a closed pipe): nothing more is written.
    private var closed = false
    /// The presenter's clock, for a question asked between renders.
    private var now: (@Sendable () -> Duration)?
    /// The wall clock, read once: when the stream began (its first line says so); `nil` for a
    /// stream that does not say.
    private let wallClock: () -> Double?
    /// Whether the first event was written.
    private var wroteFirst = false

    private enum Pending {
        case event(WaitAlertEvent)
        case log(String, WaitAlertID?)
    }

    /// Makes a renderer writing the stream to `terminal`.
    public convenience init(terminal: any WaitAlertTerminal) {
        self.init(terminal: terminal, wallClock: { Platform.wallClockSeconds() })
    }

    /// Makes a renderer writing the stream to `terminal`, reading the time its stream began from
    /// `wallClock` (which may say nothing: a test's stream is the same in every run).
    package init(terminal: any WaitAlertTerminal, wallClock: @escaping () -> Double?) {
        self.terminal = terminal
        self.wallClock = wallClock
    }

    package var wantsFrames: Bool { false }

    package func didAttach(to context: WaitAlertRendererContext) {
        now = context.now
    }

    public func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        stamp(at: instant)
        pending += stream.apply(snapshot, of: alert, at: instant).map(Pending.event)
        untimed = pending.count
    }

    public func log(_ line: String, from alert: WaitAlertID) {
        pending.append(.log(line, alert))
    }

    public func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool {
        guard stream == .standardError else { return false }
        pending.append(.log(line, nil))
        write(at: max(now?() ?? latest, latest))
        return true
    }

    package func flush(at instant: Duration) {
        write(at: instant)
    }

    /// Tells the stream that `prompt` is asked, at once: a `question` event.
    package func asking(_ prompt: WaitAlertPrompt) {
        let instant = max(now?() ?? latest, latest)
        stamp(at: instant)
        pending.append(.event(stream.question(Self.question(prompt), at: instant)))
        untimed = pending.count
        write(at: instant)
    }

    /// What the stream says of `prompt`.
    static func question(_ prompt: WaitAlertPrompt) -> WaitAlertEvent.Question {
        switch prompt {
        case .text(let model):
            return WaitAlertEvent.Question(
                title: model.title, message: model.message, kind: .text, defaultAnswer: model.defaultText,
                isSecret: model.isSecret)
        case .choice(let model):
            return WaitAlertEvent.Question(
                title: model.title, message: model.message,
                kind: model.style == .confirmation ? .confirmation : .choice, buttons: model.buttons.map(\.title),
                defaultAnswer: model.defaultIndex.map { model.buttons[$0].title })
        }
    }

    /// Times the log lines that came before `instant`'s renders with it (a presenter hands an
    /// alert's log lines over just before its snapshot, at the same instant).
    private func stamp(at instant: Duration) {
        latest = max(latest, instant)
        for index in untimed..<pending.count {
            if case .log(let line, let alert) = pending[index] {
                pending[index] = .event(stream.log(line, from: alert, at: latest))
            }
        }
        untimed = pending.count
    }

    /// Writes every pending event, in one write. On the terminal where a question waits for its
    /// line (the stream read by someone at a terminal), the events go below the question, and it
    /// is asked again after them: each stays a line of its own.
    private func write(at instant: Duration) {
        stamp(at: instant)
        guard !pending.isEmpty else { return }
        var bytes: [UInt8] = []
        for case .event(var event) in pending {
            if !wroteFirst {
                // The first line says when the stream began on the wall clock: now, less the
                // time since then.
                wroteFirst = true
                let (seconds, attoseconds) = event.time.components
                event.began = wallClock().map { $0 - (Double(seconds) + Double(attoseconds) / 1e18) }
            }
            bytes += (event.jsonLine + "\n").utf8
        }
        pending.removeAll(keepingCapacity: true)
        untimed = 0
        guard !closed else { return }
        if let question = StandardInputPrompt.questionOnLine, terminal.isInteractive {
            bytes = Array("\n".utf8) + bytes + Array(question.utf8)
        }
        if !terminal.write(bytes) { closed = true }
    }
}

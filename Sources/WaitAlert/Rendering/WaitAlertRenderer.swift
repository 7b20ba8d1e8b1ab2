/// Draws wait alerts somewhere: a terminal, a log, a view, a test recorder.
///
/// A presenter calls its renderers on the main actor, in order, with every new snapshot of every
/// alert and every log line. Snapshots of one alert arrive in time order and end with one whose
/// phase is `.gone`; a renderer draws each as it comes. Everything else is optional: a renderer
/// may ask to draw an alert again at an instant of its choosing, print lines for the program,
/// give the terminal back for a while, and ask questions.
///
/// ```swift
/// @MainActor
/// final class TranscriptRenderer: WaitAlertRenderer {
///     private(set) var lines: [String] = []
///     private var shown: [WaitAlertID: String] = [:]
///
///     func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
///         guard snapshot.isOnScreen, shown[alert] != snapshot.text else { return }
///         shown[alert] = snapshot.text
///         lines.append(snapshot.text)
///     }
///
///     func log(_ line: String, from alert: WaitAlertID) {
///         lines.append(line)
///     }
/// }
/// ```
@MainActor
public protocol WaitAlertRenderer: AnyObject {
    /// Draws `snapshot`, the look of `alert` at `instant` (on the presenter's clock).
    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration)

    /// Prints `line` above the alerts, on behalf of `alert`.
    func log(_ line: String, from alert: WaitAlertID)

    /// The next instant at which the renderer wants `alert` drawn again even if its snapshot has
    /// not changed (to print a text it held back, to count a second), or `nil` (the default).
    func redrawDeadline(for alert: WaitAlertID) -> Duration?

    /// Prints `line`, for the program rather than for one alert, above the alerts it shows on
    /// `stream`; returns whether it did. Every renderer is offered the line; when none prints it
    /// (a renderer that shows nothing on that stream now returns `false`, the default), the
    /// presenter writes it to the stream itself.
    func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool

    /// Takes the alerts off the screen (and gives the terminal back) until a matching
    /// ``resume()``, so the program can use the terminal itself: prompt, read a line. Calls
    /// nest. What is reported meanwhile shows at the resume.
    func suspend()

    /// Shows the alerts again after ``suspend()``.
    func resume()

    /// Starts asking `prompt` (a terminal reads the keyboard) and returns `true`, or returns
    /// `false` (the default) when the renderer cannot ask. The renderer ends the prompt through
    /// its model (`submit`, `choose`, `cancel`); the presenter offers a prompt to its renderers
    /// in order and stops at the first that asks it.
    func present(_ prompt: WaitAlertPrompt) -> Bool
}

/// A renderer that takes part in the presenter's frame and batch machinery: it animates (the
/// presenter wakes for its spinner frames, or it turns them itself), gathers a batch of calls and
/// draws them at once, and may cancel the work (Ctrl-C). The terminal overlay and the test
/// recorder are such renderers; a renderer written against the public protocol is drawn to on
/// every change instead.
@MainActor
package protocol WaitAlertFrameRenderer: WaitAlertRenderer {
    /// Whether the renderer draws spinner frames and animation steps. When no renderer of a
    /// presenter wants frames, its alerts wake only for changes of phase, text and progress.
    var wantsFrames: Bool { get }

    /// Whether the renderer turns the spinner frames of the alerts it shows by itself, off the
    /// main actor (a frame is a function of time). Read once the renderer is attached. When every
    /// renderer that draws frames does, a visible alert wakes the main actor only for changes of
    /// text, phase and progress, and for the redraws renderers ask for.
    var drawsSpinnerFramesItself: Bool { get }

    /// Called once when a presenter starts using the renderer, with what the renderer may ask of
    /// it.
    func didAttach(to context: WaitAlertRendererContext)

    /// Ends a batch of `render` and `log` calls made at `instant`: the moment to draw what they
    /// changed, in one write.
    func flush(at instant: Duration)

    /// When the changes a flush held back are due (the renderer draws some changes at most once
    /// a frame), or `nil`: the presenter flushes again then.
    var heldBackUntil: Duration? { get }

    /// Whether the processes the program starts should report into the alerts this renderer
    /// shows (``WaitAlertEvent``s through `WAIT_ALERT_SOCKET`): a terminal overlay on standard
    /// error says so.
    var servesChildProcesses: Bool { get }
}

extension WaitAlertFrameRenderer {
    package var drawsSpinnerFramesItself: Bool { false }
    package func didAttach(to context: WaitAlertRendererContext) {}
    package func flush(at instant: Duration) {}
    package var heldBackUntil: Duration? { nil }
    package var servesChildProcesses: Bool { false }
}

/// The stream a line printed around the alerts goes to.
public enum WaitAlertOutputStream: Sendable, Hashable {
    case standardOutput
    case standardError
}

/// What a frame renderer may ask of the presenter that draws through it.
package struct WaitAlertRendererContext: Sendable {
    /// Cancels the work of every alert of the presenter; returns whether there was any (a terminal
    /// renderer's Ctrl-C).
    package var cancelAllWork: @MainActor @Sendable () -> Bool

    /// Says whether this renderer draws the spinner frames of an alert (`true` for every alert
    /// until it says otherwise). A renderer that shows only some of its alerts — a terminal
    /// region with more rows than lines — turns the others off; an alert that no renderer
    /// animates wakes only for changes of phase and text, so frames cost what is on screen, not
    /// what runs.
    package var setDrawsFrames: @MainActor @Sendable (_ alert: WaitAlertID, _ draws: Bool) -> Void

    /// The presenter's clock (the time since its origin, as in ``WaitAlertRenderer/render(_:of:at:)``)
    /// when it is the system's monotonic clock, readable from any thread; `nil` under another
    /// clock (a test's manual clock), where frames come only through `render`.
    package var systemClockNow: (@Sendable () -> Duration)?

    /// The presenter's clock, whatever it is: the instant of what happens between renders (a
    /// question asked).
    package var now: (@Sendable () -> Duration)?

    /// Tells the presenter that the renderer's ``WaitAlertFrameRenderer/heldBackUntil`` changed
    /// outside a batch (a signal, a key): the presenter schedules its flush for it again.
    package var deadlineChanged: @MainActor @Sendable () -> Void = {}

    package init(
        cancelAllWork: @escaping @MainActor @Sendable () -> Bool,
        setDrawsFrames: @escaping @MainActor @Sendable (_ alert: WaitAlertID, _ draws: Bool) -> Void = { _, _ in },
        systemClockNow: (@Sendable () -> Duration)? = nil, now: (@Sendable () -> Duration)? = nil,
        deadlineChanged: @escaping @MainActor @Sendable () -> Void = {}
    ) {
        self.cancelAllWork = cancelAllWork
        self.setDrawsFrames = setDrawsFrames
        self.systemClockNow = systemClockNow
        self.now = now
        self.deadlineChanged = deadlineChanged
    }
}

extension WaitAlertRenderer {
    public func redrawDeadline(for alert: WaitAlertID) -> Duration? { nil }
    public func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool { false }
    public func suspend() {}
    public func resume() {}
    public func present(_ prompt: WaitAlertPrompt) -> Bool { false }

    /// The renderer's part in frames and batches, if it takes one.
    var frames: (any WaitAlertFrameRenderer)? { self as? any WaitAlertFrameRenderer }
}

/// Draws wait alerts somewhere: a terminal, a log, a test recorder.
///
/// A presenter calls its renderers on the main actor, in order, with every new snapshot of every
/// alert and every log line. Snapshots of one alert arrive in time order and end with one whose
/// phase is `.gone`.
@MainActor
public protocol WaitAlertRenderer: AnyObject {
    /// Whether the renderer draws spinner frames and animation steps.
    ///
    /// When no renderer of a presenter wants frames, its alerts wake only for changes of phase
    /// and text, never for animation.
    var wantsFrames: Bool { get }

    /// Draws `snapshot`, the look of `alert` at `instant` (on the presenter's clock).
    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration)

    /// The next instant at which the renderer wants `alert` drawn again even if its snapshot has
    /// not changed (to print a text it held back), or `nil`.
    func redrawDeadline(for alert: WaitAlertID) -> Duration?

    /// Prints `line` above the alerts, on behalf of `alert`.
    func log(_ line: String, from alert: WaitAlertID)

    /// Called once when a presenter starts using the renderer, with what the renderer may ask of
    /// it.
    func didAttach(to context: WaitAlertRendererContext)
}

/// What a renderer may ask of the presenter that draws through it.
public struct WaitAlertRendererContext: Sendable {
    /// Cancels the work of every alert of the presenter; returns whether there was any (a terminal
    /// renderer's Ctrl-C).
    public var cancelAllWork: @MainActor @Sendable () -> Bool

    /// Makes a context.
    public init(cancelAllWork: @escaping @MainActor @Sendable () -> Bool) {
        self.cancelAllWork = cancelAllWork
    }
}

extension WaitAlertRenderer {
    public func didAttach(to context: WaitAlertRendererContext) {}
    public func redrawDeadline(for alert: WaitAlertID) -> Duration? { nil }
}

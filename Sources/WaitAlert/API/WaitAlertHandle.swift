/// A handle on an alert shown with ``showWaitAlert(_:timing:presenter:)``: the classic
/// `[alert show]` style, for code that is not structured around one piece of work.
///
/// Update it from anywhere, then end it with ``succeed(_:)``, ``fail(_:)`` or ``dismiss()``; the
/// first ending wins and later calls are ignored. The alert keeps itself alive until it has
/// faded out.
///
/// **An ending is on screen when the call returns.** Called on the main actor, `succeed`, `fail`,
/// `cancel` and `dismiss` apply the ending before returning, so a persistent final line is
/// printed (on the terminal, or in the pipe) even if the program exits on the next line. From
/// another thread the ending reaches the main actor shortly after; if the program exits from the
/// main actor before that, the exit applies it first.
///
/// **A handle dropped unfinished dismisses its alert.** When the last copy of a handle goes away
/// before any ending, the alert fades out at once with no final message, and its completion
/// reports ``WaitAlertOutcome/dismissed``. An alert can never spin forever because its owner
/// forgot it.
///
/// ```swift
/// let alert = showWaitAlert("Syncing…")
/// alert.update("Really…")
/// alert.succeed("Synced")
/// ```
public struct WaitAlertHandle: Sendable {
    /// What keeps the alert: the last copy of the handle (or a sequence reporting to it) that
    /// goes away dismisses it.
    @usableFromInline let owner: Owner
    /// The alert's model, to observe it or await its completion.
    public let model: WaitAlertModel

    init(session: AlertSession) {
        self.owner = Owner(mailbox: session.mailbox)
        self.model = session.model
    }

    /// Replaces the alert's text. Bursts are coalesced: the latest text wins.
    public func update(_ text: String) { owner.mailbox.update(text) }

    /// Prints `line` above the alert.
    ///
    /// Bounded like ``WaitAlertReporter/log(_:)``: past ``WaitAlertReporter/logBacklogLimit``
    /// bytes waiting, it waits (or, on the main actor, prints them on the spot).
    public func log(_ line: String) { owner.mailbox.log(line) }

    /// Says how far the work has gone: `completed` of `total` units (`nil`: not known yet), as
    /// ``WaitAlertReporter/progress(completed:total:unit:)`` does.
    @inlinable
    public func progress(completed: Int, total: Int?, unit: WaitAlertProgressUnit? = nil) {
        owner.mailbox.progress(completed: completed, total: total, unit: unit)
    }

    /// Adds `units` to the count done and `totalBy` to the total, as
    /// ``WaitAlertReporter/advance(by:totalBy:)`` does.
    @inlinable
    public func advance(by units: Int = 1, totalBy: Int = 0) {
        owner.mailbox.advance(by: units, growingTotalBy: totalBy)
    }

    /// Stops showing progress: the alert spins without a bar until progress is reported again.
    public func progressUnknown() { owner.mailbox.indeterminate() }

    /// Marks the work as failing while it goes on, or, with `false`, no longer: see
    /// ``WaitAlertReporter/markFailing(_:)``.
    public func markFailing(_ failing: Bool = true) { owner.mailbox.failing(failing) }

    /// Ends the alert as a success showing `text` (`nil`: the title without its ellipsis).
    public func succeed(_ text: String? = nil) { end(.success(text)) }

    /// Ends the alert as a failure showing `text`.
    public func fail(_ text: String) { end(.failure(text)) }

    /// Ends the alert as cancelled.
    public func cancel() { end(.cancelled) }

    /// Removes the alert at once: it fades out, skipping every minimum.
    public func dismiss() { end(.dismissed) }

    /// Ends the alert with a warning: `⚠ Synced with 2 conflicts (3.0s)`.
    public func warn(_ text: String) { end(.warning(text)) }

    /// Ends the alert with information: `ℹ Already up to date`.
    public func inform(_ text: String) { end(.info(text)) }

    /// The most bytes of log lines that ever waited for the main actor at once.
    package var logBacklogHighWater: Int { owner.mailbox.logBacklogHighWater }

    /// Records the ending and wakes the alert's session; on the main actor, also applies it
    /// before returning.
    private func end(_ outcome: WaitAlertOutcome) {
        owner.mailbox.finish(outcome)
        owner.mailbox.applyNowIfOnMainActor()
    }

    /// Dismisses the alert when the last copy of its handle is dropped.
    @usableFromInline
    final class Owner: Sendable {
        @usableFromInline let mailbox: ReportMailbox
        init(mailbox: ReportMailbox) { self.mailbox = mailbox }
        deinit { mailbox.finish(.dismissed) }
    }
}

/// Shows a wait alert and returns a handle to update and end it.
///
/// - Parameters:
///   - title: the first text shown.
///   - timing: the alert's timing; `nil` uses the presenter's.
///   - presenter: where the alert appears; `nil` uses ``WaitAlertPresenter/current``.
@MainActor
public func showWaitAlert(
    _ title: String,
    timing: WaitAlertTiming? = nil,
    presenter: WaitAlertPresenter? = nil
) -> WaitAlertHandle {
    WaitAlertHandle(session: (presenter ?? .current).beginTopLevel(title, timing: timing))
}

/// Shows a toast: `text` with no spinner, for its reading time, then faded out.
///
/// - Parameters:
///   - text: the text shown.
///   - timing: the toast's timing; `nil` uses ``WaitAlertTiming/toast``.
///   - presenter: where the toast appears; `nil` uses ``WaitAlertPresenter/current``.
/// - Returns: the toast's model, to observe it or await its completion.
@MainActor
@discardableResult
public func showToast(
    _ text: String,
    timing: WaitAlertTiming? = nil,
    presenter: WaitAlertPresenter? = nil
) -> WaitAlertModel {
    let presenter = presenter ?? .current
    let session = presenter.begin(text, timing: timing ?? .toast, kind: .toast)
    _ = presenter.end(session, with: .success(text))
    return session.model
}

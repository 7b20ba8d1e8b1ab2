/// A handle on an alert shown with ``showWaitAlert(_:timing:presenter:)``: the classic
/// `[alert show]` style, for code that is not structured around one piece of work.
///
/// Update it from anywhere, then end it with ``succeed(_:)``, ``fail(_:)`` or ``dismiss()``; the
/// first ending wins and later calls are ignored. The alert keeps itself alive until it has
/// faded out.
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
    private let owner: Owner
    /// The alert's model, to observe it or await its completion.
    public let model: WaitAlertModel

    init(driver: WaitAlertDriver) {
        self.owner = Owner(mailbox: driver.mailbox)
        self.model = driver.model
    }

    /// Replaces the alert's text. Bursts are coalesced: the latest text wins.
    public func update(_ text: String) { owner.mailbox.update(text) }

    /// Prints `line` above the alert.
    public func log(_ line: String) { owner.mailbox.log(line) }

    /// Ends the alert as a success showing `text` (`nil`: the title without its ellipsis).
    public func succeed(_ text: String? = nil) { owner.mailbox.finish(.success(text)) }

    /// Ends the alert as a failure showing `text`.
    public func fail(_ text: String) { owner.mailbox.finish(.failure(text)) }

    /// Ends the alert as cancelled.
    public func cancel() { owner.mailbox.finish(.cancelled) }

    /// Removes the alert at once: it fades out, skipping every minimum.
    public func dismiss() { owner.mailbox.finish(.dismissed) }

    /// Dismisses the alert when the last copy of its handle is dropped.
    private final class Owner: Sendable {
        let mailbox: ReportMailbox
        init(mailbox: ReportMailbox) { self.mailbox = mailbox }
        deinit { mailbox.finish(.dismissed) }
    }
}

/// Shows a wait alert and returns a handle to update and end it.
///
/// - Parameters:
///   - title: the first text shown.
///   - timing: the alert's timing; `nil` uses the presenter's.
///   - presenter: where the alert appears; `nil` uses ``WaitAlertPresenter/shared``.
@MainActor
public func showWaitAlert(
    _ title: String,
    timing: WaitAlertTiming? = nil,
    presenter: WaitAlertPresenter? = nil
) -> WaitAlertHandle {
    WaitAlertHandle(driver: (presenter ?? .shared).begin(title, timing: timing))
}

/// Shows a toast: `text` with no spinner, for its reading time, then faded out.
///
/// - Parameters:
///   - text: the text shown.
///   - timing: the toast's timing; `nil` uses ``WaitAlertTiming/toast``.
///   - presenter: where the toast appears; `nil` uses ``WaitAlertPresenter/shared``.
/// - Returns: the toast's model, to observe it or await its completion.
@MainActor
@discardableResult
public func showToast(
    _ text: String,
    timing: WaitAlertTiming? = nil,
    presenter: WaitAlertPresenter? = nil
) -> WaitAlertModel {
    let driver = (presenter ?? .shared).begin(text, timing: timing ?? .toast, kind: .toast)
    driver.finish(.success(text))
    return driver.model
}

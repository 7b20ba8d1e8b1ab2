import Synchronization

/// Runs `operation` while a wait alert shows its progress, and returns its value.
///
/// Nothing appears if the work ends within the grace delay. Otherwise the alert pops in, follows
/// the texts the work reports, and shows a final message when it ends. The value is returned —
/// and an error rethrown — as soon as the work ends: lingering and fading go on by themselves.
///
/// ```swift
/// let picture = try await withWaitAlert("Uploading picture…") { alert in
///     alert.update("Getting there…")
///     let result = try await upload()
///     alert.update("Just about there…")
///     return result
/// }
/// ```
///
/// The final message says which alert it was. By default: the title without its ellipsis on
/// success ("✔ Uploading picture (2.1s)"), the title and the error's description on failure
/// ("✖ Uploading picture: the server said no"), and "Uploading picture: cancelled after 1.2s" or
/// "…: timed out after 30.0s" otherwise. Compute your own from the result:
///
/// ```swift
/// let files = try await withWaitAlert(
///     "Fetching files…",
///     success: { files in "Fetched \(files.count) files" },
///     failure: { error in "Could not fetch the files: \(error)" }
/// ) { _ in try await fetchFiles() }
/// ```
///
/// - The work runs in a task of its own that inherits the caller's actor, priority and task-local
///   values, and `withWaitAlert` always awaits it. Called from the main actor, work that ends
///   without suspending costs no thread hop at all; but **synchronous, CPU-bound work in the
///   closure then blocks the main actor**, and with it the spinner and Ctrl-C. Put such work in a
///   `@concurrent` (or nonisolated `async`) function and await it from the closure.
/// - Cancelling the calling task cancels the work — at once, even work that has not suspended
///   yet, so a CPU-bound loop that checks `Task.isCancelled` stops; the alert ends as cancelled, and a
///   `CancellationError` thrown by the work is rethrown as it is, never shown as a failure.
/// - An error thrown by the work ends the alert as a failure, and is rethrown unchanged.
/// - With a timeout (`timeout:`, or the timing's), the work is cancelled when it elapses, the alert ends as
///   timed out, and ``WaitAlertTimeoutError`` is thrown once the work has returned, whatever it
///   returned or threw while being cancelled. Work that ended before the deadline is never
///   reported as timed out, even when its result reaches the main actor after it. Log lines the
///   work reports after the timeout, while it winds down, are still printed.
///
/// - Parameters:
///   - title: the first text shown.
///   - success: the final text on success, made from the value; `nil` shows the title without its
///     trailing ellipsis.
///   - failure: the final text on failure, made from the error; `nil` shows the title and the
///     error's description.
///   - timeout: cancels the work after this long and ends the alert as timed out; `nil` keeps
///     the timing's (none by default).
///   - timing: the alert's timing; `nil` uses the presenter's.
///   - presenter: where the alert appears; `nil` uses ``WaitAlertPresenter/current``.
///   - isolation: the caller's actor, where the work starts; filled in by the compiler.
///   - operation: the work, given a reporter to update the text and print log lines.
/// - Returns: what `operation` returned.
/// - Throws: what `operation` threw, ``WaitAlertTimeoutError``, or ``WaitAlertConfigurationError``
///   (before the work starts) when `timeout` is not positive or too long.
@discardableResult
public func withWaitAlert<Value: Sendable>(
    _ title: String,
    success: ((Value) -> String)? = nil,
    failure: ((any Error) -> String)? = nil,
    timeout: Duration? = nil,
    timing: WaitAlertTiming? = nil,
    presenter: WaitAlertPresenter? = nil,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext operation: sending @escaping @isolated(any) (WaitAlertReporter) async throws -> Value
) async throws -> Value {
    let mailbox = ReportMailbox()
    let cancellation = WorkCancellation()
    let (presenter, session) = try await beginAlert(
        title, timeout: timeout, timing: timing, presenter: presenter, mailbox: mailbox, cancellation: cancellation)
    let reporter = WaitAlertReporter(mailbox: mailbox, parent: AlertParent(presenter: presenter, session: session))
    return try await runAlert(
        title, success: success, failure: failure, presenter: presenter, session: session, mailbox: mailbox,
        reporter: reporter, cancellation: cancellation, isolation: isolation, operation: operation)
}

/// Runs `operation` while a wait alert shows its progress, ending with the fixed text `success`.
///
/// The same as ``withWaitAlert(_:success:failure:timeout:timing:presenter:isolation:operation:)`` with
/// `success: { _ in success }`.
///
/// ```swift
/// try await withWaitAlert("Doing Something", success: "Done") { alert in try await work(alert) }
/// ```
@discardableResult
public func withWaitAlert<Value: Sendable>(
    _ title: String,
    success: String,
    timeout: Duration? = nil,
    timing: WaitAlertTiming? = nil,
    presenter: WaitAlertPresenter? = nil,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext operation: sending @escaping @isolated(any) (WaitAlertReporter) async throws -> Value
) async throws -> Value {
    try await withWaitAlert(
        title, success: { _ in success }, failure: nil, timeout: timeout, timing: timing, presenter: presenter,
        isolation: isolation, operation: operation)
}

/// Begins an alert on `presenter` (the current one if `nil`) that drains `mailbox`, with
/// `timeout` (if given) in place of the timing's.
@MainActor
private func beginAlert(
    _ title: String, timeout: Duration?, timing: WaitAlertTiming?, presenter: WaitAlertPresenter?,
    mailbox: ReportMailbox, cancellation: WorkCancellation
) throws(WaitAlertConfigurationError) -> (WaitAlertPresenter, AlertSession) {
    let presenter = presenter ?? .current
    // Without a timing of its own, the alert shares the presenter's (one object for all).
    var timing = timing
    if let timeout { timing = try (timing ?? presenter.timing).withTimeout(timeout) }
    // A signal that cancelled earlier work no longer counts once new work begins on its own.
    if !presenter.hasAlerts { TerminalSession.process.forgetCancellingSignal() }
    let session = presenter.beginTopLevel(title, timing: timing, mailbox: mailbox)
    session.attach(cancel: cancellation.cancel)
    cancellation.whenRequested(mailbox.cancelling)
    return (presenter, session)
}

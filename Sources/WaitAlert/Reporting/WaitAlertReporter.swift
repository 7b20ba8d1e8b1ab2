/// Reports progress to a running wait alert, from any task or thread, at any rate.
///
/// A reporter is a cheap `Sendable` value: copy it into child tasks freely. Calls take effect in
/// the order they were made. Texts are coalesced — the latest wins and each shown text stays
/// readable — while log lines are printed above the alert, every one, in order. Calls made after
/// the work has ended are ignored.
///
/// ```swift
/// try await withWaitAlert("Importing…") { alert in
///     for file in files {
///         alert.update("Importing \(file.name)…")
///         try await importFile(file)
///         alert.log("imported \(file.name)")
///     }
/// }
/// ```
public struct WaitAlertReporter: Sendable {
    @usableFromInline let mailbox: ReportMailbox

    /// Replaces the alert's text. Bursts are coalesced: the latest text wins.
    @inlinable
    public func update(_ text: String) {
        mailbox.update(text)
    }

    /// Prints `line` above the alert. Never coalesced, dropped or reordered.
    @inlinable
    public func log(_ line: String) {
        mailbox.log(line)
    }
}

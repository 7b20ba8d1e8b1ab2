/// How a command-line program ends after an error its wait alerts have already shown.
///
/// A wait alert that ends with an error says so in its final line (`✖ Hashing: disk full`,
/// `⚠ Hashing: cancelled after 2.0s`). A program that then prints the error again — as
/// swift-argument-parser does with `Error: …` for any error `run()` throws — says it twice, and
/// Ctrl-C ends it with status 1 instead of 130. Ask ``status(for:)`` instead:
///
/// ```swift
/// @main
/// struct Hash: AsyncParsableCommand {
///     func run() async throws {
///         do {
///             try await hashFiles()  // calls withWaitAlert
///         } catch {
///             // Shown already: exit with its status, without printing it again.
///             if let status = WaitAlertExit.status(for: error) { throw ExitCode(status) }
///             throw error
///         }
///     }
/// }
/// ```
///
/// Without swift-argument-parser, `exit(WaitAlertExit.status(for: error) ?? 1)` after printing
/// the error only when the status is `nil`. The article <doc:CommandLineTools> has the whole
/// pattern, and `Examples/ArgumentParserTool` a tool built on it.
public enum WaitAlertExit {
    /// The status to exit with after `error`, when a wait alert has already shown it; `nil` when
    /// no alert has, so the program must still report it.
    ///
    /// - 130 (128 + the signal's number) when Ctrl-C cancelled the work — or `SIGTERM`/`SIGHUP`
    ///   under ``TerminalOverlay/ProcessIntegration/cancelsOnTermination`` — whatever the work
    ///   threw while winding down, as a shell reports a program a signal ended; 130 too for the
    ///   `CancellationError` of a question (``confirm(_:message:default:timeout:onTimeout:presenter:)``
    ///   and the others) the user cancelled in the terminal with Ctrl-C or Escape;
    /// - 124 for ``WaitAlertTimeoutError`` (as `timeout(1)` and `wait-alert --timeout` do);
    /// - 1 for any other error an alert ended with: its failure line showed it (or the
    ///   cancellation line, for a `CancellationError` that no signal caused).
    ///
    /// An alert showed an error when it ended with it — failed, timed out or cancelled — on a
    /// presenter with a renderer; a question cancelled with Escape or Ctrl-C showed its
    /// `CancellationError` too. Errors are matched by type and description, so an error thrown
    /// again unchanged, or as an equal value, counts as shown; the signal is the one that
    /// cancelled the work it ended, if any (a signal counts until the next alert begins with no
    /// other showing).
    public static func status(for error: any Error) -> Int32? {
        guard let signal = ShownErrors.signal(for: error) else { return nil }
        if signal != 0 { return 128 + signal }
        return error is WaitAlertTimeoutError ? 124 : 1
    }
}

/// What becomes of the standard output of a command run under an alert with
/// ``WaitAlertReporter/run(_:output:environment:workingDirectory:keeping:)``: shown, for people,
/// or collected, for the program.
///
/// ```swift
/// try await alert.run("tar", "-c", "-v", "-f", archive, "-C", folder, ".")  // shown
/// let tags = try await alert.run("git", "tag", "--list", output: .collected).standardOutput
/// ```
///
/// Its standard error is shown either way. Neither is ever written to the program's own standard
/// output or error: a tool's results stay its own.
public struct WaitAlertCommandOutput: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case shown
        case collected(limit: Int)
    }

    let kind: Kind

    /// With its standard error, in the order written: the latest line is the alert's text, and
    /// the last lines are kept — printed above the final line when the command fails, and in
    /// ``WaitAlertCommandResult/lastLines``. The default.
    public static let shown = WaitAlertCommandOutput(kind: .shown)

    /// Kept whole and returned as ``WaitAlertCommandResult/standardOutput``, never shown: for a
    /// command whose output is a result (`git describe`, a listing, JSON). At most 16 MiB.
    public static let collected = collected(limit: 16 << 20)

    /// Like ``collected``, with at most `limit` bytes kept: a command that writes more is stopped
    /// and ``WaitAlertCommandError/Reason/outputOverLimit(_:)`` thrown. A limit below zero counts
    /// as zero.
    public static func collected(limit: Int) -> WaitAlertCommandOutput {
        WaitAlertCommandOutput(kind: .collected(limit: max(limit, 0)))
    }

    public var description: String {
        switch kind {
        case .shown: "shown"
        case .collected(let limit): "collected (at most \(limit) bytes)"
        }
    }
}

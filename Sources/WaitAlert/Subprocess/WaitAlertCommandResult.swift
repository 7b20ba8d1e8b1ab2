/// What a command run under an alert with
/// ``WaitAlertReporter/run(_:output:environment:workingDirectory:keeping:)`` left once it
/// succeeded.
public struct WaitAlertCommandResult: Sendable, Hashable {
    /// Its standard output as written, with ``WaitAlertCommandOutput/collected``; empty when it
    /// was shown.
    public var standardOutputBytes: [UInt8]
    /// The last lines it showed (its standard error, and its standard output when shown), oldest
    /// first, without their line ends: at most as many as `run` was asked to keep.
    public var lastLines: [String]

    public init(standardOutputBytes: [UInt8] = [], lastLines: [String] = []) {
        self.standardOutputBytes = standardOutputBytes
        self.lastLines = lastLines
    }

    /// ``standardOutputBytes`` decoded as UTF-8 (an invalid sequence becomes U+FFFD), exactly as
    /// written: a final line end included.
    ///
    /// ```swift
    /// let tags = try await alert.run("git", "tag", "--list", output: .collected).standardOutput
    /// for tag in tags.split(separator: "\n") { alert.log("found \(tag)") }
    /// ```
    public var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }
}

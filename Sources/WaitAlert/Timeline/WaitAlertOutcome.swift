/// How a wait alert ended.
public enum WaitAlertOutcome: Sendable, Hashable {
    /// The work succeeded. The text is the final message; `nil` means the alert's title, without a
    /// trailing ellipsis ("Uploading…" ends as "Uploading").
    case success(String?)
    /// The work failed; the text (usually the error's description) is the final message.
    case failure(String)
    /// The work was cancelled; the final message is "Cancelled".
    case cancelled
    /// The work ran past the timing's timeout and was cancelled; the final message is "Timed out".
    case timedOut
    /// The alert was dismissed at once, with no final message.
    case dismissed

    /// The text shown while the alert lingers, or `nil` for an alert dismissed at once.
    public var finalText: String? {
        switch self {
        case .success(let text): text
        case .failure(let text): text
        case .cancelled: "Cancelled"
        case .timedOut: "Timed out"
        case .dismissed: nil
        }
    }

    /// The same outcome with a `nil` success text replaced by `title`, minus a trailing ellipsis.
    func resolved(title: String) -> WaitAlertOutcome {
        guard case .success(nil) = self else { return self }
        var text = Substring(title)
        for suffix in ["…", "..."] where text.hasSuffix(suffix) {
            text = text.dropLast(suffix.count)
        }
        return .success(String(text))
    }
}

/// What a finished alert reports once it has been removed.
public struct WaitAlertCompletion: Sendable, Hashable {
    /// How the alert ended.
    public var outcome: WaitAlertOutcome
    /// Whether anything was ever visible (`false` when the work ended within the grace delay).
    public var wasShown: Bool
    /// How long the work ran, from the alert's beginning to its finish.
    public var workDuration: Duration

    /// Makes a completion.
    public init(outcome: WaitAlertOutcome, wasShown: Bool, workDuration: Duration) {
        self.outcome = outcome
        self.wasShown = wasShown
        self.workDuration = workDuration
    }
}

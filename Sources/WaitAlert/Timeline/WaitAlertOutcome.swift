/// How a wait alert ended.
public enum WaitAlertOutcome: Sendable, Hashable {
    /// The work succeeded. The text is the final message; `nil` means the alert's title, without a
    /// trailing ellipsis ("Uploading…" ends as "Uploading").
    case success(String?)
    /// The work failed; the text is the final message, shown as given.
    ///
    /// `withWaitAlert` makes it from the thrown error and the alert's title
    /// ("Fetching files: could not fetch x.json") unless its `failure:` closure says otherwise.
    case failure(String)
    /// The work was cancelled; the final message names the alert and how long it ran
    /// ("Fetching files: cancelled after 3.1s").
    case cancelled
    /// The work ran past the timing's timeout and was cancelled; the final message names the alert
    /// and how long it ran ("Fetching files: timed out after 30.0s").
    case timedOut
    /// The alert was dismissed at once, with no final message.
    case dismissed
    /// The work was skipped (``WaitAlertReporter/skip(_:)``), for the reason given, if any
    /// ("Testing: skipped (no test target)").
    case skipped(String?)
    /// The work completed, with something to look at; the text is the final message, shown as
    /// given (an empty one: the alert's title): `⚠ Migrated with 3 warnings (4.5s)`
    /// (``WaitAlertReporter/warn(_:)``).
    case warning(String)
    /// The work had nothing to say but this; the text is the final message, shown as given (an
    /// empty one: the alert's title): `ℹ Nothing to do` (``WaitAlertReporter/inform(_:)``).
    case info(String)

    /// The final message of an alert titled `title` whose work ran for `workDuration`, or `nil` for
    /// an alert dismissed at once.
    ///
    /// ```swift
    /// WaitAlertOutcome.cancelled.finalText(title: "Fetching files…", workDuration: .seconds(3.1))
    /// // "Fetching files: cancelled after 3.1s"
    /// ```
    public func finalText(title: String, workDuration: Duration) -> String? {
        let name = Self.name(fromTitle: title)
        let after = DurationFormat.seconds(workDuration)
        switch self {
        case .success(let text): return text ?? name
        case .failure(let text): return text
        case .warning(let text), .info(let text): return text.isEmpty ? name : text
        case .cancelled: return name.isEmpty ? "Cancelled after \(after)" : "\(name): cancelled after \(after)"
        case .timedOut: return name.isEmpty ? "Timed out after \(after)" : "\(name): timed out after \(after)"
        case .dismissed: return nil
        case .skipped(let reason):
            let skipped = name.isEmpty ? "Skipped" : "\(name): skipped"
            return reason.map { "\(skipped) (\($0))" } ?? skipped
        }
    }

    /// An alert's title as the name of what ran: without a trailing ellipsis or spaces.
    ///
    /// `"Fetching files…"` and `"Fetching files..."` both give `"Fetching files"`.
    public static func name(fromTitle title: String) -> String {
        // Most titles end in a letter: nothing to take off, and no grapheme to look at.
        if let last = title.utf8.last, last < 0x80, last != UInt8(ascii: "."), last != 0x20,
            !(0x09...0x0D).contains(last)
        {
            return title
        }
        var text = Substring(title)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        for suffix in ["…", "..."] where text.hasSuffix(suffix) {
            text = text.dropLast(suffix.count)
        }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }

    /// The same outcome with a `nil` success text replaced by the title's name.
    func resolved(title: String) -> WaitAlertOutcome {
        guard case .success(nil) = self else { return self }
        return .success(Self.name(fromTitle: title))
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

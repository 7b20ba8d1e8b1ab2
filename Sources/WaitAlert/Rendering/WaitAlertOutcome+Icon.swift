extension WaitAlertOutcome {
    /// The icon a renderer shows before the final text: `✔`, `✖` or `⚠`; `nil` when dismissed.
    var icon: String? {
        switch self {
        case .success: "✔"
        case .failure: "✖"
        case .cancelled, .timedOut: "⚠"
        case .dismissed: nil
        }
    }
}

/// What an ended alert leaves behind, as one line: its icon, its final text, how long its work
/// ran, and its tone.
///
/// One pure function of a snapshot, used by every renderer that prints an ending: `✔ Done (4.5s)`,
/// `✖ Fetching files: could not fetch x.json`, `⚠ Fetching files: cancelled after 3.1s`,
/// `⚠ Migrated with 3 warnings (4.5s)`, `ℹ Nothing to do`. A toast
/// leaves its text alone; an alert dismissed at once leaves nothing.
struct FinalLine: Hashable {
    /// How the line is coloured where colours are on.
    enum Tone: Hashable {
        case success, failure, warning, info, neutral
    }

    /// `✔`, `✖`, `⚠` (a warning, a cancellation or a timeout), `ℹ` (information) or `↷`
    /// (skipped); `nil` for a toast.
    var icon: String?
    /// The final text.
    var text: String
    /// How long the work ran, shown after a success: `4.5s`.
    var elapsed: String?
    var tone: Tone

    /// The final line of `snapshot`, or `nil` when the alert has not ended or leaves no text.
    static func of(_ snapshot: WaitAlertSnapshot) -> FinalLine? {
        guard let outcome = snapshot.outcome, let text = snapshot.finalText else { return nil }
        guard snapshot.kind == .waitAlert else { return FinalLine(icon: nil, text: text, elapsed: nil, tone: .neutral) }
        switch outcome {
        case .success:
            let elapsed = snapshot.workDuration.map(DurationFormat.seconds)
            return FinalLine(icon: "✔", text: text, elapsed: elapsed, tone: .success)
        case .warning:
            let elapsed = snapshot.workDuration.map(DurationFormat.seconds)
            return FinalLine(icon: "⚠", text: text, elapsed: elapsed, tone: .warning)
        case .info: return FinalLine(icon: "ℹ", text: text, elapsed: nil, tone: .info)
        case .failure: return FinalLine(icon: "✖", text: text, elapsed: nil, tone: .failure)
        case .cancelled, .timedOut: return FinalLine(icon: "⚠", text: text, elapsed: nil, tone: .warning)
        case .dismissed: return nil
        case .skipped: return FinalLine(icon: "↷", text: text, elapsed: nil, tone: .neutral)
        }
    }

    /// The text after the icon: the final text, then the elapsed time in parentheses.
    var body: String { elapsed.map { "\(text) (\($0))" } ?? text }

    /// The whole line without any style: `✔ Done (4.5s)`.
    var plain: String { icon.map { "\($0) \(body)" } ?? body }
}

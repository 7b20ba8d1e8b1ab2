/// Draws alerts as plain lines, without a single escape byte: for pipes, files, CI logs and
/// `TERM=dumb`.
///
/// It prints a line when an alert first appears, a line per distinct text at most once every
/// ``minimumInterval`` (latest wins, so a busy alert never floods a log), every log line, and the
/// final outcome — also for an alert that finished within its grace delay and was never shown,
/// so the record of what happened is never lost.
@MainActor
public final class LineRenderer: WaitAlertRenderer {
    /// The shortest time between two progress lines of one alert.
    public let minimumInterval: Duration
    private let terminal: any WaitAlertTerminal
    private var printed: [WaitAlertID: (text: String, at: Duration)] = [:]

    /// Makes a renderer writing to `terminal`.
    public init(terminal: any WaitAlertTerminal, minimumInterval: Duration = .seconds(1)) {
        self.terminal = terminal
        self.minimumInterval = minimumInterval
    }

    public var wantsFrames: Bool { false }

    public func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID) {
        switch snapshot.phase {
        case .pending:
            return
        case .appearing, .visible:
            guard snapshot.kind == .waitAlert else { return }
            if let last = printed[alert] {
                guard last.text != snapshot.text, snapshot.textSince - last.at >= minimumInterval else { return }
            }
            printed[alert] = (snapshot.text, snapshot.textSince)
            emit(snapshot.text)
        case .lingering, .fading, .gone:
            guard printed[alert]?.text != Self.finishedMark else { return }
            printed[alert] = (Self.finishedMark, snapshot.textSince)
            emit(Self.finalLine(for: snapshot))
        }
        if snapshot.phase == .gone { printed[alert] = nil }
    }

    public func log(_ line: String, from alert: WaitAlertID) {
        emit(line)
    }

    private static let finishedMark = "\u{0}finished"

    /// The plain final line of a finished alert: `✔ Done (4.5s)`, `✖ reason`, `⚠ Cancelled`.
    static func finalLine(for snapshot: WaitAlertSnapshot) -> String {
        let text = snapshot.outcome?.finalText ?? snapshot.text
        guard snapshot.kind == .waitAlert else { return text }
        switch snapshot.outcome {
        case .success:
            let seconds = snapshot.workDuration.map { " (\(DurationFormat.seconds($0)))" } ?? ""
            return "✔ \(text)\(seconds)"
        case .failure: return "✖ \(text)"
        case .cancelled, .timedOut: return "⚠ \(text)"
        case .dismissed, nil: return text
        }
    }

    private func emit(_ line: String) {
        for part in TextSanitizer.logLines(line) {
            terminal.write(Array((part + "\n").utf8))
        }
    }
}

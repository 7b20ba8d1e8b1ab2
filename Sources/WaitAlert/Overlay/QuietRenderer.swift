/// Shows nothing of the alerts but what went wrong: the final line of each alert or child task
/// that failed or timed out (`✖ Fetching files: could not fetch x.json`), as a plain line. For
/// `WAIT_ALERT_PROGRESS=off`: a quiet run that still says why it failed.
///
/// Log lines are not shown; lines the program prints through the presenter are, as usual.
@MainActor
final class QuietRenderer: WaitAlertRenderer, WaitAlertFrameRenderer {
    private let terminal: any WaitAlertTerminal
    /// The alerts whose ending was looked at, until they are gone.
    private var ended: Set<WaitAlertID> = []

    init(terminal: any WaitAlertTerminal) {
        self.terminal = terminal
    }

    var wantsFrames: Bool { false }

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        // An alert that ended within its grace delay may come once, already gone, with its ending.
        defer { if snapshot.phase == .gone { ended.remove(alert) } }
        guard let outcome = snapshot.outcome, ended.insert(alert).inserted else { return }
        switch outcome {
        case .failure, .timedOut:
            guard let line = FinalLine.of(snapshot) else { return }
            terminal.write(Array((TextSanitizer.line(line.plain) + "\n").utf8))
        default: return
        }
    }

    func log(_ line: String, from alert: WaitAlertID) {}
}

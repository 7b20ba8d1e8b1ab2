/// Writes what an AI coding agent needs from a program's alerts, and nothing else
/// (``TerminalOverlay/Mode/agent``): plain lines, never an escape byte, a colour or a spinner —
/// failures with their last log lines, warnings, each top-level alert's final line and how its
/// child tasks ended (``CompactReport``), after one first line saying how to get everything.
///
/// ```text
/// wait-alert: compact output for an AI agent (CLAUDECODE is set); WAIT_ALERT_PROGRESS=plain shows every line
/// ✖ Compiling Parser: exit status 1
///     Parser.swift:12: error: cannot find 'tokn' in scope
/// ✖ Building: 1 task failed
///   12 tasks: 10 succeeded, 1 failed, 1 not run
/// ```
///
/// Lines the program prints through the presenter are written as usual.
@MainActor
final class AgentRenderer: WaitAlertRenderer, WaitAlertFrameRenderer {
    private let terminal: any WaitAlertTerminal
    private var report: CompactReport
    /// The first line, until it is written.
    private var notice: String?
    /// Set once the terminal refused a write (a closed pipe): nothing more is written.
    private var closed = false

    /// Makes a renderer writing to `terminal`; `variable` names what said an agent runs the
    /// program, for the first line.
    init(terminal: any WaitAlertTerminal, variable: String?, tailLines: Int = 10) {
        self.terminal = terminal
        report = CompactReport(tailLines: tailLines)
        let because = variable.map { " (\($0) is set)" } ?? ""
        notice = "wait-alert: compact output for an AI agent\(because); WAIT_ALERT_PROGRESS=plain shows every line"
    }

    var wantsFrames: Bool { false }

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        var lines: [String] = []
        if let notice {
            lines.append(notice)
            self.notice = nil
        }
        lines += report.apply(snapshot, of: alert)
        write(lines)
    }

    func log(_ line: String, from alert: WaitAlertID) {
        report.log(line, from: alert)
    }

    private func write(_ lines: [String]) {
        guard !lines.isEmpty, !closed else { return }
        var bytes: [UInt8] = []
        for line in lines { bytes += (TextSanitizer.line(line) + "\n").utf8 }
        if !terminal.write(bytes) { closed = true }
    }
}

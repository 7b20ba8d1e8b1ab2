/// Draws alerts as plain lines, without a single escape byte: for pipes, files, CI logs and
/// `TERM=dumb`.
///
/// It prints a line when an alert first appears, a line per distinct text at most once every
/// ``minimumInterval`` (a text that comes sooner waits, and a newer one replaces it: latest wins,
/// so a busy alert never floods a log), every log line, and the final outcome — also for an alert
/// that finished within its grace delay and was never shown, so the record of what happened is
/// never lost.
@MainActor
public final class LineRenderer: WaitAlertRenderer {
    /// The shortest time between two progress lines of one alert.
    public let minimumInterval: Duration
    private let terminal: any WaitAlertTerminal
    private var alerts: [WaitAlertID: Printed] = [:]

    private struct Printed {
        var text: String?
        var at: Duration
        /// Whether a newer text waits for ``minimumInterval`` to pass.
        var isHolding = false
        var ended = false
    }

    /// Makes a renderer writing to `terminal`.
    public init(terminal: any WaitAlertTerminal, minimumInterval: Duration = .seconds(1)) {
        self.terminal = terminal
        self.minimumInterval = minimumInterval
    }

    public var wantsFrames: Bool { false }

    public func redrawDeadline(for alert: WaitAlertID) -> Duration? {
        guard let printed = alerts[alert], printed.isHolding else { return nil }
        return printed.at + minimumInterval
    }

    public func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        var printed = alerts[alert] ?? Printed(at: instant)
        defer { alerts[alert] = snapshot.phase == .gone ? nil : printed }
        if snapshot.outcome != nil || snapshot.phase >= .lingering {
            guard !printed.ended else { return }
            printed.ended = true
            printed.isHolding = false
            if let final = FinalLine.of(snapshot) { emitLine(final.plain) }
        } else if snapshot.isOnScreen, snapshot.kind == .waitAlert {
            if printed.text == snapshot.text {
                printed.isHolding = false
            } else if printed.text == nil || instant - printed.at >= minimumInterval {
                printed = Printed(text: snapshot.text, at: instant)
                emitLine(snapshot.text)
            } else {
                printed.isHolding = true
            }
        }
    }

    public func log(_ line: String, from alert: WaitAlertID) {
        emit(line)
    }

    /// Writes a progress or final text as exactly one line.
    private func emitLine(_ text: String) {
        terminal.write(Array((TextSanitizer.line(text) + "\n").utf8))
    }

    /// Writes a log line, split at its line breaks: every part is kept.
    private func emit(_ line: String) {
        var bytes: [UInt8] = []
        for part in TextSanitizer.logLines(line) { bytes += (part + "\n").utf8 }
        terminal.write(bytes)
    }
}

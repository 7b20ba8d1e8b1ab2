/// Ctrl-C and job control for an overlay that writes lines on standard error in the accessible
/// mode: while any alert waits for its work, the terminal session handles the signals as it does
/// for the interactive overlay — a first Ctrl-C cancels the work through structured cancellation
/// (a line says each alert is cancelling and how to quit at once, then the alerts end as
/// cancelled, as lines), a second one ends the program with status 130, leaving a final line for
/// each alert still running (`⚠ Building: interrupted after 3.1s`), and with no work to cancel
/// Ctrl-C does what it would have done without WaitAlert. Nothing is drawn, so nothing is erased;
/// the guard puts back only terminal modes a secret question changed.
@MainActor
final class LineModeSignals {
    private var running: Set<WaitAlertID> = []
    /// The process's terminal, and the hold on it while work runs.
    private let session: TerminalSession
    private var guardHold: TerminalSession.HoldID?
    private var context: WaitAlertRendererContext?
    /// The lines written, told how to quit at once after a Ctrl-C.
    private let renderer: LineRenderer
    /// Whether the final lines are coloured.
    private let colors: Bool
    private var endings = InterruptedEndings()
    private var publishedEndings: [InterruptedEndings.Ending]?

    init(renderer: LineRenderer, colors: Bool, session: TerminalSession = .process) {
        self.renderer = renderer
        self.colors = colors
        self.session = session
    }

    func didAttach(to context: WaitAlertRendererContext) {
        self.context = context
    }

    /// Follows which alerts still wait for their work.
    func follow(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        if snapshot.outcome == nil, snapshot.phase != .gone {
            running.insert(alert)
        } else {
            running.remove(alert)
        }
        endings.apply(snapshot, of: alert, at: instant)
        publishForcedExitLines(at: instant)
        let shouldGuard = !running.isEmpty
        if shouldGuard, guardHold == nil {
            guardHold = session.take(
                .init(
                    output: session.standardError.descriptor, handlesSignals: true,
                    events: { [weak self] event in if event == .interrupt { self?.interrupt() } }))
        } else if !shouldGuard, let hold = guardHold {
            guardHold = nil
            renderer.interruptHint = nil
            session.release(hold)
        }
    }

    private func interrupt() {
        // The terminal echoed `^C` where the next line would begin: that line starts below it.
        if session.standardError.isTerminalDevice { _ = session.standardError.write(Array("\n".utf8)) }
        renderer.interruptHint = InterruptedEndings.hint
        if context?.cancelAllWork() != true {
            renderer.interruptHint = nil
            session.passOnInterrupt()
        }
    }

    /// Tells the terminal session the final lines a forced exit leaves, below the `^C` the terminal
    /// echoed, when they change.
    private func publishForcedExitLines(at instant: Duration) {
        let endings = endings.endings
        guard endings != publishedEndings else { return }
        publishedEndings = endings
        var lines = endings.map { TerminalSession.ForcedExitLine(text: $0.text, elapsed: instant - $0.began) }
        if !lines.isEmpty { lines[0].text = "\n" + lines[0].text }
        session.publishForcedExitLines(lines, color: colors ? "33" : nil)
    }
}

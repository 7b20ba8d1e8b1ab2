/// Ctrl-C and job control for an overlay that writes lines on standard error in the accessible
/// mode: while any alert waits for its work, the terminal guard handles the signals as it does
/// for the interactive overlay — a first Ctrl-C cancels the work through structured cancellation
/// (the alerts end as cancelled, as lines), a second one ends the program with status 130, and
/// with no work to cancel Ctrl-C does what it would have done without WaitAlert. Nothing is drawn,
/// so nothing is erased; the guard puts back only terminal modes a secret question changed.
@MainActor
final class LineModeSignals {
    private var running: Set<WaitAlertID> = []
    /// Whether this turned the guard on (it leaves alone a guard someone else holds).
    private var holdsGuard = false
    private var context: WaitAlertRendererContext?

    func didAttach(to context: WaitAlertRendererContext) {
        self.context = context
    }

    /// Follows which alerts still wait for their work.
    func follow(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID) {
        if snapshot.outcome == nil, snapshot.phase != .gone {
            running.insert(alert)
        } else {
            running.remove(alert)
        }
        let shouldGuard = !running.isEmpty
        guard shouldGuard != holdsGuard else { return }
        if shouldGuard {
            guard !TerminalGuard.isActive else { return }
            TerminalGuard.activate(
                output: WaitAlertStandardError.shared.descriptor, handlesSignals: true,
                handlers: TerminalGuard.Handlers(
                    interrupt: { [weak self] in Task { @MainActor in self?.interrupt() } },
                    resize: {}, resume: {}))
            holdsGuard = true
        } else {
            holdsGuard = false
            TerminalGuard.deactivate()
        }
    }

    private func interrupt() {
        // The terminal echoed `^C` where the next line would begin: that line starts below it.
        if WaitAlertStandardError.shared.isTerminalDevice { _ = WaitAlertStandardError.shared.write(Array("\n".utf8)) }
        if context?.cancelAllWork() != true { TerminalGuard.passOnInterrupt() }
    }
}

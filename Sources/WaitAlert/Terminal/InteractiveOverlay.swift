/// The interactive side of a ``TerminalOverlay``: one line per visible alert at the bottom of a
/// terminal, with the terminal guard (signals, input, exit) on standard error, and plain lines
/// while the program is a background job.
@MainActor
final class InteractiveOverlay: WaitAlertRenderer {
    private let ending: TerminalOverlay.Ending
    private let terminal: any WaitAlertTerminal
    private let integration: TerminalOverlay.ProcessIntegration
    /// Whether the overlay draws on the process's standard error, which the terminal guard protects.
    private let isStandardError: Bool
    private let colors: Bool
    private var screen = OverlayScreen()
    private var endedShown: Set<WaitAlertID> = []
    private var context: WaitAlertRendererContext?
    private var guarding = false
    private var inputBlocked = false
    private var running: Set<WaitAlertID> = []
    /// The alerts whose work the last Ctrl-C cancelled and that have not ended yet.
    private var interrupted: Set<WaitAlertID> = []
    /// Whether the program is a background job: nothing is drawn and no terminal mode touched.
    private var detached = false
    private var stopped = false

    init(
        terminal: any WaitAlertTerminal, ending: TerminalOverlay.Ending, colors: Bool,
        integration: TerminalOverlay.ProcessIntegration
    ) {
        self.terminal = terminal
        self.ending = ending
        self.integration = integration
        self.isStandardError =
            (terminal as? WaitAlertStandardError)?.descriptor == WaitAlertStandardError.shared.descriptor
        self.colors = colors
        self.screen.columns = terminal.columns ?? 80
        if isStandardError { TerminalGuard.installExitHook() }
    }

    var wantsFrames: Bool { true }

    func didAttach(to context: WaitAlertRendererContext) {
        self.context = context
    }

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        guard !stopped else { return }
        refreshPlacement()
        updateRunning(alert, isRunning: snapshot.outcome == nil && snapshot.phase < .lingering)
        let ending = snapshot.kind == .toast ? TerminalOverlay.Ending.transient : self.ending
        // A persistent ending is printed at once; in the background every ending is, as a plain line.
        if snapshot.outcome != nil, ending == .persistent || detached {
            printEnding(of: snapshot, alert)
        } else if !endedShown.contains(alert) {
            switch snapshot.phase {
            case .pending: return
            case .appearing, .visible, .lingering, .fading: show(line(for: snapshot), of: alert)
            case .gone: if screen.contains(alert) { write(screen.remove(alert, printingAbove: [])) }
            }
        }
        if snapshot.phase == .gone { endedShown.remove(alert) }
        updateGuard()
    }

    /// Replaces an ended alert's line by its final line, once; in the background the final line
    /// of a wait alert is printed as a plain line (a toast leaves nothing there).
    private func printEnding(of snapshot: WaitAlertSnapshot, _ alert: WaitAlertID) {
        guard endedShown.insert(alert).inserted else { return }
        let final = FinalLine.of(snapshot).flatMap { detached && snapshot.kind == .toast ? nil : $0 }
        if detached {
            _ = screen.remove(alert, printingAbove: [])
            writePlain(final.map { [$0.plain] } ?? [])
        } else if screen.contains(alert) || final != nil {
            write(screen.remove(alert, printingAbove: final.map { [styled($0)] } ?? []))
        }
    }

    func log(_ line: String, from alert: WaitAlertID) {
        guard !stopped else { return }
        refreshPlacement()
        let lines = TextSanitizer.logLines(line)
        if detached { writePlain(lines) } else { write(screen.print(lines)) }
    }

    /// Re-reads the terminal's width and redraws every line, leaving no garbage behind when the
    /// window shrank below a line's length.
    func terminalDidResize() {
        guard !stopped else { return }
        refreshPlacement()
    }

    /// Checks where the program now is after a stop and a continue (Ctrl-Z, then `fg` or `bg`):
    /// in the foreground the lines are drawn again where the shell left the cursor; in the
    /// background nothing is drawn until the program is brought back.
    func terminalDidResume() {
        guard !stopped, guarding else { return }
        if !detached, !screen.isEmpty, !TerminalGuard.drawn.load(ordering: .sequentiallyConsistent) {
            // The stop erased the lines and put the terminal modes back: nothing of ours is on
            // screen, and echo is on again.
            detached = true
            inputBlocked = false
        }
        refreshPlacement()
        updateGuard()
    }

    /// Picks up where the program is (foreground or background job) and the terminal's width,
    /// before anything is drawn.
    private func refreshPlacement() {
        let foreground = terminal.isForeground
        if foreground == detached {
            foreground ? attach() : detach()
        } else if !detached {
            refreshWidth()
        }
    }

    /// Picks up a width change, also one that no `SIGWINCH` reported (between alerts, without
    /// signal handling, or on another terminal), before drawing anything.
    private func refreshWidth() {
        guard let columns = terminal.columns, columns != screen.columns else { return }
        screen.columns = columns
        write(screen.redraw())
    }

    /// The program went to the background: from now on nothing is drawn and no terminal mode is
    /// touched; the lines are kept to be drawn again in the foreground.
    private func detach() {
        detached = true
        updateGuard()  // nothing drawn; input no longer blocked (the shell owns the terminal now)
    }

    /// The program is in the foreground again: the lines are drawn afresh where the cursor is.
    private func attach() {
        detached = false
        screen.columns = terminal.columns ?? screen.columns
        write(screen.drawAfresh())
        updateGuard()
    }

    private func show(_ line: OverlayScreen.Line, of alert: WaitAlertID) {
        let firstLine = screen.isEmpty
        let bytes = screen.update(alert, to: line)
        // The guard (signals, echo, exit restore) is in place before the first byte shows, so a
        // Ctrl-C that comes as soon as the spinner does already finds it.
        if firstLine { updateGuard() }
        if !bytes.isEmpty, !detached { write(bytes) }
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !stopped, !detached else { return }
        let written = isStandardError ? TerminalGuard.write(bytes, to: terminal) : terminal.write(bytes)
        if !written { stop() }
    }

    /// Writes `lines` as plain text, for a program in the background: no escape byte at all.
    private func writePlain(_ lines: [String]) {
        guard !lines.isEmpty, !stopped else { return }
        let bytes = Array(lines.map { TextSanitizer.line($0) + "\n" }.joined().utf8)
        let written = isStandardError ? TerminalGuard.write(bytes, to: terminal) : terminal.write(bytes)
        if !written { stop() }
    }

    /// Tracks which alerts still wait for their work; once every work a Ctrl-C interrupted has
    /// ended, the next Ctrl-C cancels the next work instead of ending the program.
    private func updateRunning(_ alert: WaitAlertID, isRunning: Bool) {
        if isRunning {
            running.insert(alert)
        } else {
            running.remove(alert)
            if interrupted.remove(alert) != nil, interrupted.isEmpty { TerminalGuard.resetInterrupts() }
        }
    }

    /// A Ctrl-C: cancel the work of every alert; with none to cancel, Ctrl-C does what it would
    /// have done without the overlay.
    private func interrupt() {
        interrupted.formUnion(running)
        if context?.cancelAllWork() != true { TerminalGuard.passOnInterrupt() }
    }

    /// The overlay line of a snapshot: spinner glyph (or outcome icon) and text, styled.
    private func line(for snapshot: WaitAlertSnapshot) -> OverlayScreen.Line {
        let text = TextSanitizer.line(snapshot.text)
        var style = OverlayScreen.Style.plain
        var glyph = snapshot.spinnerGlyph
        if snapshot.phase >= .lingering, snapshot.kind == .waitAlert, let final = FinalLine.of(snapshot) {
            glyph = final.icon
            style = colors ? Self.style(for: final.tone) : .plain
        }
        if colors, snapshot.phase == .fading { style = .grey(level: snapshot.opacity) }
        return OverlayScreen.Line(glyph: glyph, text: text, style: style)
    }

    /// A final line printed above the overlay, in its colour.
    private func styled(_ final: FinalLine) -> String {
        let text = TextSanitizer.line(final.plain)
        return colors ? Self.style(for: final.tone).apply(to: text) : text
    }

    static func style(for tone: FinalLine.Tone) -> OverlayScreen.Style {
        switch tone {
        case .success: .green
        case .failure: .red
        case .warning: .yellow
        case .neutral: .plain
        }
    }

    /// Turns the terminal guard on while there are lines to show (also in the background, where
    /// `SIGCONT` tells when the program is brought back), off when there are none; tells it
    /// whether lines are on screen; blocks input only in the foreground, while some alert still
    /// waits for its work.
    private func updateGuard() {
        let shouldGuard = !screen.isEmpty && isStandardError
        if shouldGuard != guarding {
            guarding = shouldGuard
            if shouldGuard {
                TerminalGuard.activate(
                    output: WaitAlertStandardError.shared.descriptor,
                    handlesSignals: integration.handlesSignals,
                    handlers: handlers()
                )
            } else {
                inputBlocked = false
                TerminalGuard.deactivate()
            }
        }
        if guarding { TerminalGuard.setDrawn(!detached && !screen.isEmpty) }
        let shouldBlock = guarding && integration.blocksInput && !running.isEmpty && !detached
        if shouldBlock != inputBlocked {
            inputBlocked = shouldBlock
            TerminalGuard.blockInput(shouldBlock)
        }
    }

    private func handlers() -> TerminalGuard.Handlers {
        TerminalGuard.Handlers(
            interrupt: { [weak self] in Task { @MainActor in self?.interrupt() } },
            resize: { [weak self] in Task { @MainActor in self?.terminalDidResize() } },
            resume: { [weak self] in Task { @MainActor in self?.terminalDidResume() } }
        )
    }

    /// Stops drawing for good after the terminal refused a write.
    private func stop() {
        stopped = true
        if guarding {
            guarding = false
            inputBlocked = false
            TerminalGuard.deactivate()
        }
    }
}

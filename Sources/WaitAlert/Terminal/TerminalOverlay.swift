/// The wait alert as a one-line spinner on a terminal — standard error by default — that always
/// leaves the terminal clean.
///
/// On an interactive terminal each visible alert takes one line at the bottom of the output, in
/// the order alerts appeared, with the cursor hidden. An idle frame rewrites only the spinner
/// glyph; a new text rewrites its line; log lines print above the alerts. Every text is sanitized
/// (no control character or escape sequence reaches the terminal) and cut to the terminal's width
/// by display width. When the output is not interactive (a pipe, a file, CI, `TERM=dumb`), it
/// writes plain lines through a ``LineRenderer`` and not one escape byte.
///
/// ```swift
/// WaitAlertPresenter.shared = WaitAlertPresenter(
///     renderers: [TerminalOverlay(ending: .transient)],
///     timing: .terminal
/// )
/// ```
@MainActor
public final class TerminalOverlay: WaitAlertRenderer {
    /// What an alert leaves behind when it ends.
    public enum Ending: Sendable, Hashable {
        /// A final line (`✔ Done (1.2s)`, `✖ Fetching: reason`, `⚠ Fetching: cancelled after 3.1s`)
        /// replaces the spinner at once and stays. Also printed for an alert that ended within its
        /// grace delay.
        case persistent
        /// The final message lingers and fades, then the line is cleared.
        case transient
    }

    /// How the overlay treats the process around it while it shows something.
    public struct ProcessIntegration: Sendable, Hashable {
        /// Handle `SIGINT` (cancel the work; a second one exits with 130), `SIGTERM`, `SIGHUP`
        /// (restore, then end with the signal) and `SIGWINCH` (redraw).
        public var handlesSignals: Bool
        /// Turn off echo on standard input when it is the same terminal, so typing cannot break
        /// the line.
        public var blocksInput: Bool

        public init(handlesSignals: Bool = true, blocksInput: Bool = true) {
            self.handlesSignals = handlesSignals
            self.blocksInput = blocksInput
        }

        /// Signals and input blocking on, for command-line programs.
        public static let full = ProcessIntegration()
        /// Neither: the overlay only draws.
        public static let none = ProcessIntegration(handlesSignals: false, blocksInput: false)
    }

    /// What an alert leaves behind when it ends.
    public let ending: Ending
    private let terminal: any WaitAlertTerminal
    private let integration: ProcessIntegration
    private let interactive: Bool
    /// Whether the overlay draws on the process's standard error, which the terminal guard protects.
    private let isStandardError: Bool
    private let colors: Bool
    private let plain: LineRenderer
    private var screen = OverlayScreen()
    private var endedShown: Set<WaitAlertID> = []
    private weak var presenter: WaitAlertPresenter?
    private var guarding = false
    private var inputBlocked = false
    private var running: Set<WaitAlertID> = []
    /// The alerts whose work the last Ctrl-C cancelled and that have not ended yet.
    private var interrupted: Set<WaitAlertID> = []
    /// Whether the program is a background job: nothing is drawn and no terminal mode touched.
    private var detached = false
    private var stopped = false

    /// Makes an overlay.
    ///
    /// - Parameters:
    ///   - terminal: where to draw; standard error by default.
    ///   - ending: persistent final lines (the default) or transient alerts.
    ///   - colors: the colour policy; `NO_COLOR`, `CLICOLOR_FORCE`/`FORCE_COLOR` by default.
    ///   - integration: signal handling and input blocking while visible, when `terminal` is
    ///     standard error; ignored for other terminals.
    public init(
        terminal: any WaitAlertTerminal = StandardError.shared,
        ending: Ending = .persistent,
        colors: ColorPolicy = .environment,
        integration: ProcessIntegration = .full
    ) {
        self.terminal = terminal
        self.ending = ending
        self.integration = integration
        self.interactive = terminal.isInteractive
        self.isStandardError = (terminal as? StandardError)?.descriptor == StandardError.shared.descriptor
        self.colors = colors.usesColor(interactive: terminal.isInteractive)
        self.plain = LineRenderer(terminal: terminal)
        self.screen.columns = terminal.columns ?? 80
        if interactive, isStandardError { TerminalGuard.installExitHook() }
    }

    public var wantsFrames: Bool { interactive }

    public func redrawDeadline(for alert: WaitAlertID) -> Duration? {
        interactive ? nil : plain.redrawDeadline(for: alert)
    }

    public func didAttach(to presenter: WaitAlertPresenter) {
        self.presenter = presenter
    }

    public func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        guard interactive else { return plain.render(snapshot, of: alert, at: instant) }
        guard !stopped else { return }
        refreshPlacement()
        updateRunning(alert, isRunning: snapshot.outcome == nil && snapshot.phase < .lingering)
        let ending = snapshot.kind == .toast ? Ending.transient : self.ending
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
    /// of a wait alert is printed as a plain line.
    private func printEnding(of snapshot: WaitAlertSnapshot, _ alert: WaitAlertID) {
        guard endedShown.insert(alert).inserted else { return }
        let printsLine = snapshot.finalText != nil && (snapshot.kind == .waitAlert || !detached)
        let finalLine = printsLine ? [finalLine(for: snapshot)] : []
        if detached {
            _ = screen.remove(alert, printingAbove: [])
            writePlain(printsLine ? [LineRenderer.finalLine(for: snapshot)] : [])
        } else if screen.contains(alert) || !finalLine.isEmpty {
            write(screen.remove(alert, printingAbove: finalLine))
        }
    }

    public func log(_ line: String, from alert: WaitAlertID) {
        guard interactive else { return plain.log(line, from: alert) }
        guard !stopped else { return }
        refreshPlacement()
        let lines = TextSanitizer.logLines(line)
        if detached { writePlain(lines) } else { write(screen.print(lines)) }
    }

    /// Re-reads the terminal's width and redraws every line, leaving no garbage behind when the
    /// window shrank below a line's length.
    public func terminalDidResize() {
        guard interactive, !stopped else { return }
        refreshPlacement()
    }

    /// Checks where the program now is after a stop and a continue (Ctrl-Z, then `fg` or `bg`):
    /// in the foreground the lines are drawn again where the shell left the cursor; in the
    /// background nothing is drawn until the program is brought back.
    func terminalDidResume() {
        guard interactive, !stopped, guarding else { return }
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
        if presenter?.cancelAll() != true { TerminalGuard.passOnInterrupt() }
    }

    /// The overlay line of a snapshot: spinner glyph (or outcome icon) and text, styled.
    private func line(for snapshot: WaitAlertSnapshot) -> OverlayScreen.Line {
        let text = TextSanitizer.line(snapshot.text)
        var style = OverlayScreen.Style.plain
        var glyph = snapshot.spinnerGlyph
        if let outcome = snapshot.outcome, snapshot.kind == .waitAlert, snapshot.phase >= .lingering {
            glyph = outcome.icon
            style = colors ? Self.style(for: outcome) : .plain
        }
        if colors, snapshot.phase == .fading { style = .grey(level: snapshot.opacity) }
        return OverlayScreen.Line(glyph: glyph, text: text, style: style)
    }

    private func finalLine(for snapshot: WaitAlertSnapshot) -> String {
        let text = TextSanitizer.line(LineRenderer.finalLine(for: snapshot))
        guard colors, let outcome = snapshot.outcome else { return text }
        return Self.style(for: outcome).apply(to: text)
    }

    static func style(for outcome: WaitAlertOutcome) -> OverlayScreen.Style {
        switch outcome {
        case .success: .green
        case .failure: .red
        case .cancelled, .timedOut: .yellow
        case .dismissed: .plain
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
                    output: StandardError.shared.descriptor,
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

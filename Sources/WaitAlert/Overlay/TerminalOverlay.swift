/// The wait alert as a one-line spinner on a terminal — standard error by default — that always
/// leaves the terminal clean.
///
/// On an interactive terminal each visible alert and child task takes one line of a region at
/// the bottom of the output, in the order alerts appeared (child tasks indented under their
/// parent), with the cursor hidden. The region is never taller than the window's rows less one:
/// when rows run out it keeps a group's header, failed rows, running rows in a stable order and
/// recently finished ones, and sums up the rest in one line. A finished child task becomes a
/// record line above the region once its final message was read. Each batch of changes is one
/// write: an idle frame rewrites only spinner glyphs; a new text rewrites its line; log lines
/// print above the region. Every text is sanitized (no control character or escape sequence
/// reaches the terminal) and cut to the terminal's width by display width. When the output is not interactive (a pipe, a file, CI, `TERM=dumb`), it
/// writes plain lines through a ``LineRenderer`` and not one escape byte. Which of the two it is
/// is decided once, when the overlay is made.
///
/// On standard error of a program started under another program's alert (`WAIT_ALERT_SOCKET`,
/// see <doc:EventStream>), it draws nothing: its alerts are sent there and show as child tasks,
/// until that program lets it go or exits; it then goes on under the nearest alert above that
/// still runs, or draws them itself.
///
/// ```swift
/// WaitAlertPresenter.shared = WaitAlertPresenter(
///     renderers: [TerminalOverlay(ending: .transient)],
///     timing: .terminal
/// )
/// ```
@MainActor
public final class TerminalOverlay: WaitAlertRenderer, WaitAlertFrameRenderer {
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
        /// Handle `SIGINT` (cancel the work, the rows saying `cancelling…`; a second one while it
        /// still runs exits with 130, leaving each running alert's final line), `SIGTERM`,
        /// `SIGHUP`, `SIGQUIT` and every other signal whose default action ends the program and
        /// which it left at its default, `SIGPIPE` among them (restore, then end with the signal),
        /// `SIGWINCH` (redraw), `SIGTSTP` (restore before stopping) and `SIGCONT` (redraw in the
        /// foreground, input blocked again).
        public var handlesSignals: Bool
        /// Turn off echo on standard input when it is the same terminal, so typing cannot break
        /// the line.
        public var blocksInput: Bool
        /// Catch what the program and its subprocesses write to standard output and standard
        /// error while lines show, and print it above them, whole lines in order, instead of
        /// through them (see <doc:PrintingAroundAlerts>). Only descriptors that are the overlay's
        /// own terminal are caught, through a pseudo-terminal, so the program still sees a
        /// terminal; output redirected to a file or a pipe is never touched. Turn it off to keep
        /// the descriptors as they are (a program that checks which terminal device it writes to,
        /// or passes its descriptors to another terminal); output then lands in the spinner's line.
        public var capturesOutput: Bool
        /// Have `SIGTERM` and `SIGHUP` cancel the work like a first Ctrl-C, instead of ending the
        /// program at once (off by default). For programs that must wind something down first,
        /// such as a child process they pass the signal on to. A second such signal (or Ctrl-C)
        /// while the work still runs ends the program as before. With no work to cancel, the
        /// signal is passed on as a Ctrl-C. Process-wide, like the signal handlers: the overlay
        /// made last on standard error decides.
        public var cancelsOnTermination: Bool

        public init(
            handlesSignals: Bool = true, blocksInput: Bool = true, capturesOutput: Bool = true,
            cancelsOnTermination: Bool = false
        ) {
            self.handlesSignals = handlesSignals
            self.blocksInput = blocksInput
            self.capturesOutput = capturesOutput
            self.cancelsOnTermination = cancelsOnTermination
        }

        /// Signals, input blocking and output capture on, for command-line programs.
        public static let full = ProcessIntegration()
        /// None of them: the overlay only draws.
        public static let none = ProcessIntegration(handlesSignals: false, blocksInput: false, capturesOutput: false)
    }

    /// What an alert leaves behind when it ends.
    public let ending: Ending
    /// What the overlay writes, chosen once.
    public let mode: Mode
    /// Where it draws.
    package let terminal: any WaitAlertTerminal
    /// The interactive overlay, the plain-line renderer, the event stream or the quiet renderer,
    /// chosen once — or, for a program started under another's alert, the events written to
    /// that program (``ParentReportRenderer``), which draws through one of them once no parent
    /// takes its alerts.
    private let output: any WaitAlertFrameRenderer
    /// The interactive overlay, when it draws through one.
    private var interactive: InteractiveOverlay? {
        (output as? InteractiveOverlay) ?? ((output as? ParentReportRenderer)?.local as? InteractiveOverlay)
    }
    /// Ctrl-C and job control in the accessible mode on standard error.
    private var lineSignals: LineModeSignals?
    /// Whether it draws on the process's standard error, so it may read standard input.
    private let isStandardError: Bool
    /// Whether it handles signals (Ctrl-C at a question read as a line cancels it).
    private let handlesSignals: Bool
    /// The terminal, when it is a process's standard error: whose reader may go away.
    private let standardError: WaitAlertStandardError?
    /// What cancels the work when the program reading this output goes away.
    private var cancelAllWork: (@MainActor @Sendable () -> Bool)?
    /// Whether the work was cancelled because the output's reader went away.
    private var cancelledForLostReader = false
    /// Where questions go while it reports to that program, which owns the terminal: bound to
    /// the connection they went through (a new one after attaching again).
    private var parentQuestions: ParentQuestions?
    /// Whether it writes the event stream to the socket of the program that started this one
    /// (`WAIT_ALERT_SOCKET`) instead of drawing.
    private var reportsToParent: Bool { (output as? ParentReportRenderer)?.reportsToParent ?? false }

    /// Makes an overlay.
    ///
    /// - Parameters:
    ///   - terminal: where to draw; standard error by default.
    ///   - ending: persistent final lines (the default) or transient alerts.
    ///   - colors: the colour policy; `NO_COLOR`, `CLICOLOR_FORCE`/`FORCE_COLOR` by default.
    ///   - integration: signal handling and input blocking while visible, when `terminal` is
    ///     standard error; ignored for other terminals.
    ///   - failureLogLines: how many of a failed child task's last log lines are printed again,
    ///     under its record line, when its group ends (0 for none).
    ///   - taskbar: progress in the terminal's tab or taskbar (`OSC 9;4`): where the environment
    ///     shows it is supported (on standard error), always, or never.
    ///   - mode: what to write; `WAIT_ALERT_PROGRESS` decides by default (``Mode/environment``).
    public init(
        terminal: any WaitAlertTerminal = WaitAlertStandardError.shared,
        ending: Ending = .persistent,
        colors: ColorPolicy = .environment,
        integration: ProcessIntegration = .full,
        failureLogLines: Int = 5,
        taskbar: TaskbarProgress = .auto,
        mode: Mode = .environment
    ) {
        self.ending = ending
        self.mode = mode
        self.terminal = terminal
        standardError = terminal as? WaitAlertStandardError
        let session = TerminalSession.process
        isStandardError = session.owns(terminal)
        handlesSignals = integration.handlesSignals
        if isStandardError { session.setTerminationCancels(integration.cancelsOnTermination) }
        let interactive = mode.drawsInteractively(on: terminal)
        let makeLocal = { @MainActor () -> any WaitAlertFrameRenderer in
            Self.localOutput(
                terminal: terminal, mode: mode, interactive: interactive, ending: ending, colors: colors,
                integration: integration, failureLogLines: failureLogLines, taskbar: taskbar)
        }
        let handlesLineSignals = mode == .accessible && isStandardError && integration.handlesSignals
        if isStandardError, let parent = session.connectToParent() {
            // A program started under another's alert: its alerts are child tasks there.
            let reporter = ParentReportRenderer(
                connection: parent, localWantsFrames: interactive && mode != .json && mode != .off,
                makeLocal: makeLocal)
            output = reporter
            reporter.onLocal = { [weak self] local, context in
                guard let self, handlesLineSignals, let lines = local as? LineRenderer else { return }
                let signals = LineModeSignals(
                    renderer: lines, colors: colors.usesColor(interactive: terminal.isInteractive))
                signals.didAttach(to: context)
                self.lineSignals = signals
            }
        } else {
            let local = makeLocal()
            if handlesLineSignals, let lines = local as? LineRenderer {
                lineSignals = LineModeSignals(
                    renderer: lines, colors: colors.usesColor(interactive: terminal.isInteractive))
            }
            output = local
        }
    }

    /// What the overlay writes when no parent takes its alerts: the event stream, the quiet
    /// renderer, the interactive overlay, or plain (or accessible) lines.
    private static func localOutput(
        terminal: any WaitAlertTerminal, mode: Mode, interactive: Bool, ending: Ending, colors: ColorPolicy,
        integration: ProcessIntegration, failureLogLines: Int, taskbar: TaskbarProgress
    ) -> any WaitAlertFrameRenderer {
        if mode == .json { return EventStreamRenderer(terminal: terminal) }
        if mode == .off { return QuietRenderer(terminal: terminal) }
        if mode == .agent {
            return AgentRenderer(
                terminal: terminal, variable: Mode.agentVariable(in: environmentVariables(Mode.agentVariables)),
                tailLines: max(failureLogLines, 10))
        }
        if mode == .github || mode == .gitlab {
            let summary = mode == .github ? environmentVariables(["GITHUB_STEP_SUMMARY"])["GITHUB_STEP_SUMMARY"] : nil
            return LineRenderer(
                terminal: terminal, minimumInterval: .seconds(1), heartbeatInterval: .seconds(30),
                progressInterval: .seconds(5), failureLogLines: failureLogLines, colors: false,
                folding: mode == .github ? .githubActions : .gitlab,
                summaryPath: summary.flatMap { $0.isEmpty ? nil : $0 })
        }
        if interactive {
            let isStandardError = TerminalSession.process.owns(terminal)
            let environment = isStandardError ? environmentVariables(TaskbarProgress.variables) : [:]
            let taskbar = (isStandardError || taskbar != .auto) ? taskbar : .off
            return InteractiveOverlay(
                terminal: terminal, ending: ending == .persistent ? .persistent : .transient,
                colors: colors.usesColor(interactive: true),
                integration: InteractiveOverlay.Integration(
                    handlesSignals: integration.handlesSignals, blocksInput: integration.blocksInput,
                    capturesOutput: integration.capturesOutput),
                failureLogLines: failureLogLines,
                taskbar: taskbar.isEnabled(environment: environment, isInteractive: true))
        }
        if mode == .accessible {
            return LineRenderer(
                terminal: terminal, minimumInterval: .seconds(3), heartbeatInterval: .seconds(30),
                progressInterval: LineRenderer.quartersOnly, failureLogLines: failureLogLines,
                colors: colors.usesColor(interactive: terminal.isInteractive))
        }
        return LineRenderer(terminal: terminal, failureLogLines: failureLogLines)
    }

    package var wantsFrames: Bool { output.wantsFrames }

    package var drawsSpinnerFramesItself: Bool { output.drawsSpinnerFramesItself }

    public func redrawDeadline(for alert: WaitAlertID) -> Duration? {
        output.redrawDeadline(for: alert)
    }

    package func didAttach(to context: WaitAlertRendererContext) {
        cancelAllWork = context.cancelAllWork
        lineSignals?.didAttach(to: context)
        output.didAttach(to: context)
    }

    public func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        output.render(snapshot, of: alert, at: instant)
        lineSignals?.follow(snapshot, of: alert, at: instant)
    }

    /// Cancels the work, once, when the program reading standard error went away (a write found
    /// the pipe closed: `tool 2>&1 | head`, an ssh session that ended, a parent that exited), as
    /// `SIGPIPE` ends a pipeline's writer: what the work would still show has no reader. Work
    /// that reports to a remote reader over ssh stops when the connection drops. Looked at once a
    /// batch, when it is flushed.
    private func cancelIfReaderWentAway() {
        guard !cancelledForLostReader, standardError?.readerWentAway == true else { return }
        cancelledForLostReader = true
        _ = cancelAllWork?()
    }

    public func log(_ line: String, from alert: WaitAlertID) {
        output.log(line, from: alert)
    }

    package func flush(at instant: Duration) {
        output.flush(at: instant)
        cancelIfReaderWentAway()
    }

    package var heldBackUntil: Duration? { output.heldBackUntil }

    package var servesChildProcesses: Bool { isStandardError && !reportsToParent }

    public func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool {
        output.print(line, to: stream)
    }

    public func suspend() {
        output.suspend()
    }

    public func resume() {
        output.resume()
    }

    /// Asks `prompt` on standard input: with a text field or buttons drawn on the terminal when
    /// standard input and standard error are the same terminal, else from one line read from
    /// standard input (see <doc:AskingQuestions>). Only an overlay on standard error asks.
    public func present(_ prompt: WaitAlertPrompt) -> Bool {
        guard isStandardError else { return false }
        if let questions = questionsForParent(), !Platform.standardInputCarriesAnswers {
            // The program showing the alerts owns the terminal: it asks. (Answers piped to this
            // program are read here, as when it runs alone.)
            questions.present(prompt)
            return true
        }
        if let interactive, interactive.present(prompt) { return true }
        if mode == .agent, let problem = Self.noAnswerForAnAgent() {
            // No one at the terminal answers an agent's command: fail at once rather than wait.
            let variable = Mode.agentVariable(in: environmentVariables(Mode.agentVariables))
            let who = variable.map { "\($0) is set" } ?? "WAIT_ALERT_PROGRESS=agent"
            let reason =
                "an AI agent runs this program (\(who)) and \(problem); "
                + "pipe the answer in (printf 'y\\n' | …) or set WAIT_ALERT_PROGRESS to ask at the terminal"
            prompt.end(.failed(.cannotAsk(prompt: prompt.title, reason: reason)))
            return true
        }
        if !reportsToParent, let stream = output as? EventStreamRenderer { stream.asking(prompt) }
        StandardInputPrompt.present(prompt, handlesSignals: handlesSignals) { [weak self] record in
            if self?.print(record, to: .standardError) != true {
                _ = TerminalSession.process.standardError.write(Array((TextSanitizer.line(record) + "\n").utf8))
            }
        }
        return true
    }

    /// Why a question asked in the agent mode cannot be answered, or `nil` when an answer was
    /// piped in: standard input is a file, or a pipe that has something (or its end) within a
    /// second — an agent's harness may leave an open pipe it never writes to.
    private static func noAnswerForAnAgent() -> String? {
        guard Platform.standardInputCarriesAnswers else { return "its standard input is not a file or a pipe" }
        let ready = Platform.readiness(of: [Platform.standardInput], milliseconds: 1000)
        guard ready?.first == true else { return "nothing was piped to its standard input within a second" }
        return nil
    }

    /// Where questions go while this program reports to another's alert: through the connection
    /// it reports on now.
    private func questionsForParent() -> ParentQuestions? {
        guard let reporter = output as? ParentReportRenderer, reporter.reportsToParent else { return nil }
        // Attaching again: no parent to ask now.
        guard let connection = reporter.connection else { return ParentQuestions(connection: nil) }
        if let parentQuestions, parentQuestions.connection === connection { return parentQuestions }
        let questions = ParentQuestions(connection: connection)
        parentQuestions = questions
        return questions
    }

    /// What `SIGWINCH` does on standard error: the window changed size; the region is drawn
    /// again once the window has kept its size for a moment, on the presenter's clock.
    package func windowResized() {
        interactive?.windowResized()
    }

    /// Re-reads the terminal's width and redraws every line, leaving no garbage behind when the
    /// window shrank below a line's length. (On standard error, `SIGWINCH` does this by itself.)
    public func terminalDidResize() {
        interactive?.terminalDidResize()
    }
}

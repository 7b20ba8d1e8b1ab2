import Dispatch

/// The interactive side of a ``TerminalOverlay``: the shell that carries out what a
/// ``TaskRegion`` says — one write per batch to a terminal, through the terminal session on
/// standard error — with the spinner ticker, the capture of the program's output, prompts, and
/// plain lines while the program is a background job.
///
/// `render` and `log` feed the region; `flush` asks it for the lines above and the region's
/// lines within the terminal's height, and draws them in one write (``OverlayScreen``).
@MainActor
final class InteractiveOverlay: WaitAlertRenderer, WaitAlertFrameRenderer {
    typealias Key = OverlayScreen.Key

    /// Whether final lines stay, or linger and fade in the region.
    enum Ending {
        case persistent, transient
    }

    /// What the overlay does to the process around it while it shows something (see
    /// ``TerminalOverlay/ProcessIntegration``).
    struct Integration {
        var handlesSignals = true
        var blocksInput = true
        var capturesOutput = true

        static let none = Integration(handlesSignals: false, blocksInput: false, capturesOutput: false)
    }

    let terminal: any WaitAlertTerminal
    let integration: Integration
    /// The process's terminal, when the overlay draws on its standard error; `nil` on any other
    /// terminal (which it only writes to).
    let session: TerminalSession?
    let colors: Bool
    // `@exclusivity(unchecked)` on the state below, as on the presenter's, the sessions' and the
    // scheduler's: it is read and written only on the main actor, tens of times an alert, never
    // while another access to the same property is under way, and the runtime check each access
    // otherwise pays was 8 % of the instructions of an alert that returns at once.
    /// What to show: the rows, the lines above them, the taskbar.
    @exclusivity(unchecked) var region: TaskRegion
    /// What is on screen, and the bytes that change it.
    @exclusivity(unchecked) var screen = OverlayScreen()
    /// How frames are drawn: what changed, when, and the spinners turned between draws.
    @exclusivity(unchecked) var frames = Frames()
    /// Whether the terminal refused a write: nothing is drawn from then on.
    @exclusivity(unchecked) var stopped = false
    /// How many suspensions are under way: while any is, nothing is drawn.
    @exclusivity(unchecked) var suspensions = 0
    @exclusivity(unchecked) var context: WaitAlertRendererContext?
    /// The capture of the program's output (``InteractiveOverlay+Capture``).
    @exclusivity(unchecked) var capture = Capture()
    /// The overlay's hold on the terminal and the program's place (``InteractiveOverlay+Terminal``).
    @exclusivity(unchecked) var guarding = Guarding()
    /// The overlay's own deadlines, on the presenter's clock.
    @exclusivity(unchecked) var deadlines = Deadlines()

    /// How frames are drawn.
    struct Frames {
        /// Whether something changed since the last draw.
        var dirty = false
        /// When the changes are drawn: child rows' at most once a frame, the rest at once.
        var pacing = DrawPacing(interval: .milliseconds(80))
        /// Turns the spinners between draws when the presenter runs on the system clock; `nil`
        /// when every frame comes through `render` (a test's manual clock).
        var ticker: SpinnerTicker?
        /// Whether a draw holds the ticker (which then hands over an empty plan if the draw stops).
        var drawingWithTicker = false
        /// Whether the last frame was dropped because the program is stopping (Ctrl-Z): the lines
        /// it was to print wait for the next draw.
        var frameDropped = false
        /// The terminal's count of stops when the last frame was drawn.
        var seenStops = 0
    }

    /// The capture of the program's output, and the question drawn over it.
    struct Capture {
        var relay: TerminalSession.Capture?
        /// How many of the program's unfinished lines the last frame showed.
        var capturedPartials = 0
        var promptDriver: TerminalPrompt?
        var promptCaptures = false
    }

    /// The overlay's hold on the terminal session and what it knows of the work it may interrupt.
    struct Guarding {
        /// The hold while the overlay has lines to show, and whether it asks for input blocked.
        var hold: TerminalSession.HoldID?
        var inputBlocked = false
        var running: Set<WaitAlertID> = []
        var interrupted: Set<WaitAlertID> = []
        /// The final lines a forced exit would leave, and those last published for it.
        var interruptedEndings = InterruptedEndings()
        var publishedEndings: [InterruptedEndings.Ending]?
        var shortestRows: Int?
    }

    /// What the overlay waits for besides drawing: each is carried out by the presenter's flush
    /// at or after its instant (``fireDeadlines(at:)``), so a test's manual clock drives them too.
    struct Deadlines {
        /// When a resize has settled and the region is drawn again; `nil` unless resizing.
        var resizeSettled: Duration?
        /// When the region may again be as tall as the window, not the shortest seen in a resize.
        var shortestRowsExpire: Duration?
        /// When a program in the background looks whether it is in the foreground again.
        var foregroundCheck: Duration?
        /// When a lone Escape typed at a question is a key of its own.
        var promptEscape: Duration?

        var earliest: Duration? {
            [resizeSettled, shortestRowsExpire, foregroundCheck, promptEscape].compactMap { $0 }.min()
        }
    }

    init(
        terminal: any WaitAlertTerminal, ending: Ending, colors: Bool, integration: Integration,
        failureLogLines: Int = 5, taskbar: Bool = false, session: TerminalSession = .process
    ) {
        self.terminal = terminal
        self.integration = integration
        self.session = session.owns(terminal) ? session : nil
        self.colors = colors
        self.region = TaskRegion(
            style: TaskRegion.Style(
                persistentEndings: ending == .persistent, colors: colors,
                unicode: Self.localeIsUTF8(environmentVariables(["LC_ALL", "LC_CTYPE", "LANG"])),
                showsTaskbar: taskbar, failureLogLines: failureLogLines))
        self.screen.columns = terminal.columns ?? 80
        self.session?.installExitHook()
        if taskbar { self.session?.prepareTaskbarClear(Array(TaskbarProgress.State.cleared.sequence.utf8)) }
        frames.seenStops = self.session?.stops ?? 0
    }

    var wantsFrames: Bool { true }

    func didAttach(to context: WaitAlertRendererContext) {
        self.context = context
        guard let now = context.systemClockNow else { return }
        let terminal = terminal
        let session = session
        frames.ticker = SpinnerTicker(now: now) { bytes in
            if let session {
                session.writeIfDrawn(bytes, to: terminal, brokenPipeSignalBlocked: true)
            } else {
                _ = terminal.write(bytes)
            }
        }
        region = TaskRegion(style: region.style.turningSpinners())
    }

    var drawsSpinnerFramesItself: Bool { frames.ticker != nil }

    /// The ticker, for tests that turn a frame at an instant of their choosing.
    var spinnerTicker: SpinnerTicker? { frames.ticker }

    func redrawDeadline(for alert: WaitAlertID) -> Duration? {
        region.redrawDeadline(for: alert)
    }

    var heldBackUntil: Duration? {
        let drawDue = frames.dirty && !stopped ? frames.pacing.due : nil
        guard let own = deadlines.earliest else { return drawDue }
        return drawDue.map { min($0, own) } ?? own
    }

    /// Something changed that must be drawn at the next flush.
    func markDirty() {
        frames.dirty = true
        frames.pacing.changed(at: region.lastInstant, canWait: false)
    }

    // MARK: - Gathering

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        guard !stopped else { return }
        // A child row's change can wait for the next frame: many ending together lay the region
        // out once.
        frames.dirty = true
        frames.pacing.changed(snapshot, of: alert, at: instant)
        updateRunning(alert, isRunning: snapshot.outcome == nil && snapshot.phase < .lingering)
        guarding.interruptedEndings.apply(snapshot, of: alert, at: instant)
        if region.endsNow(snapshot, of: alert) {
            // What the program wrote before the end comes out before the lines the end prints
            // (after the record lines of child tasks that ended earlier, for an alert's own end).
            if snapshot.parent == nil { region.recordEndedRows() }
            absorbCapturedLines()
        }
        region.apply(snapshot, of: alert, at: instant)
        carryOutRegionChanges()
    }

    func log(_ line: String, from alert: WaitAlertID) {
        guard !stopped else { return }
        if !region.isDetached {
            region.recordEndedRows()
            absorbCapturedLines()
        }
        region.log(TextSanitizer.logLines(line), from: alert)
        markDirty()
        carryOutRegionChanges()
    }

    func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool {
        let prompting = capture.promptDriver != nil
        guard !stopped, !region.isDetached, prompting || suspensions == 0,
            prompting || region.hasRows || !screen.isEmpty
        else { return false }
        if stream == .standardOutput, !standardOutputIsStandardError() { return false }
        region.recordEndedRows()
        absorbCapturedLines()
        region.printAbove(
            line.split(separator: "\n", omittingEmptySubsequences: false).map { part in
                let plain = TextSanitizer.line(String(part))
                return (colors ? TextSanitizer.keepingColors(String(part)) : plain, plain)
            })
        markDirty()
        flush(at: region.lastInstant)
        return true
    }

    /// Tells the presenter which alerts' frames are drawn, and prints the region's lines at once
    /// as plain lines while the program is a background job.
    private func carryOutRegionChanges() {
        for (alert, draws) in region.takeAnimationChanges() { context?.setDrawsFrames(alert, draws) }
        if region.isDetached { writePlain(region.takeLinesAbove().map(\.plain)) }
    }

    // MARK: - Drawing

    /// Draws what the batch changed, in one write.
    func flush(at instant: Duration) {
        fireDeadlines(at: instant)
        guard !stopped, frames.dirty, frames.pacing.drawsNow(at: instant) else { return }
        frames.dirty = false
        frames.pacing.drew(at: instant)
        region.advance(to: instant)
        if let promptDriver = capture.promptDriver {
            promptDriver.printAbove()  // the region waits for the prompt to end
            return
        }
        refreshPlacement()
        if region.isDetached, region.hasRows { watchForForeground() }
        drawRegion()
        updateGuard()
        updateCapture()
    }

    /// Lays the rows out within the terminal's height and draws them, after the lines waiting to
    /// be printed above: one write.
    private func drawRegion() {
        guard !region.isDetached, suspensions == 0 else { return }
        if deadlines.resizeSettled != nil {
            // The window is being resized: no region until it keeps its size, but every line
            // waiting to be printed goes out now (a final line right before the program exits).
            let taken = region.takeLinesAbove()
            guard !taken.isEmpty else { return }
            writeFrame([], [], taken.map(\.styled))
            if frames.frameDropped { region.putBack(taken) }
            return
        }
        let windowRows = min(terminal.rows ?? 24, guarding.shortestRows ?? .max)
        let notice = interruptNotice()
        var desired = region.frame(
            columns: screen.columns, budget: max(windowRows - 1 - capture.capturedPartials - notice.count, 1))
        if !desired.isEmpty { desired += notice }
        carryOutRegionChanges()
        publishForcedExitLines()
        // The guard (signals, echo, exit restore) is in place before the first byte shows, so a
        // Ctrl-C that comes as soon as the spinner does already finds it.
        updateGuard()
        let taken = region.takeLinesAbove()
        let taskbar = region.taskbarUpdate()
        // Nothing on screen and nothing to show (an alert that ends within its grace delay): no
        // frame to compose. With a capture on, a frame also prints what the program wrote.
        if desired.isEmpty, taken.isEmpty, taskbar == nil, screen.isEmpty, capture.relay == nil { return }
        let taskbarBytes = taskbar.map { Array($0.sequence.utf8) } ?? []
        // A taskbar state shown is flagged before its bytes go out, and a clear only after:
        // whatever ends the program between the two still clears it.
        if let taskbar, taskbar != .cleared { session?.setTaskbarShown(true) }
        if let ticker = frames.ticker {
            ticker.draw { onScreen, previous in
                frames.drawingWithTicker = true
                defer { frames.drawingWithTicker = false }
                screen.adoptGlyphs(onScreen)
                return tickerPlan(writeFrame(taskbarBytes, desired, taken.map(\.styled)), reusing: previous)
            }
        } else {
            writeFrame(taskbarBytes, desired, taken.map(\.styled))
        }
        if frames.frameDropped {
            // The program is stopping: what was to be printed waits for the draw after `fg`.
            region.putBack(taken)
            if taskbar != nil { region.taskbarCleared() }
        }
        updateCapture()
        if taskbar == .cleared { session?.setTaskbarShown(false) }
    }

    /// Shows `desired` after printing `printed` above it, in one write, with what the program
    /// wrote meanwhile: its finished lines printed above (after `printed`, which happened
    /// before them), its unfinished lines at the top of the region. Returns the lines shown. A
    /// frame the terminal session drops — a signal handler has quieted the overlay because the
    /// program is stopping — is never composed: the screen stays as it was, and ``Frames/frameDropped``
    /// says so, for the lines to be printed later.
    @discardableResult
    func writeFrame(
        _ prefix: [UInt8], _ desired: [(key: Key, line: OverlayScreen.Line)], _ printed: [String]
    ) -> [(key: Key, line: OverlayScreen.Line)] {
        frames.frameDropped = false
        guard let session, !stopped, !region.isDetached else {
            write(prefix + screen.show(desired, printingAbove: printed))
            return desired
        }
        var shown = desired
        var composed = false
        let written = session.write(to: terminal, collectingFrom: capture.relay) { collected in
            composed = true
            let stops = session.stops
            if stops != frames.seenStops {
                // A stop erased the lines since the last frame (and showed the cursor).
                frames.seenStops = stops
                screen.markErased()
            }
            var above = printed
            if capture.relay != nil {
                if collected.erasedRegion { screen.markErased(cursorShown: false) }
                let partials = collected.partials.sorted { $0.key.rawValue < $1.key.rawValue }.map { entry in
                    (
                        key: Key.captured(Int32(entry.key.rawValue)),
                        line: OverlayScreen.Line(glyph: nil, text: TextSanitizer.line(entry.value), style: .plain)
                    )
                }
                let fits = desired.isEmpty ? [] : partials.prefix(max((terminal.rows ?? 24) - 1 - desired.count, 0))
                capture.capturedPartials = fits.count
                shown = fits + desired
                above += collected.lines.map { TextSanitizer.keepingColors($0.text) }
            }
            let bytes = prefix + screen.show(shown, printingAbove: above)
            // What is on screen is recorded with the write that puts it there, under the lock the
            // relay prints under: it erases these lines before printing over them, and whatever
            // ends the program now erases them too.
            return (bytes, .init(drawn: guarding.hold != nil && !screen.isEmpty))
        }
        if !written {
            stop()
        } else if !composed {
            frames.frameDropped = true
            return []
        }
        return shown
    }

    /// The glyphs the ticker turns until the next draw: the running rows drawn with a spinner
    /// whose glyph it can rewrite alone.
    private func tickerPlan(
        _ drawn: [(key: Key, line: OverlayScreen.Line)], reusing previous: SpinnerTicker.Plan
    ) -> SpinnerTicker.Plan {
        var plan = SpinnerTicker.Plan()
        guard !region.isDetached, !stopped else { return plan }
        for (index, entry) in drawn.enumerated() {
            guard var slot = region.spinner(of: entry.key), let glyph = entry.line.glyph,
                screen.turnsGlyph(ofLine: index, throughFramesOfWidth: slot.frameWidth)
            else { continue }
            slot.line = index
            slot.indent = entry.line.indent
            plan.append(slot, showing: glyph, reusing: previous)
        }
        return plan
    }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !stopped, !region.isDetached else { return }
        let written = session?.write(bytes, to: terminal) ?? terminal.write(bytes)
        if !written { stop() }
    }

    /// Writes `lines` as plain text, for a program in the background: no escape byte at all.
    func writePlain(_ lines: [String]) {
        guard !lines.isEmpty, !stopped else { return }
        let bytes = Array(lines.map { TextSanitizer.line($0) + "\n" }.joined().utf8)
        let written = session?.write(bytes, to: terminal) ?? terminal.write(bytes)
        if !written { stop() }
    }

    /// Whether the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`; an
    /// unset locale counts as UTF-8, as on macOS and in most terminals).
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale else { return true }
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }
}

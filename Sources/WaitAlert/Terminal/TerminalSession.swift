/// The process's terminal as its holders reach it — the interactive overlay, a question drawn or
/// read as a line, the line modes' signal handling: the one door to descriptor 2, its modes, its
/// signals, the capture of the program's output and what is on screen.
///
/// A holder is given a session (``process``) and asks it for everything: it takes a hold saying
/// what it needs (its terminal, signals handled, where its ``TerminalEvent``s go, what standard
/// input should be) and the session reconciles every holder's wishes in one place; it hands over
/// a frame it composed, with what the frame leaves on screen, and the session writes it under the
/// one write lock and records the screen; it starts and ends the capture, whose output comes
/// back as events among the signals'. Behind the door are the guard, the relay, the forced exit's
/// lines and their shared state (``TerminalState``), which only the terminal layer names.
///
/// The session is a value with no state of its own: the process has one terminal, and the state
/// every signal handler reads is the process's. A port to another system replaces what is behind
/// these operations, not the holders.
struct TerminalSession: Sendable {
    /// What a holder asks (its terminal, signals handled, where its events go, its input wish).
    typealias Hold = TerminalGuard.Hold
    /// A holder's hold, to change or let go of.
    typealias HoldID = TerminalGuard.HoldID
    /// What a frame leaves on screen.
    typealias Screen = TerminalGuard.Screen
    /// The capture of the program's standard output and standard error.
    typealias Capture = OutputRelay
    /// What the capture caught since the last collection: finished lines, unfinished ones that
    /// waited long enough, and whether the relay printed over the screen meanwhile.
    typealias Collected = OutputRelay.Collected
    /// A line a forced exit prints for work still running.
    typealias ForcedExitLine = ForcedExitLines.Line

    /// The process's terminal: descriptor 2, and standard input when it is the same terminal.
    static let process = TerminalSession()

    private var state: TerminalState { .shared }

    // MARK: - Standard error

    /// The process's standard error.
    var standardError: WaitAlertStandardError { .shared }

    /// Whether `terminal` is this session's: the process's standard error. Only then does a
    /// holder take holds, capture output or handle signals.
    func owns(_ terminal: any WaitAlertTerminal) -> Bool {
        WaitAlertStandardError.isProcessStandardError(terminal)
    }

    /// The descriptor that reaches what `descriptor` (1 or 2) reached before the capture.
    func real(_ descriptor: Int32) -> Int32 { OutputRelay.real(descriptor) }

    // MARK: - Holds

    /// Takes a hold; the terminal is guarded while anyone holds it (``TerminalGuard/take(_:)``).
    func take(_ hold: Hold) -> HoldID { TerminalGuard.take(hold) }

    /// Makes standard input what `id`'s holder now wants: as typed, echo off, or raw.
    func setInput(_ input: TerminalGuard.InputWish, of id: HoldID) { TerminalGuard.setInput(input, of: id) }

    /// Lets go of `id`'s hold.
    func release(_ id: HoldID) { TerminalGuard.release(id) }

    /// Has Ctrl-C call `handler` instead of telling the holders, until called with `nil`.
    func divertInterrupts(to handler: (@MainActor @Sendable () -> Void)?) {
        TerminalGuard.divertInterrupts(to: handler)
    }

    /// A Ctrl-C with no work to cancel: the terminal is restored and `SIGINT` does what it would
    /// have done without WaitAlert.
    func passOnInterrupt() { TerminalGuard.passOnInterrupt() }

    /// The work a Ctrl-C interrupted has ended: the next Ctrl-C cancels again.
    func resetInterrupts() { TerminalGuard.resetInterrupts() }

    /// Records that Ctrl-C cancelled the work (a question cancelled by the user): the program's
    /// end reports it as `SIGINT`'s.
    func noteCancelledByInterrupt() {
        state.cancellingSignal.store(Signal.interrupt, ordering: .sequentiallyConsistent)
    }

    /// The signal that cancelled the work (a Ctrl-C, a `SIGTERM`), or 0: the program's end reports
    /// the cancellation as that signal's.
    var cancellingSignal: Int32 { state.cancellingSignal.load(ordering: .sequentiallyConsistent) }

    /// Forgets the signal that cancelled earlier work: new work began on its own.
    func forgetCancellingSignal() { state.cancellingSignal.store(0, ordering: .sequentiallyConsistent) }

    /// Whether `SIGTERM` and `SIGHUP` cancel the work first (``WaitAlertOverlay/ProcessIntegration``).
    func setTerminationCancels(_ cancels: Bool) {
        state.terminationCancels.store(cancels, ordering: .sequentiallyConsistent)
    }

    /// Restores the terminal when the program exits while anything is held.
    func installExitHook() { TerminalGuard.installExitHook() }

    /// Whether the program has ended (a signal handler or a crash): nothing writes any more.
    var hasEnded: Bool { state.ended.load(ordering: .sequentiallyConsistent) }

    // MARK: - The screen

    /// How many times Ctrl-Z stopped the program: a frame drawn after a stop draws afresh.
    var stops: Int { state.stops.load(ordering: .sequentiallyConsistent) }

    /// Whether lines are on screen, as the record says (lines the relay erased are not).
    var isDrawn: Bool { state.drawn.load(ordering: .sequentiallyConsistent) }

    /// Writes `bytes` unless the program is ending (``TerminalGuard/write(_:to:)``).
    func write(_ bytes: [UInt8], to terminal: any WaitAlertTerminal) -> Bool {
        TerminalGuard.write(bytes, to: terminal)
    }

    /// Writes the frame `compose` makes under the write lock, and records what it leaves on screen
    /// (``TerminalGuard/write(to:composing:)``).
    func write(
        to terminal: any WaitAlertTerminal, composing compose: () -> (bytes: [UInt8], leaves: Screen?)
    ) -> Bool {
        TerminalGuard.write(to: terminal, composing: compose)
    }

    /// Writes a frame like ``write(to:composing:)``, handing `compose` what `capture` caught since
    /// the last collection (nothing without a capture), collected under the same lock: the
    /// program's lines come out in the order it wrote them, before anything a later frame
    /// collects.
    func write(
        to terminal: any WaitAlertTerminal, collectingFrom capture: Capture?,
        composing compose: (Collected) -> (bytes: [UInt8], leaves: Screen?)
    ) -> Bool {
        write(to: terminal) { compose(capture?.collect() ?? Collected()) }
    }

    /// Writes `bytes` only while lines are on screen: a spinner frame drawn off the main actor.
    func writeIfDrawn(_ bytes: [UInt8], to terminal: any WaitAlertTerminal, brokenPipeSignalBlocked: Bool = false) {
        TerminalGuard.writeIfDrawn(bytes, to: terminal, brokenPipeSignalBlocked: brokenPipeSignalBlocked)
    }

    /// Records whether lines are on screen.
    func setDrawn(_ isDrawn: Bool) { TerminalGuard.setDrawn(isDrawn) }

    /// Takes the bytes that clear a taskbar progress, for every end to write while one shows.
    func prepareTaskbarClear(_ bytes: [UInt8]) { TerminalGuard.prepareTaskbarClear(bytes) }

    /// Records whether a taskbar progress (`OSC 9;4`) shows, so that every end clears it.
    func setTaskbarShown(_ shown: Bool) { state.taskbarShown.store(shown, ordering: .sequentiallyConsistent) }

    /// Records whether bracketed paste is on, so that every end turns it off.
    func setPasteBracketed(_ on: Bool) { state.pasteBracketed.store(on, ordering: .sequentiallyConsistent) }

    // MARK: - The capture

    /// Starts catching the program's standard error (and standard output on the same terminal):
    /// ``TerminalEvent/outputArrived`` goes to `events` when output waits; `eraseRegion` gives the
    /// bytes that erase the lines above the cursor before the relay prints over them itself.
    /// `nil` when nothing can be captured. A crash gives the descriptors back.
    func startCapture(
        events: @escaping TerminalEvents, eraseRegion: @escaping @Sendable (_ rowsAboveCursor: Int) -> String
    ) -> Capture? {
        guard let relay = OutputRelay.relay(),
            relay.capture(wake: { TerminalEvent.outputArrived.deliver(to: events) }, eraseRegion: eraseRegion)
        else { return nil }
        TerminalGuard.holdCrashHandlers()
        return relay
    }

    /// Gives the program its descriptors back; what it wrote and was not shown follows. Returns
    /// whether the relay had erased the lines to print over them (they are drawn afresh next).
    func endCapture(_ capture: Capture) -> Bool {
        defer { TerminalGuard.dropCrashHandlers() }
        guard capture.release() else { return false }
        TerminalGuard.noteRelayEraseSeen()
        return true
    }

    /// Gives the captured terminals the real one's window size.
    func followWindowSize() { OutputRelay.followWindowSize() }

    // MARK: - A forced exit

    /// The lines a second Ctrl-C leaves for the work still running, in `color` (an SGR parameter).
    func publishForcedExitLines(_ lines: [ForcedExitLine], color: String?) {
        ForcedExitLines.publish(lines, color: color)
    }

    // MARK: - A parent program's alert

    /// The parent alert this program runs under, through the socket it gave, if any.
    func connectToParent() -> ParentConnection? { EventSocket.connectToParent() }
}

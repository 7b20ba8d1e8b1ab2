import Dispatch
import Synchronization

/// The process-wide guard of a terminal under an overlay: terminal modes, signal handling, and
/// the restore path that runs whatever ends the program.
///
/// It is active while anyone holds it (``take(_:)``, ``release(_:)``): an overlay that has lines
/// to show, a question, the line modes while work runs. While active:
/// - `SIGINT` tells the holder ``TerminalEvent/interrupt`` (it cancels the work, or passes the
///   signal on when there is no work to cancel); a second `SIGINT` before the interrupted work has ended
///   restores the terminal and exits at once with status 130;
/// - `SIGTERM`, `SIGHUP` and `SIGQUIT` restore the terminal, put the previous disposition back
///   and raise the signal again, so the program ends as it would have;
/// - every other signal whose default action ends the program (``endingSignals``: `SIGPIPE`
///   from a closed pipe on standard output, `SIGUSR1`, `SIGALRM`, …) does the same, where the
///   program left it at its default: one it ignores or handles itself stays its own;
/// - `SIGWINCH` tells the holder ``TerminalEvent/resize``;
/// - `SIGTSTP` (Ctrl-Z) restores the terminal before the program stops, and `SIGCONT` continues
///   the process group registered with ``ProcessGroupGuard`` and tells the holder
///   ``TerminalEvent/resume``, which redraws the overlay if the program continues in the foreground.
///
/// A signal the program ignored stays ignored. Once a signal handler or the crash handler ends
/// the program, nothing else writes to the terminal (``TerminalState/ended``). Separately, while
/// work is running and standard input is the same terminal, echo is off (the latest holder's
/// input wish, ``Hold/input``), so typed keys are neither shown nor able to break the line, and
/// again after every `SIGCONT` that finds the program in the foreground (a stop gave the terminal
/// back); canonical mode stays
/// on and nothing typed is discarded, so typed lines reach whatever reads the terminal next. On
/// deactivation the exact terminal settings and the previous signal dispositions come back (a
/// disposition the program changed meanwhile stays the program's). An exit hook
/// (``ProcessExit``) restores the terminal if the program calls `exit()` while active, and stops
/// every later overlay write.
///
/// **Only the terminal's foreground process group touches it.** Terminal modes are changed and
/// restored, and restore bytes written, only while this process's group is the terminal's
/// foreground group: a job running in the background never changes the modes of the shell in
/// front of it, and never writes escape sequences over its prompt.
///
/// The signal handlers only call async-signal-safe functions (`write`, `poll`, `tcsetattr`,
/// `tcgetpgrp`, `sigaction`, `raise`, `_exit`) on memory prepared before they were installed,
/// and read shared state through atomics; interrupt, resize and resume reach Swift code through
/// a pipe read on a dispatch queue, and the holder as ``TerminalEvent``s on the main actor.
enum TerminalGuard {
    /// Written when the program ends abruptly: cancel any half-written escape sequence (CAN), end
    /// a synchronized update left open, return to column 0, erase the overlay below the cursor,
    /// reset colours, turn autowrap back on, show the cursor.
    static let restoreBytes: [UInt8] = Array(
        "\u{18}\u{1B}[?2026l\r\u{1B}[J\u{1B}[0m\u{1B}[?7h\u{1B}[?25h".utf8)

    /// The signals handled while active, in the order of ``SignalContext/savedActions``.
    static let guardedSignals: [Int32] =
        [
            Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit, Signal.windowChanged, Signal.terminalStop,
            Signal.continue,
        ] + endingSignals

    /// Memory the signal handlers read, allocated once and never freed, so a handler never
    /// allocates, locks or runs lazy initialisation. Written only under ``state``'s lock while no
    /// handler is installed, except ``savedModes``, which ``TerminalModes`` publishes.
    struct SignalContext {
        let savedActions = UnsafeMutablePointer<SignalAction>.allocate(capacity: guardedSignals.count)
        let installed = UnsafeMutablePointer<Bool>.allocate(capacity: guardedSignals.count)
        let handlerAction = UnsafeMutablePointer<SignalAction>.allocate(capacity: 1)
        let savedModes = UnsafeMutablePointer<Platform.TerminalSettings>.allocate(capacity: 1)
        let restore: UnsafeMutableRawBufferPointer = {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: restoreBytes.count, alignment: 1)
            buffer.copyBytes(from: restoreBytes)
            return buffer
        }()
        /// Moves the cursor one row up.
        let cursorUp: UnsafeMutableRawBufferPointer = {
            let bytes = Array("\u{1B}[A".utf8)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            buffer.copyBytes(from: bytes)
            return buffer
        }()
        /// Turns bracketed paste off.
        let endPaste: UnsafeMutableRawBufferPointer = {
            let bytes = Array("\u{1B}[?2004l".utf8)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            buffer.copyBytes(from: bytes)
            return buffer
        }()
        /// Clears the taskbar progress, as the overlay that shows it says
        /// (``prepareTaskbarClear(_:)``): ``clearTaskbarCount`` bytes.
        let clearTaskbar = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
    }

    /// Takes the bytes that clear the taskbar progress an overlay shows, for every end to write
    /// while ``taskbarShown`` is set. Called before the overlay first shows a taskbar progress.
    static func prepareTaskbarClear(_ bytes: [UInt8]) {
        state.withLock { _ in
            guard session.clearTaskbarCount.load(ordering: .sequentiallyConsistent) == 0,
                bytes.count <= context.clearTaskbar.count
            else { return }
            UnsafeMutableRawBufferPointer(rebasing: context.clearTaskbar[..<bytes.count]).copyBytes(from: bytes)
            session.clearTaskbarCount.store(bytes.count, ordering: .sequentiallyConsistent)
        }
    }

    // Read by the signal handlers, so no dynamic exclusivity bookkeeping: its pointers never
    // change, and what they point to is written as described on `SignalContext`.
    @exclusivity(unchecked) nonisolated(unsafe) static var context = SignalContext()

    struct State: @unchecked Sendable {  // holds a dispatch source
        var handlesSignals = false
        var readSource: (any DispatchSourceRead)?
        var exitHookInstalled = false
        /// Whether the guard holds the crash handlers (while active).
        var holdsCrashHandlers = false
        /// What standard input is, as its latest holder asked (``Hold/input``), made so again
        /// after a stop gave the terminal back.
        var input = InputWish.asTyped
        /// What Ctrl-C does instead of the holder's ``TerminalEvent/interrupt`` (``divertInterrupts(to:)``).
        var divertedInterrupt: (@MainActor @Sendable () -> Void)?
        /// Who holds the guard, in the order they took it (``take(_:)``).
        var holds: [(id: HoldID, hold: Hold)] = []
        /// How many holds were ever taken: the next one's number.
        var holdsTaken: UInt64 = 0
    }

    /// What the holder of the guard wants of standard input while it is the same terminal, in the
    /// foreground.
    enum InputWish {
        /// Echo and modes as they were.
        case asTyped
        /// Echo off: typed keys are neither shown nor able to break the line (canonical mode on).
        case hidden
        /// Raw: every key read as it comes, none echoed (a prompt's keyboard).
        case raw
    }

    /// Who holds the guard and what they asked for.
    static let state = Mutex(State())

    /// The process's terminal session, which holds the guard's flags.
    static var session: TerminalState { .shared }

    static var isActive: Bool { session.active.load(ordering: .acquiring) }

    /// Registers the exit restore once per process (after the exit flush, so the last final
    /// lines are printed before the terminal is restored).
    static func installExitHook() {
        let install = state.withLock { state in
            defer { state.exitHookInstalled = true }
            return !state.exitHookInstalled
        }
        if install { ProcessExit.add(.restore) { TerminalGuard.restoreForExit() } }
    }

    /// Starts guarding for the holders (``take(_:)``). Under ``state``'s lock.
    static func activate(_ state: inout State) {
        guard let latest = state.holds.last?.hold else { return }
        guard !session.active.load(ordering: .relaxed), !session.exited.load(ordering: .relaxed),
            !session.ended.load(ordering: .sequentiallyConsistent)
        else { return }
        uninstall(&state)  // a guard left installed by a stop that never resumed
        session.output.store(state.holds[0].hold.output, ordering: .sequentiallyConsistent)
        session.interrupts.store(0, ordering: .relaxed)
        state.input = .asTyped
        if handlesSignals(state) { install(&state) }
        if !state.holdsCrashHandlers {
            state.holdsCrashHandlers = true
            holdCrashHandlers()
        }
        session.active.store(true, ordering: .releasing)
        applyInput(latest.input, &state)
    }

    /// Lets go of the crash handlers once the guard is no longer active. Under ``state``'s lock.
    private static func letGoOfCrashHandlers(_ state: inout State) {
        guard state.holdsCrashHandlers else { return }
        state.holdsCrashHandlers = false
        dropCrashHandlers()
    }

    /// Records whether overlay lines are on screen (so an abrupt end must erase them). Lines the
    /// output relay erased stay off the record until the overlay draws them again (in a frame
    /// written with ``write(to:composing:)``, which records it).
    static func setDrawn(_ isDrawn: Bool) {
        session.lock.withLock { _ in
            guard !(isDrawn && session.erasedByRelay.load(ordering: .sequentiallyConsistent)) else {
                return
            }
            session.drawn.store(isDrawn, ordering: .sequentiallyConsistent)
        }
    }

    /// Makes standard input what `input` says — echo off, or raw, or as typed — when it is the
    /// same terminal as the output and this process is in the foreground; does nothing otherwise.
    /// Echo stays off across Ctrl-Z: the stop gives the terminal back, and `fg` turns it off again
    /// (``blockInputAgain()``). Under ``state``'s lock, while active.
    static func applyInput(_ input: InputWish, _ state: inout State) {
        guard input != state.input, session.active.load(ordering: .relaxed),
            !session.ended.load(ordering: .sequentiallyConsistent)
        else { return }
        state.input = input
        if input == .asTyped {
            TerminalModes.restore()
        } else {
            TerminalModes.block(
                sameAs: OutputRelay.real(session.output.load(ordering: .sequentiallyConsistent)), raw: input == .raw)
        }
    }

    /// After `SIGCONT`: a stop (Ctrl-Z) put the terminal's modes back before the program stopped;
    /// in the foreground again, standard input is blocked again as its holder asked — a secret
    /// typed after `fg` is not shown, whoever holds the guard and whatever it does on resuming.
    static func blockInputAgain() {
        state.withLock { state in
            guard session.active.load(ordering: .relaxed),
                !session.ended.load(ordering: .sequentiallyConsistent),
                state.input != .asTyped
            else { return }
            TerminalModes.block(
                sameAs: OutputRelay.real(session.output.load(ordering: .sequentiallyConsistent)),
                raw: state.input == .raw)
        }
    }

    /// Has Ctrl-C call `handler` (on the main actor) instead of telling whoever holds the guard,
    /// until called with `nil`: a question read as a line takes Ctrl-C for itself (it cancels the
    /// question, and counts for no forced exit), whoever holds the guard.
    static func divertInterrupts(to handler: (@MainActor @Sendable () -> Void)?) {
        state.withLock { $0.divertedInterrupt = handler }
    }

    /// Carries out a Ctrl-C: the diverted handler if any (the Ctrl-C then counts for no forced
    /// exit), else the holder's ``TerminalEvent/interrupt``.
    static func interrupt(_ events: TerminalEvents?) {
        guard let diverted = state.withLock({ $0.divertedInterrupt }) else {
            if let events { TerminalEvent.interrupt.deliver(to: events) }
            return
        }
        resetInterrupts()
        Task { @MainActor in diverted() }
    }

    /// Forgets the Ctrl-C already counted: the work it interrupted has ended, so the next one
    /// cancels the next work instead of ending the program.
    static func resetInterrupts() {
        session.interrupts.store(0, ordering: .relaxed)
    }

    /// Stops guarding once nobody holds it: puts back the terminal modes and signal
    /// dispositions. Under ``state``'s lock.
    static func deactivate(_ state: inout State) {
        session.active.store(false, ordering: .releasing)
        state.input = .asTyped
        session.lock.withLock { _ in
            session.drawn.store(false, ordering: .sequentiallyConsistent)
            session.erasedByRelay.store(false, ordering: .sequentiallyConsistent)
        }
        uninstall(&state)
        letGoOfCrashHandlers(&state)
        TerminalModes.restore()
    }

    /// Writes `bytes` through `terminal` unless the program is exiting; `false` once it is (or the
    /// write failed). Overlay writes and the exit restore never interleave, and no overlay write
    /// lands after a signal handler's restore: while the handler has quieted the overlay (the
    /// program is about to end or to stop), the bytes are dropped.
    static func write(_ bytes: [UInt8], to terminal: any WaitAlertTerminal) -> Bool {
        write(to: terminal) { (bytes, nil) }
    }

    /// What a frame leaves on screen (``TerminalState/Screen``).
    typealias Screen = TerminalState.Screen

    /// Writes a frame `compose` makes under the write lock, like ``write(_:to:)`` — what a frame
    /// collects (the program's captured output) is written in the order it was collected, never
    /// after a later frame's; nothing is composed while quieted — and records what it leaves on
    /// screen with the write that puts it there — the one record of the
    /// screen, which the relay erases before printing over it and every abrupt end erases.
    static func write(
        to terminal: any WaitAlertTerminal, composing compose: () -> (bytes: [UInt8], leaves: Screen?)
    ) -> Bool {
        // Dropped is not failed: after `SIGCONT` the overlay draws afresh.
        session.write(composing: compose, through: terminal.write) ?? true
    }

    /// The overlay saw that the relay erased its lines and will draw them afresh: they are off the
    /// record until it does.
    static func noteRelayEraseSeen() {
        session.lock.withLock { _ in
            session.erasedByRelay.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Writes `bytes` like ``write(_:to:)``, only while overlay lines are on screen: a spinner
    /// frame written off the main actor never lands after a stop erased the lines.
    static func writeIfDrawn(
        _ bytes: [UInt8], to terminal: any WaitAlertTerminal, brokenPipeSignalBlocked: Bool = false
    ) {
        guard !session.exited.load(ordering: .acquiring) else { return }
        session.lock.withLock { _ in
            guard !session.exited.load(ordering: .relaxed),
                session.drawn.load(ordering: .sequentiallyConsistent)
            else {
                return
            }
            session.beginWrite()
            defer { session.endWrite() }
            guard session.mayWrite else { return }
            if brokenPipeSignalBlocked, let standardError = terminal as? WaitAlertStandardError {
                _ = standardError.write(bytes, brokenPipeSignalBlocked: true)
            } else {
                _ = terminal.write(bytes)
            }
        }
    }

    /// Restores the screen and modes for a program that is exiting; stops later overlay writes.
    static func restoreForExit() {
        // A handler is ending the program on a signal (it restores the terminal and hands the
        // output off itself): the exit waits for the signal to end it, as it asked — a command
        // the handler stopped would otherwise let the work fail and the program exit first, with
        // a status of its own and half of the hand-off done. At most two seconds.
        // What `print` left in standard output's buffer goes out first: the signal skips the flush
        // an exit does.
        if session.ended.load(ordering: .sequentiallyConsistent) { Platform.flushStandardOutput() }
        var waits = 0
        while session.ended.load(ordering: .sequentiallyConsistent), waits < 200 {
            Platform.sleep(for: .milliseconds(10))
            waits += 1
        }
        session.exited.store(true, ordering: .releasing)
        state.withLock { _ in
            guard session.active.exchange(false, ordering: .acquiringAndReleasing) else { return }
            session.lock.withLock { _ in eraseIfDrawn() }
            TerminalModes.restore()
        }
        // Then what the program printed under the overlay and was not shown yet (outside the
        // lock: flushing may wait on a write that waits on the relay); processes still writing
        // through the capture keep a working output.
        OutputRelay.shared.withLock { $0 }?.release()
        OutputRelay.handOffAtEnd()
    }

    /// A Ctrl-C with no work to cancel: restore the terminal and let `SIGINT` do what it would
    /// have done without the overlay.
    ///
    /// The overlay is quieted first, so no frame drawn meanwhile (off the main actor, or by a
    /// step already under way) lands after the erase, and what the program printed under the
    /// overlay reaches the terminal before the signal ends it. A program that handles `SIGINT`
    /// itself and goes on draws again.
    static func passOnInterrupt() {
        let wasActive = state.withLock { state -> Bool in
            let wasActive = session.active.exchange(false, ordering: .acquiringAndReleasing)
            if wasActive {
                session.lock.withLock { _ in
                    session.quieted.store(true, ordering: .sequentiallyConsistent)
                    eraseIfDrawn()
                }
                TerminalModes.restore()
            }
            uninstall(&state)
            letGoOfCrashHandlers(&state)
            return wasActive
        }
        guard wasActive else { return }
        OutputRelay.shared.withLock { $0 }?.release()
        Platform.signalThisProcess(Signal.interrupt)
        session.quieted.store(false, ordering: .sequentiallyConsistent)
    }

    /// Writes the restore bytes if overlay lines are on screen and this process is in the
    /// terminal's foreground. Async-signal-safe.
    static func eraseIfDrawn() {
        let erases = session.drawn.exchange(false, ordering: .sequentiallyConsistent)
        let clearsTaskbar = session.taskbarShown.exchange(false, ordering: .sequentiallyConsistent)
        let endsPaste = session.pasteBracketed.exchange(false, ordering: .sequentiallyConsistent)
        guard erases || clearsTaskbar || endsPaste else { return }
        let output = OutputRelay.real(session.output.load(ordering: .sequentiallyConsistent))
        guard output >= 0, Platform.isForeground(output) else { return }
        if endsPaste { _ = Platform.writeAll(UnsafeRawBufferPointer(context.endPaste), to: output) }
        if clearsTaskbar {
            let count = session.clearTaskbarCount.load(ordering: .sequentiallyConsistent)
            _ = Platform.writeAll(
                UnsafeRawBufferPointer(rebasing: context.clearTaskbar[..<count]), to: output)
        }
        if erases {
            for _ in 0..<min(session.rowsAboveCursor.exchange(0, ordering: .sequentiallyConsistent), 64) {
                _ = Platform.writeAll(UnsafeRawBufferPointer(context.cursorUp), to: output)
            }
            _ = Platform.writeAll(UnsafeRawBufferPointer(context.restore), to: output)
        }
    }

}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import Synchronization

/// The process-wide guard of a terminal under an overlay: terminal modes, signal handling, and
/// the restore path that runs whatever ends the program.
///
/// It is active only while an overlay shows something. While active:
/// - if standard input is the same terminal, echo and canonical mode are off, so typed keys are
///   neither shown nor able to break the line (Ctrl-C still raises `SIGINT`);
/// - `SIGINT` calls the interrupt handler (which cancels the work); a second `SIGINT` restores the
///   terminal and exits at once with status 130;
/// - `SIGTERM` and `SIGHUP` restore the terminal, put the previous disposition back and raise the
///   signal again, so the program ends with the signal's conventional status;
/// - `SIGWINCH` calls the resize handler;
/// - `SIGTSTP` (Ctrl-Z) restores the terminal before the program stops, and `SIGCONT` puts the
///   modes back and calls the resume handler, which redraws the overlay where the shell left the
///   cursor.
/// On deactivation the exact terminal settings and the previous signal dispositions come back.
/// An `atexit` hook restores the terminal if the program calls `exit()` while active, and stops
/// every later overlay write so nothing is drawn after the restore.
///
/// The signal handlers only call async-signal-safe functions (`write`, `tcsetattr`, `sigaction`,
/// `raise`, `_exit`); interrupt and resize reach Swift code through a pipe read on a dispatch queue.
enum TerminalGuard {
    struct Handlers: Sendable {
        var interrupt: @Sendable () -> Void
        var resize: @Sendable () -> Void
        var resume: @Sendable () -> Void = {}
    }

    /// Written when the program ends abruptly: cancel any half-written escape sequence (CAN),
    /// return to column 0, erase the overlay below the cursor, reset colours, show the cursor.
    static let restoreBytes: [UInt8] = Array("\u{18}\r\u{1B}[J\u{1B}[0m\u{1B}[?25h".utf8)

    static let guardedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// What the signal handlers read. Written only while no handler is installed.
    private struct SignalContext {
        var output: Int32 = -1
        var input: Int32 = -1
        var savedModes = termios()
        var savedActions: [sigaction] = Array(repeating: .init(), count: 6)
        var handlerAction = sigaction()
        var defaultAction = sigaction()
        var notify: Int32 = -1
    }

    // Read by the signal handlers, so no dynamic exclusivity bookkeeping: writes happen only
    // under `state`'s lock while no handler is installed, or in the handlers themselves.
    @exclusivity(unchecked) nonisolated(unsafe) private static var context = SignalContext()
    @exclusivity(unchecked) nonisolated(unsafe) private static var restoreBuffer = restoreBytes

    private struct State: @unchecked Sendable {  // holds C structs and a dispatch source
        var handlesSignals = false
        var readSource: (any DispatchSourceRead)?
        var pipe: (read: Int32, write: Int32) = (-1, -1)
        var exitHookInstalled = false
        var exited = false
    }

    private static let state = Mutex(State())
    private static let active = Atomic<Bool>(false)
    private static let interrupts = Atomic<Int>(0)
    private static let suspended = Atomic<Bool>(false)

    static var isActive: Bool { active.load(ordering: .acquiring) }

    /// Registers the `atexit` restore once per process.
    static func installExitHook() {
        state.withLock { state in
            guard !state.exitHookInstalled else { return }
            state.exitHookInstalled = true
            atexit { TerminalGuard.restoreForExit() }
        }
    }

    /// Starts guarding `output` (a terminal descriptor).
    static func activate(output: Int32, blocksInput: Bool, handlesSignals: Bool, handlers: Handlers) {
        installExitHook()
        state.withLock { state in
            guard !active.load(ordering: .relaxed), !state.exited else { return }
            context.output = output
            context.input = -1
            interrupts.store(0, ordering: .relaxed)
            uninstall(&state)  // a guard left installed by a stop that never resumed
            if blocksInput, let input = sameTerminalInput(as: output), tcgetattr(input, &context.savedModes) == 0 {
                var modes = context.savedModes
                modes.c_lflag &= ~tcflag_t(ECHO | ICANON)
                if tcsetattr(input, TCSANOW, &modes) == 0 { context.input = input }
            }
            if handlesSignals { install(&state, handlers: handlers) }
            active.store(true, ordering: .releasing)
        }
    }

    /// Stops guarding: puts back the terminal modes and signal dispositions.
    static func deactivate() {
        state.withLock { state in
            if active.exchange(false, ordering: .acquiringAndReleasing) {
                restoreModes()
            } else {
                context.input = -1  // already restored by a signal
            }
            uninstall(&state)
        }
    }

    /// Writes `bytes` through `terminal` unless the program is exiting; `false` once it is (or the
    /// write failed). Overlay writes and the exit restore never interleave.
    static func write(_ bytes: [UInt8], to terminal: any WaitAlertTerminal) -> Bool {
        state.withLock { state in
            state.exited ? false : terminal.write(bytes)
        }
    }

    /// Restores the screen and modes for a program that is exiting; stops later overlay writes.
    static func restoreForExit() {
        state.withLock { state in
            state.exited = true
            guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
            _ = restoreBytes.withUnsafeBytes { StandardError.writeAll($0, to: context.output) }
            restoreModes()
        }
    }

    private static func restoreModes() {
        if context.input >= 0 {
            _ = tcsetattr(context.input, TCSAFLUSH, &context.savedModes)  // discards keys typed meanwhile
            context.input = -1
        }
    }

    /// Standard input, when it is the same terminal device as `output`.
    private static func sameTerminalInput(as output: Int32) -> Int32? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var inputStat = stat()
        var outputStat = stat()
        guard fstat(STDIN_FILENO, &inputStat) == 0, fstat(output, &outputStat) == 0,
              inputStat.st_rdev == outputStat.st_rdev else { return nil }
        return STDIN_FILENO
    }

    private static func install(_ state: inout State, handlers: Handlers) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        state.pipe = (ends[0], ends[1])
        context.notify = ends[1]
        let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: .global(qos: .userInteractive))
        source.setEventHandler {
            var signals = [UInt8](repeating: 0, count: 16)
            let count = read(ends[0], &signals, signals.count)
            for signal in signals.prefix(max(count, 0)) {
                switch Int32(signal) {
                case SIGINT: handlers.interrupt()
                case SIGCONT: resume(handlers)
                default: handlers.resize()
                }
            }
        }
        source.setCancelHandler { close(ends[0]) }
        source.resume()
        state.readSource = source
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { TerminalGuard.handle($0) }
        #else
            action.__sigaction_u.__sa_handler = { TerminalGuard.handle($0) }
        #endif
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        context.handlerAction = action
        context.defaultAction = sigaction()  // SIG_DFL
        suspended.store(false, ordering: .relaxed)
        for (index, signal) in guardedSignals.enumerated() {
            sigaction(signal, &action, &context.savedActions[index])
        }
        state.handlesSignals = true
    }

    private static func uninstall(_ state: inout State) {
        guard state.handlesSignals else { return }
        state.handlesSignals = false
        for (index, signal) in guardedSignals.enumerated() {
            sigaction(signal, &context.savedActions[index], nil)
        }
        context.notify = -1
        state.readSource?.cancel()
        state.readSource = nil
        close(state.pipe.write)
        state.pipe = (-1, -1)
    }

    /// The signal handler. Async-signal-safe: no allocation, no lock.
    private static func handle(_ signal: Int32) {
        switch signal {
        case SIGINT where interrupts.add(1, ordering: .relaxed).newValue >= 2:
            restoreFromSignal()
            _exit(130)
        case SIGINT, SIGWINCH:
            notify(signal)
        case SIGTSTP:
            restoreFromSignal()
            suspended.store(true, ordering: .relaxed)
            sigaction(SIGTSTP, &context.defaultAction, nil)
            raise(SIGTSTP)  // stops the program once this handler returns
        case SIGCONT:
            sigaction(SIGTSTP, &context.handlerAction, nil)
            if suspended.exchange(false, ordering: .relaxed) { notify(SIGCONT) }
        default:
            restoreFromSignal()
            if let index = guardedSignals.firstIndex(of: signal) {
                sigaction(signal, &context.savedActions[index], nil)
            }
            raise(signal)  // delivered with the previous disposition once this handler returns
        }
    }

    private static func notify(_ signal: Int32) {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = systemWrite(context.notify, &byte, 1)
    }

    /// After a stop: the terminal modes again, then the resume handler (which redraws).
    private static func resume(_ handlers: Handlers) {
        let resumed = state.withLock { state -> Bool in
            guard state.handlesSignals, !state.exited, !active.load(ordering: .relaxed) else { return false }
            if context.input >= 0 {
                var modes = context.savedModes
                modes.c_lflag &= ~tcflag_t(ECHO | ICANON)
                _ = tcsetattr(STDIN_FILENO, TCSANOW, &modes)
                context.input = STDIN_FILENO
            }
            active.store(true, ordering: .releasing)
            return true
        }
        if resumed { handlers.resume() }
    }

    private static func restoreFromSignal() {
        guard active.exchange(false, ordering: .relaxed) else { return }
        restoreBuffer.withUnsafeMutableBytes { buffer in
            _ = StandardError.writeAll(UnsafeRawBufferPointer(buffer), to: context.output)
        }
        if context.input >= 0 { _ = tcsetattr(context.input, TCSAFLUSH, &context.savedModes) }
    }
}

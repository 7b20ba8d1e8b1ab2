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
/// - `SIGWINCH` calls the resize handler.
/// On deactivation the exact terminal settings and the previous signal dispositions come back.
/// An `atexit` hook restores the terminal if the program calls `exit()` while active.
enum TerminalGuard {
    struct Handlers: Sendable {
        var interrupt: @Sendable () -> Void
        var resize: @Sendable () -> Void
    }

    /// Written when the program ends abruptly: cancel any half-written escape sequence (CAN),
    /// return to column 0, erase the overlay below the cursor, reset colours, show the cursor.
    static let restoreBytes: [UInt8] = Array("\u{18}\r\u{1B}[J\u{1B}[0m\u{1B}[?25h".utf8)

    private struct State: @unchecked Sendable {  // termios and sigaction are plain C structs
        var output: Int32 = -1
        var input: Int32?
        var savedModes = termios()
        var savedActions: [Int32: sigaction] = [:]
        var sources: [any DispatchSourceSignal] = []
        var interrupts = 0
        var exitHookInstalled = false
    }

    private static let state = Mutex(State())
    private static let active = Atomic<Bool>(false)

    static var isActive: Bool { active.load(ordering: .acquiring) }

    /// Starts guarding `output` (a terminal descriptor).
    static func activate(output: Int32, blocksInput: Bool, handlesSignals: Bool, handlers: Handlers) {
        state.withLock { state in
            guard !active.load(ordering: .relaxed) else { return }
            state.output = output
            state.interrupts = 0
            if blocksInput, let input = sameTerminalInput(as: output), tcgetattr(input, &state.savedModes) == 0 {
                var modes = state.savedModes
                modes.c_lflag &= ~tcflag_t(ECHO | ICANON)
                if tcsetattr(input, TCSANOW, &modes) == 0 { state.input = input }
            }
            if handlesSignals { install(&state, handlers: handlers) }
            if !state.exitHookInstalled {
                state.exitHookInstalled = true
                atexit { TerminalGuard.restoreForExit() }
            }
            active.store(true, ordering: .releasing)
        }
    }

    /// Stops guarding: puts back the terminal modes and signal dispositions.
    static func deactivate() {
        state.withLock { state in
            guard active.load(ordering: .relaxed) else { return }
            active.store(false, ordering: .releasing)
            restoreModes(&state)
            uninstall(&state)
        }
    }

    /// Restores the screen and modes without touching signal handling; for `exit()` and signals.
    static func restoreForExit() {
        guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        state.withLock { state in
            _ = restoreBytes.withUnsafeBytes { StandardError.writeAll($0, to: state.output) }
            restoreModes(&state)
        }
    }

    private static func restoreModes(_ state: inout State) {
        if let input = state.input {
            _ = tcsetattr(input, TCSAFLUSH, &state.savedModes)  // discards keys typed meanwhile
            state.input = nil
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
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] {
            var previous = sigaction()
            guard sigaction(signal, nil, &previous) == 0 else { continue }
            state.savedActions[signal] = previous
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global(qos: .userInteractive))
            source.setEventHandler { handle(signal, handlers: handlers) }
            source.resume()
            state.sources.append(source)
        }
    }

    private static func uninstall(_ state: inout State) {
        state.sources.forEach { $0.cancel() }
        state.sources = []
        for (signal, action) in state.savedActions {
            var action = action
            sigaction(signal, &action, nil)
        }
        state.savedActions = [:]
    }

    private static func handle(_ signal: Int32, handlers: Handlers) {
        switch signal {
        case SIGINT:
            let count = state.withLock { state in
                state.interrupts += 1
                return state.interrupts
            }
            if count == 1 {
                handlers.interrupt()
            } else {
                restoreForExit()
                _exit(130)
            }
        case SIGWINCH:
            handlers.resize()
        default:
            restoreForExit()
            state.withLock { uninstall(&$0) }
            raise(signal)
            // A previous disposition that ignores the signal lets the program go on unguarded.
        }
    }
}

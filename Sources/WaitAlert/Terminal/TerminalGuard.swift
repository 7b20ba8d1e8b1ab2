import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process-wide guard of a terminal under an overlay: terminal modes, signal handling, and
/// the restore path that runs whatever ends the program.
///
/// It is active only while an overlay shows something. While active:
/// - `SIGINT` calls the interrupt handler (which cancels the work, or passes the signal on when
///   there is no work to cancel); a second `SIGINT` restores the terminal and exits at once with
///   status 130;
/// - `SIGTERM`, `SIGHUP` and `SIGQUIT` restore the terminal, put the previous disposition back
///   and raise the signal again, so the program ends as it would have;
/// - `SIGWINCH` calls the resize handler;
/// - `SIGTSTP` (Ctrl-Z) restores the terminal before the program stops, and `SIGCONT` puts the
///   modes back and calls the resume handler, which redraws the overlay where the shell left the
///   cursor.
/// A signal the program ignored stays ignored. Separately, while work is running and standard
/// input is the same terminal in the foreground, echo and canonical mode are off (``blockInput(_:)``),
/// so typed keys are neither shown nor able to break the line. On deactivation the exact terminal
/// settings and the previous signal dispositions come back. An `atexit` hook restores the
/// terminal if the program calls `exit()` while active, and stops every later overlay write.
///
/// The signal handlers only call async-signal-safe functions (`write`, `poll`, `tcsetattr`,
/// `sigaction`, `raise`, `_exit`) on memory prepared before they were installed; interrupt, resize
/// and resume reach Swift code through a pipe read on a dispatch queue.
enum TerminalGuard {
    struct Handlers: Sendable {
        var interrupt: @Sendable () -> Void
        var resize: @Sendable () -> Void
        var resume: @Sendable () -> Void
    }

    /// Written when the program ends abruptly: cancel any half-written escape sequence (CAN),
    /// return to column 0, erase the overlay below the cursor, reset colours, show the cursor.
    static let restoreBytes: [UInt8] = Array("\u{18}\r\u{1B}[J\u{1B}[0m\u{1B}[?25h".utf8)

    /// The signals handled while active, in the order of ``SignalContext/savedActions``.
    static let guardedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT]

    /// What the signal handlers read: plain values and memory allocated once, never freed, so a
    /// handler never allocates, locks or runs lazy initialisation.
    private struct SignalContext {
        var output: Int32 = -1
        var input: Int32 = -1
        var savedModes = termios()
        var notify: Int32 = -1
        let savedActions = UnsafeMutablePointer<sigaction>.allocate(capacity: guardedSignals.count)
        let installed = UnsafeMutablePointer<Bool>.allocate(capacity: guardedSignals.count)
        let handlerAction = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        let restore: UnsafeMutableRawBufferPointer = {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: restoreBytes.count, alignment: 1)
            buffer.copyBytes(from: restoreBytes)
            return buffer
        }()
    }

    // Read by the signal handlers, so no dynamic exclusivity bookkeeping: written under `state`'s
    // lock, before handlers are installed or by the handlers themselves.
    @exclusivity(unchecked) nonisolated(unsafe) private static var context = SignalContext()

    private struct State: @unchecked Sendable {  // holds a dispatch source
        var handlesSignals = false
        var readSource: (any DispatchSourceRead)?
        var exitHookInstalled = false
    }

    private static let state = Mutex(State())
    private static let active = Atomic<Bool>(false)
    private static let exited = Atomic<Bool>(false)
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
    static func activate(output: Int32, handlesSignals: Bool, handlers: Handlers) {
        installExitHook()
        state.withLock { state in
            guard !active.load(ordering: .relaxed), !exited.load(ordering: .relaxed) else { return }
            uninstall(&state)  // a guard left installed by a stop that never resumed
            context.output = output
            interrupts.store(0, ordering: .relaxed)
            if handlesSignals { install(&state, handlers: handlers) }
            active.store(true, ordering: .releasing)
        }
    }

    /// Turns echo and canonical mode off (or back on) on standard input, when it is the same
    /// terminal as the output and in the foreground; does nothing otherwise.
    static func blockInput(_ blocked: Bool) {
        state.withLock { _ in
            guard active.load(ordering: .relaxed) else { return }
            if blocked, context.input < 0, let input = foregroundInput(sameAs: context.output) {
                var saved = termios()
                guard tcgetattr(input, &saved) == 0 else { return }
                var modes = saved
                modes.c_lflag &= ~tcflag_t(ECHO | ICANON)
                context.savedModes = saved
                if tcsetattr(input, TCSANOW, &modes) == 0 { context.input = input }
            } else if !blocked {
                restoreModes()
            }
        }
    }

    /// Stops guarding: puts back the terminal modes and signal dispositions.
    static func deactivate() {
        state.withLock { state in
            let wasActive = active.exchange(false, ordering: .acquiringAndReleasing)
            uninstall(&state)
            if wasActive { restoreModes() } else { context.input = -1 }  // else a signal restored them
        }
    }

    /// Writes `bytes` through `terminal` unless the program is exiting; `false` once it is (or the
    /// write failed). Overlay writes and the exit restore never interleave.
    static func write(_ bytes: [UInt8], to terminal: any WaitAlertTerminal) -> Bool {
        guard !exited.load(ordering: .acquiring) else { return false }
        return state.withLock { _ in
            exited.load(ordering: .relaxed) ? false : terminal.write(bytes)
        }
    }

    /// Restores the screen and modes for a program that is exiting; stops later overlay writes.
    static func restoreForExit() {
        exited.store(true, ordering: .releasing)
        state.withLock { _ in
            guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
            _ = StandardError.writeAll(UnsafeRawBufferPointer(context.restore), to: context.output)
            restoreModes()
        }
    }

    /// A Ctrl-C with no work to cancel: restore the terminal and let `SIGINT` do what it would
    /// have done without the overlay.
    static func passOnInterrupt() {
        let wasActive = state.withLock { state -> Bool in
            let wasActive = active.exchange(false, ordering: .acquiringAndReleasing)
            if wasActive {
                _ = StandardError.writeAll(UnsafeRawBufferPointer(context.restore), to: context.output)
                restoreModes()
            }
            uninstall(&state)
            return wasActive
        }
        if wasActive { kill(getpid(), SIGINT) }
    }

    private static func restoreModes() {
        if context.input >= 0 {
            _ = tcsetattr(context.input, TCSAFLUSH, &context.savedModes)  // discards keys typed meanwhile
            context.input = -1
        }
    }

    /// Standard input, when it is the same terminal device as `output` and this process group is
    /// its foreground (a background job never touches the modes of the program in front).
    private static func foregroundInput(sameAs output: Int32) -> Int32? {
        guard isatty(STDIN_FILENO) == 1, tcgetpgrp(STDIN_FILENO) == getpgrp() else { return nil }
        var inputStat = stat()
        var outputStat = stat()
        guard fstat(STDIN_FILENO, &inputStat) == 0, fstat(output, &outputStat) == 0,
            inputStat.st_rdev == outputStat.st_rdev
        else { return nil }
        return STDIN_FILENO
    }

    private static func install(_ state: inout State, handlers: Handlers) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        context.notify = writeEnd
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global(qos: .userInteractive))
        source.setEventHandler {
            var signals = [UInt8](repeating: 0, count: 16)
            let count = read(readEnd, &signals, signals.count)
            for signal in signals.prefix(max(count, 0)) {
                switch Int32(signal) {
                case SIGINT: handlers.interrupt()
                case SIGCONT: resume(handlers)
                default: handlers.resize()
                }
            }
        }
        source.setCancelHandler {
            close(readEnd)
            close(writeEnd)
        }
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
        context.handlerAction.pointee = action
        suspended.store(false, ordering: .relaxed)
        // A process group that is its session's own (no job-control shell above it) is orphaned:
        // the system discards Ctrl-Z for it, so the overlay leaves Ctrl-Z alone there too.
        let jobControl = getpgrp() != getsid(0)
        for (index, signal) in guardedSignals.enumerated() {
            context.installed[index] = false
            guard sigaction(signal, nil, &context.savedActions[index]) == 0 else { continue }
            if !jobControl, signal == SIGTSTP || signal == SIGCONT { continue }
            if signal != SIGWINCH, signal != SIGCONT, isIgnored(context.savedActions[index]) { continue }
            context.installed[index] = sigaction(signal, context.handlerAction, nil) == 0
        }
        state.handlesSignals = true
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
            unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
        #else
            unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == 1
        #endif
    }

    private static func uninstall(_ state: inout State) {
        guard state.handlesSignals else { return }
        state.handlesSignals = false
        for (index, signal) in guardedSignals.enumerated() where context.installed[index] {
            sigaction(signal, &context.savedActions[index], nil)
            context.installed[index] = false
        }
        context.notify = -1
        state.readSource?.cancel()  // closes the pipe once no event handler runs
        state.readSource = nil
    }

    /// After a stop: the terminal modes again, then the resume handler (which redraws).
    private static func resume(_ handlers: Handlers) {
        let resumed = state.withLock { state -> Bool in
            guard state.handlesSignals, !exited.load(ordering: .relaxed), !active.load(ordering: .relaxed) else {
                return false
            }
            if context.input >= 0 {
                var modes = context.savedModes
                modes.c_lflag &= ~tcflag_t(ECHO | ICANON)
                _ = tcsetattr(context.input, TCSANOW, &modes)
            }
            active.store(true, ordering: .releasing)
            return true
        }
        if resumed { handlers.resume() }
    }

    /// The signal handler. Async-signal-safe: no allocation, no lock, `errno` preserved.
    private static func handle(_ signal: Int32) {
        let savedErrno = errno
        defer { errno = savedErrno }
        switch signal {
        case SIGINT where interrupts.add(1, ordering: .relaxed).newValue >= 2:
            restoreFromSignal()
            _exit(130)
        case SIGINT, SIGWINCH:
            notify(signal)
        case SIGTSTP:
            restoreFromSignal()
            suspended.store(true, ordering: .relaxed)
            putBack(SIGTSTP)
            raise(SIGTSTP)  // stops the program once this handler returns
        case SIGCONT:
            if let index = guardedSignals.firstIndex(of: SIGTSTP), context.installed[index] {
                sigaction(SIGTSTP, context.handlerAction, nil)
            }
            if suspended.exchange(false, ordering: .relaxed) { notify(SIGCONT) }
        default:
            restoreFromSignal()
            putBack(signal)
            raise(signal)  // delivered with the previous disposition once this handler returns
        }
    }

    private static func putBack(_ signal: Int32) {
        if let index = guardedSignals.firstIndex(of: signal) {
            sigaction(signal, &context.savedActions[index], nil)
        }
    }

    private static func notify(_ signal: Int32) {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = systemWrite(context.notify, &byte, 1)
    }

    private static func restoreFromSignal() {
        guard active.exchange(false, ordering: .relaxed) else { return }
        _ = StandardError.writeAll(UnsafeRawBufferPointer(context.restore), to: context.output)
        if context.input >= 0 { _ = tcsetattr(context.input, TCSAFLUSH, &context.savedModes) }
    }
}

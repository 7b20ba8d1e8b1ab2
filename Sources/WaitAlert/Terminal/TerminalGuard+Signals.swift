import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension TerminalGuard {
    /// The signals besides `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` whose default action ends
    /// the program (terminate, or dump core), and which are not a crash (``crashSignals``): a
    /// write to a closed pipe (`SIGPIPE`, `prog | head -1`), `kill -USR1`, a timer, a resource
    /// limit, the real-time signals. Handled only where the program left them at their default.
    static let endingSignals: [Int32] = {
        #if os(Linux)
            let named = [
                SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT,
                SIGSYS,
            ]
            // The C library keeps the first real-time signals for itself; the rest end a program.
            return named + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
        #else
            return [SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS, SIGEMT]
        #endif
    }()

    /// Whether the guard installs its handler for `signal`, whose disposition was `previous`: the
    /// signals it always guards unless ignored (`SIGWINCH` and `SIGCONT` even then, their default
    /// being to do nothing), the ending signals only at their default; Ctrl-Z and `SIGCONT` only
    /// under job control.
    static func handles(_ signal: Int32, previous: sigaction, jobControl: Bool) -> Bool {
        if !jobControl, signal == SIGTSTP || signal == SIGCONT { return false }
        if endingSignals.contains(signal) { return handler(of: previous) == 0 }  // SIG_DFL
        return signal == SIGWINCH || signal == SIGCONT || handler(of: previous) != 1  // SIG_IGN
    }

    /// Installs the signal handlers and the pipe that carries interrupt, resize and resume to
    /// Swift code, to the holder that takes events when each comes (``currentEvents``). Under
    /// ``state``'s lock.
    static func install(_ state: inout State) {
        OutputRelay.prepareForSignals()
        TerminalState.prepareForSignals()  // a handler never runs lazy initialisation
        ProcessGroupGuard.prepareForSignals()
        guard let (readEnd, writeEnd) = Platform.nonBlockingPipe() else { return }
        session.notifyDescriptor.store(writeEnd, ordering: .sequentiallyConsistent)
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global(qos: .userInteractive))
        source.setEventHandler {
            var signals = [UInt8](repeating: 0, count: 16)
            let count = read(readEnd, &signals, signals.count)
            let events = currentEvents
            for signal in signals.prefix(max(count, 0)) {
                switch Int32(signal) {
                case SIGINT: interrupt(events)
                case SIGCONT:
                    blockInputAgain()
                    if let events { TerminalEvent.resume.deliver(to: events) }
                case SIGTSTP: checkForDiscardedStop(after: session.stops.load(ordering: .sequentiallyConsistent))
                default: if let events { TerminalEvent.resize.deliver(to: events) }
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
        session.suspended.store(false, ordering: .relaxed)
        // A process group that is its session's own (no job-control shell above it) is orphaned:
        // the system discards Ctrl-Z for it, so the overlay leaves Ctrl-Z alone there too.
        let jobControl = getpgrp() != getsid(0)
        for (index, signal) in guardedSignals.enumerated() {
            context.installed[index] = false
            guard sigaction(signal, nil, &context.savedActions[index]) == 0,
                handles(signal, previous: context.savedActions[index], jobControl: jobControl)
            else { continue }
            context.installed[index] = sigaction(signal, context.handlerAction, nil) == 0
        }
        state.handlesSignals = true
    }

    /// Whether `signal`'s disposition before the guard was the default, which ends the program
    /// for the signals that reach the default branch. Async-signal-safe.
    private static func endsProgram(_ signal: Int32) -> Bool {
        guard let index = guardedSignals.firstIndex(of: signal) else { return false }
        return handler(of: context.savedActions[index]) == 0
    }

    /// The handler of `action` as a number: 0 for `SIG_DFL`, 1 for `SIG_IGN`. Async-signal-safe.
    private static func handler(of action: sigaction) -> Int {
        #if canImport(Glibc)
            unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        #else
            unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
        #endif
    }

    /// Puts the previous signal dispositions back and closes the pipe. Under ``state``'s lock. A
    /// disposition the program set while the guard was installed stays.
    static func uninstall(_ state: inout State) {
        guard state.handlesSignals else { return }
        state.handlesSignals = false
        let ours = handler(of: context.handlerAction.pointee)
        for (index, signal) in guardedSignals.enumerated() where context.installed[index] {
            var current = sigaction()
            if sigaction(signal, nil, &current) != 0 || handler(of: current) == ours {
                sigaction(signal, &context.savedActions[index], nil)
            }
            context.installed[index] = false
        }
        session.notifyDescriptor.store(-1, ordering: .sequentiallyConsistent)
        state.readSource?.cancel()  // closes the pipe once no event handler runs
        state.readSource = nil
    }

    /// The signal handler. Async-signal-safe: no allocation, no lock, `errno` preserved.
    private static func handle(_ signal: Int32) {
        let savedErrno = errno
        defer { errno = savedErrno }
        switch signal {
        case SIGINT where session.interrupts.add(1, ordering: .relaxed).newValue >= 2:
            // A forced exit: the alerts still running leave their final lines under what the
            // program printed.
            ProcessGroupGuard.killFromSignal()
            session.endFromSignal()
            eraseIfDrawn()
            TerminalModes.restore()
            OutputRelay.releaseFromSignal()
            ForcedExitLines.write(to: OutputRelay.real(session.output.load(ordering: .sequentiallyConsistent)))
            OutputRelay.handOffAtEnd(fromSignal: true)
            _exit(130)
        case SIGINT:
            session.cancellingSignal.store(signal, ordering: .sequentiallyConsistent)
            notify(signal)
        case let signal where cancelsWork(signal) && session.interrupts.add(1, ordering: .relaxed).newValue == 1:
            session.cancellingSignal.store(signal, ordering: .sequentiallyConsistent)
            notify(SIGINT)  // cancels the work like a first Ctrl-C
        case SIGWINCH:
            OutputRelay.followWindowSize()
            notify(signal)
        case SIGTSTP:
            session.stops.add(1, ordering: .sequentiallyConsistent)
            restoreFromSignal()
            session.suspended.store(true, ordering: .relaxed)
            putBack(SIGTSTP)
            raise(SIGTSTP)  // stops the program once this handler returns
            notify(SIGTSTP)  // read once the program runs again: see checkForDiscardedStop(after:)
        case SIGCONT:
            resumeAfterStop()
        default:
            ProcessGroupGuard.killFromSignal()
            // Only when the signal ends the program (one the program handles itself may not),
            // nothing draws after the restore, and processes still writing through the capture
            // keep a working output.
            let ends = endsProgram(signal)
            if ends { session.endFromSignal() }
            restoreFromSignal()
            OutputRelay.releaseFromSignal()
            if ends { OutputRelay.handOffAtEnd(fromSignal: true) }
            putBack(signal)
            raise(signal)  // delivered with the previous disposition once this handler returns
        }
    }

    /// Whether `signal` is `SIGTERM` or `SIGHUP` and the program chose to have them cancel the
    /// work (``TerminalOverlay/ProcessIntegration/cancelsOnTermination``). Async-signal-safe.
    private static func cancelsWork(_ signal: Int32) -> Bool {
        (signal == SIGTERM || signal == SIGHUP)
            && session.terminationCancels.load(ordering: .sequentiallyConsistent)
    }

    /// What `SIGCONT` does after a stop: the `SIGTSTP` handler back, the overlay free to draw,
    /// the processes it stopped continued, and the overlay told. Async-signal-safe.
    private static func resumeAfterStop() {
        if let index = guardedSignals.firstIndex(of: SIGTSTP), context.installed[index] {
            sigaction(SIGTSTP, context.handlerAction, nil)
        }
        session.suspended.store(false, ordering: .relaxed)
        session.quieted.store(false, ordering: .sequentiallyConsistent)
        ProcessGroupGuard.continueFromSignal()
        // Also a job started in the background and brought to the foreground (`fg` sends
        // SIGCONT): the overlay checks where it now is and draws if it may.
        notify(SIGCONT)
    }

    /// A stop the system discarded — the program's process group was orphaned since it started
    /// (the shell that started it in the background exited) — is followed by no `SIGCONT`, and
    /// the overlay would stay quiet for good, every later line lost. The handler's note of the
    /// stop is read by a thread that runs only while the program does: still suspended a second
    /// later, with no stop since, the program was never stopped, and it resumes as after
    /// `SIGCONT` — the processes it stopped along with itself stay stopped that second, as
    /// `wait-alert`'s own check for a discarded stop leaves its command. (After a real stop the
    /// second starts once the program runs again; `SIGCONT`'s own handler has then resumed, to
    /// the same effect.)
    private static func checkForDiscardedStop(after stop: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
            guard session.suspended.load(ordering: .relaxed),
                session.stops.load(ordering: .sequentiallyConsistent) == stop
            else {
                return
            }
            resumeAfterStop()
        }
    }

    private static func putBack(_ signal: Int32) {
        if let index = guardedSignals.firstIndex(of: signal) {
            sigaction(signal, &context.savedActions[index], nil)
        }
    }

    private static func notify(_ signal: Int32) {
        var byte = UInt8(truncatingIfNeeded: signal)
        let descriptor = session.notifyDescriptor.load(ordering: .sequentiallyConsistent)
        if descriptor >= 0 { _ = withUnsafeBytes(of: &byte) { Platform.writeAll($0, to: descriptor, patience: 0) } }
    }

    /// Erases the overlay and puts the terminal modes back, in the foreground only, after quieting
    /// the overlay: no overlay write starts from now on, and one already under way on another
    /// thread is waited for (``TerminalState/waitForWritesInFlight()``).
    private static func restoreFromSignal() {
        session.quieted.store(true, ordering: .sequentiallyConsistent)
        session.waitForWritesInFlight()
        eraseIfDrawn()
        TerminalModes.restore()
    }
}

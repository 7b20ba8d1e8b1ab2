import Dispatch
import Synchronization

extension TerminalGuard {
    /// The signals besides `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` whose default action ends
    /// the program (terminate, or dump core), and which are not a crash (``Signal/crashes``): a
    /// write to a closed pipe (`SIGPIPE`, `prog | head -1`), `kill -USR1`, a timer, a resource
    /// limit, the real-time signals. Handled only where the program left them at their default.
    static var endingSignals: [Int32] { Signal.endingByDefault }

    /// Whether the guard installs its handler for `signal`, whose disposition was `previous`: the
    /// signals it always guards unless ignored (`SIGWINCH` and `SIGCONT` even then, their default
    /// being to do nothing), the ending signals only at their default; Ctrl-Z and `SIGCONT` only
    /// under job control.
    static func handles(_ signal: Int32, previous: SignalAction, jobControl: Bool) -> Bool {
        if !jobControl, signal == Signal.terminalStop || signal == Signal.continue { return false }
        if endingSignals.contains(signal) { return previous.handlerAddress == 0 }  // the default
        return signal == Signal.windowChanged || signal == Signal.continue || !previous.isIgnored
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
            let signals = Platform.readAvailable(readEnd, upTo: 16) ?? []
            let events = currentEvents
            for signal in signals {
                switch Int32(signal) {
                case Signal.interrupt: interrupt(events)
                case Signal.continue:
                    blockInputAgain()
                    if let events { TerminalEvent.resume.deliver(to: events) }
                case Signal.terminalStop:
                    checkForDiscardedStop(after: session.stops.load(ordering: .sequentiallyConsistent))
                default: if let events { TerminalEvent.resize.deliver(to: events) }
                }
            }
        }
        source.setCancelHandler {
            Platform.close(readEnd)
            Platform.close(writeEnd)
        }
        source.resume()
        state.readSource = source

        let action = SignalAction.calling { TerminalGuard.handle($0) }
        context.handlerAction.pointee = action
        session.suspended.store(false, ordering: .relaxed)
        session.stopping.store(false, ordering: .sequentiallyConsistent)
        // A stop discarded a moment ago is over too (its check looks for `suspended`).
        if !session.ended.load(ordering: .sequentiallyConsistent) {
            session.quieted.store(false, ordering: .sequentiallyConsistent)
        }
        // A process group that is its session's own (no job-control shell above it) is orphaned:
        // the system discards Ctrl-Z for it, so the overlay leaves Ctrl-Z alone there too.
        let jobControl = Platform.hasJobControl
        for (index, signal) in guardedSignals.enumerated() {
            context.installed[index] = false
            guard SignalAction.current(of: signal, into: context.savedActions + index),
                handles(signal, previous: context.savedActions[index], jobControl: jobControl)
            else { continue }
            context.installed[index] = SignalAction.install(context.handlerAction, for: signal)
        }
        state.handlesSignals = true
    }

    /// Whether what the signal does after the guard's handler ends the program: the default
    /// disposition, for the signals that reach the default branch, or the handler that passes it
    /// on to the commands' groups first (``ProcessGroupGuard``, installed beneath the guard while
    /// commands run). Async-signal-safe.
    private static func endsProgram(_ signal: Int32) -> Bool {
        guard let index = guardedSignals.firstIndex(of: signal) else { return false }
        let address = context.savedActions[index].handlerAddress
        return address == 0 || ProcessGroupGuard.endsProgram(handlerAddress: address)
    }

    /// Puts the previous signal dispositions back and closes the pipe. Under ``state``'s lock. A
    /// disposition the program set while the guard was installed stays.
    static func uninstall(_ state: inout State) {
        guard state.handlesSignals else { return }
        state.handlesSignals = false
        let ours = context.handlerAction.pointee.handlerAddress
        for (index, signal) in guardedSignals.enumerated() where context.installed[index] {
            if SignalAction.current(of: signal)?.handlerAddress ?? ours == ours {
                SignalAction.install(context.savedActions + index, for: signal)
            }
            context.installed[index] = false
        }
        session.notifyDescriptor.store(-1, ordering: .sequentiallyConsistent)
        state.readSource?.cancel()  // closes the pipe once no event handler runs
        state.readSource = nil
    }

    /// The signal handler. Async-signal-safe: no allocation, no lock, `errno` preserved.
    private static func handle(_ signal: Int32) {
        let savedErrno = Platform.errorNumber
        defer { Platform.errorNumber = savedErrno }
        switch signal {
        case Signal.interrupt where session.interrupts.add(1, ordering: .relaxed).newValue >= 2:
            // A forced exit: the alerts still running leave their final lines under what the
            // program printed.
            ProcessGroupGuard.killFromSignal()
            session.endFromSignal()
            eraseIfDrawn()
            TerminalModes.restore()
            OutputRelay.releaseFromSignal()
            ForcedExitLines.write(to: OutputRelay.real(session.output.load(ordering: .sequentiallyConsistent)))
            OutputRelay.handOffAtEnd(fromSignal: true)
            Platform.exitAtOnce(130)
        case Signal.interrupt:
            session.cancellingSignal.store(signal, ordering: .sequentiallyConsistent)
            notify(signal)
        case let signal where cancelsWork(signal) && session.interrupts.add(1, ordering: .relaxed).newValue == 1:
            session.cancellingSignal.store(signal, ordering: .sequentiallyConsistent)
            notify(Signal.interrupt)  // cancels the work like a first Ctrl-C
        case Signal.windowChanged:
            OutputRelay.followWindowSize()
            notify(signal)
        case Signal.terminalStop:
            session.stops.add(1, ordering: .sequentiallyConsistent)
            session.stopping.store(true, ordering: .sequentiallyConsistent)
            restoreFromSignal()
            session.suspended.store(true, ordering: .relaxed)
            putBack(Signal.terminalStop)
            Platform.raise(Signal.terminalStop)  // stops the program once this handler returns
            notify(Signal.terminalStop)  // read once the program runs again: see checkForDiscardedStop(after:)
        case Signal.continue:
            resumeAfterStop()
        default:
            // Only when the signal ends the program (one the program handles itself may not),
            // nothing draws after the restore, and processes still writing through the capture
            // keep a working output. Said before the commands are killed: their end may end the
            // work, and the program must not exit on its own first.
            let ends = endsProgram(signal)
            if ends { session.endFromSignal() }
            ProcessGroupGuard.killFromSignal()
            restoreFromSignal()
            OutputRelay.releaseFromSignal()
            if ends { OutputRelay.handOffAtEnd(fromSignal: true) }
            putBack(signal)
            Platform.raise(signal)  // delivered with the previous disposition once this handler returns
        }
    }

    /// Whether `signal` is `SIGTERM` or `SIGHUP` and the program chose to have them cancel the
    /// work (``TerminalOverlay/ProcessIntegration/cancelsOnTermination``). Async-signal-safe.
    private static func cancelsWork(_ signal: Int32) -> Bool {
        (signal == Signal.terminate || signal == Signal.hangUp)
            && session.terminationCancels.load(ordering: .sequentiallyConsistent)
    }

    /// What `SIGCONT` does after a stop: the `SIGTSTP` handler back, the overlay free to draw,
    /// the processes it stopped continued, and the overlay told. Async-signal-safe.
    private static func resumeAfterStop() {
        if let index = guardedSignals.firstIndex(of: Signal.terminalStop), context.installed[index] {
            SignalAction.install(context.handlerAction, for: Signal.terminalStop)
        }
        session.stopping.store(false, ordering: .sequentiallyConsistent)
        // Only a stop's quiet ends here: a `SIGCONT` that comes while another signal is handled
        // (`timeout` sends one after `SIGTERM`) must not let the overlay draw or block input again.
        if session.suspended.exchange(false, ordering: .sequentiallyConsistent),
            !session.ended.load(ordering: .sequentiallyConsistent)
        {
            session.quieted.store(false, ordering: .sequentiallyConsistent)
        }
        ProcessGroupGuard.continueFromSignal()
        // Also a job started in the background and brought to the foreground (`fg` sends
        // SIGCONT): the overlay checks where it now is and draws if it may.
        notify(Signal.continue)
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
            SignalAction.install(context.savedActions + index, for: signal)
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

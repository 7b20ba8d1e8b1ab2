import Synchronization

extension TerminalGuard {
    /// The signals of a crash, handled while anything shows or is caught, so that the terminal is
    /// restored and the crash report reaches it.
    static var crashSignals: [Int32] { Signal.crashes }

    /// Memory the crash handler reads, allocated once and never freed; written only under
    /// the session's ``TerminalState/crashHandlerHolders`` lock while no crash handler is installed.
    struct CrashContext {
        let savedActions = UnsafeMutablePointer<SignalAction>.allocate(capacity: crashSignals.count)
        let installed = UnsafeMutablePointer<Bool>.allocate(capacity: crashSignals.count)
    }

    @exclusivity(unchecked) nonisolated(unsafe) static var crashContext = CrashContext()

    /// Installs the crash handlers, unless a holder already did: whatever shows or is caught —
    /// a region, a prompt in raw mode, the program's output — a crash puts it back.
    static func holdCrashHandlers() {
        TerminalState.prepareForSignals()
        OutputRelay.prepareForSignals()
        session.crashHandlerHolders.withLock { holders in
            holders += 1
            guard holders == 1 else { return }
            let action = SignalAction.callingOnCrash { signal, info, _ in TerminalGuard.handleCrash(signal, info) }
            for (index, signal) in crashSignals.enumerated() {
                crashContext.installed[index] =
                    SignalAction.current(of: signal, into: crashContext.savedActions + index)
                    && action.install(for: signal)
            }
        }
    }

    /// Puts the previous crash handlers back once the last holder lets go.
    static func dropCrashHandlers() {
        session.crashHandlerHolders.withLock { holders in
            guard holders > 0 else { return }
            holders -= 1
            guard holders == 0 else { return }
            for (index, signal) in crashSignals.enumerated() where crashContext.installed[index] {
                SignalAction.install(crashContext.savedActions + index, for: signal)
                crashContext.installed[index] = false
            }
        }
    }

    /// A crash while something shows or is caught: nothing else draws from now on (other threads
    /// go on running while a crash report is made), the real descriptors and the terminal come
    /// back (the region erased, paste bracketing off, the modes restored), then the signal
    /// goes on to what handled it before (the runtime's crash report, or the default action).
    private static func handleCrash(_ signal: Int32, _ info: UnsafeMutableRawPointer?) {
        session.endFromSignal()
        eraseIfDrawn()
        OutputRelay.releaseFromSignal()
        OutputRelay.handOffAtEnd(fromSignal: true)
        TerminalModes.restore()
        if let index = crashSignals.firstIndex(of: signal), crashContext.installed[index] {
            SignalAction.install(crashContext.savedActions + index, for: signal)
        } else {
            SignalAction.systemDefault.install(for: signal)
        }
        // A fault happens again when the handler returns, now with the previous handler; a signal
        // that was sent (`abort()`, `kill`) is sent again.
        if Platform.wasSent(info) { Platform.raise(signal) }
    }
}

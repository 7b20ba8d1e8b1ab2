import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension TerminalGuard {
    /// The signals of a crash, handled while anything shows or is caught, so that the terminal is
    /// restored and the crash report reaches it.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Memory the crash handler reads, allocated once and never freed; written only under
    /// the session's ``TerminalState/crashHandlerHolders`` lock while no crash handler is installed.
    struct CrashContext {
        let savedActions = UnsafeMutablePointer<sigaction>.allocate(capacity: crashSignals.count)
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
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_sigaction = { signal, info, _ in TerminalGuard.handleCrash(signal, info) }
            #else
                action.__sigaction_u.__sa_sigaction = { signal, info, _ in TerminalGuard.handleCrash(signal, info) }
            #endif
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            for (index, signal) in crashSignals.enumerated() {
                crashContext.installed[index] =
                    sigaction(signal, nil, &crashContext.savedActions[index]) == 0
                    && sigaction(signal, &action, nil) == 0
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
                sigaction(signal, &crashContext.savedActions[index], nil)
                crashContext.installed[index] = false
            }
        }
    }

    /// A crash while something shows or is caught: nothing else draws from now on (other threads
    /// go on running while a crash report is made), the real descriptors and the terminal come
    /// back (the region erased, paste bracketing off, the modes restored), then the signal
    /// goes on to what handled it before (the runtime's crash report, or the default action).
    private static func handleCrash(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?) {
        session.endFromSignal()
        eraseIfDrawn()
        OutputRelay.releaseFromSignal()
        OutputRelay.handOffAtEnd(fromSignal: true)
        TerminalModes.restore()
        if let index = crashSignals.firstIndex(of: signal), crashContext.installed[index] {
            sigaction(signal, &crashContext.savedActions[index], nil)
        } else {
            var fallback = sigaction()
            sigemptyset(&fallback.sa_mask)
            sigaction(signal, &fallback, nil)  // SIG_DFL
        }
        // A fault happens again when the handler returns, now with the previous handler; a signal
        // that was sent (`abort()`, `kill`) is sent again.
        if (info?.pointee.si_code ?? 0) <= 0 { raise(signal) }
    }
}

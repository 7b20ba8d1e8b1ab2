extension TerminalGuard {
    /// What `signal` does for the program apart from the guard: the disposition the guard found
    /// and puts back, while it handles `signal`; the current one otherwise.
    static func programAction(for signal: Int32) -> SignalAction {
        state.withLock { state in
            if state.handlesSignals, let index = guardedSignals.firstIndex(of: signal), context.installed[index] {
                return context.savedActions[index]
            }
            return SignalAction.current(of: signal) ?? .systemDefault
        }
    }

    /// Sets what `signal` does for the program apart from the guard: while the guard handles
    /// `signal`, `action` takes the place of the disposition it found — the one it passes the
    /// signal on to, and puts back when it stops; otherwise `action` is installed at once.
    static func setProgramAction(_ action: SignalAction, for signal: Int32) {
        state.withLock { state in
            // `installed` is written when the guard installs its handlers: read only while it has.
            if state.handlesSignals, let index = guardedSignals.firstIndex(of: signal), context.installed[index] {
                context.savedActions[index] = action
            } else {
                action.install(for: signal)
            }
        }
    }
}

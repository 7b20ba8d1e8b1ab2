import Synchronization

/// The one `atexit` hook of the package, with its work in a fixed order: first what must still
/// be printed (endings reported just before the program exits), then what must be restored (the
/// terminal). Registered once, the first time anything is added.
enum ProcessExit {
    /// When a hook runs relative to the others.
    enum Phase: Int, Sendable {
        /// Applies reports not applied yet, so their lines are printed.
        case flush
        /// Restores the terminal; stops every later overlay write.
        case restore
    }

    private struct Hooks: @unchecked Sendable {  // closures set once, run at exit
        var registered = false
        var hooks: [(phase: Phase, run: @Sendable () -> Void)] = []
    }

    private static let state = Mutex(Hooks())

    /// Runs `hook` when the program calls `exit()` (or returns from its top-level code), after
    /// every hook of an earlier phase.
    static func add(_ phase: Phase, _ hook: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.hooks.append((phase, hook))
            guard !state.registered else { return }
            state.registered = true
            Platform.atExit { ProcessExit.run() }
        }
    }

    private static func run() {
        let hooks = state.withLock { $0.hooks }
        for phase in [Phase.flush, .restore] {
            for hook in hooks where hook.phase == phase { hook.run() }
        }
    }
}

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process group that must not outlive the program, and which signal cancelled the work.
///
/// A program that runs a command in a process group of its own registers the group here. When the
/// terminal guard ends the program abruptly — a second Ctrl-C, or `SIGTERM`, `SIGHUP` or `SIGQUIT`
/// raised again after the restore — its signal handler first sends `SIGKILL` to the registered
/// group, so no process of it is left behind. When the program is continued (`fg`, `bg`) while the
/// guard handles `SIGCONT`, the handler sends `SIGCONT` to the registered group, so a group the
/// program stopped along with itself (its own `SIGTSTP` handler, which the guard calls after
/// restoring the terminal) runs again with it. The handler only reads atomics and calls `killpg`.
package enum ProcessGroupGuard {
    /// The registered process group, or 0.
    static let group = Atomic<Int32>(0)
    /// The signal that last cancelled the work through the guard, or 0.
    static let cancellingSignal = Atomic<Int32>(0)
    /// Whether `SIGTERM` and `SIGHUP` cancel the work like a first Ctrl-C
    /// (``TerminalOverlay/ProcessIntegration/cancelsOnTermination``).
    static let terminationCancels = Atomic<Bool>(false)

    /// Registers `group` (a process group id) to be killed if the program ends abruptly.
    package static func register(_ group: Int32) {
        self.group.store(group, ordering: .sequentiallyConsistent)
    }

    /// Forgets the registered group (it has ended, or is about to be reaped).
    package static func unregister() {
        group.store(0, ordering: .sequentiallyConsistent)
    }

    /// The signal (`SIGINT`, or `SIGTERM`/`SIGHUP` where they cancel) that made the guard cancel
    /// the work, or `nil` when no signal did.
    package static var lastCancellingSignal: Int32? {
        let signal = cancellingSignal.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }

    /// Sends `SIGKILL` to the registered group, if any. Async-signal-safe.
    static func killFromSignal() {
        let group = group.load(ordering: .sequentiallyConsistent)
        if group > 0 { _ = killpg(group, SIGKILL) }
    }

    /// Sends `SIGCONT` to the registered group, if any. Async-signal-safe.
    static func continueFromSignal() {
        let group = group.load(ordering: .sequentiallyConsistent)
        if group > 0 { _ = killpg(group, SIGCONT) }
    }
}

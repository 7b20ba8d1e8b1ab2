import Synchronization

/// The process groups of the commands the program runs, which must not outlive it nor run on while
/// it is stopped, and which signal cancelled the work.
///
/// A command runs in a process group of its own and registers the group here while it runs
/// (``register(_:)``, ``unregister(_:)``). When the terminal guard ends the program abruptly — a
/// second Ctrl-C, or `SIGTERM`, `SIGHUP` or `SIGQUIT` raised again after the restore — its signal
/// handler first sends `SIGKILL` to every registered group, so no process of them is left behind.
/// When the program is continued (`fg`, `bg`) while the guard handles `SIGCONT`, the handler sends
/// `SIGCONT` to every registered group, so the groups stopped along with the program (by the
/// handlers of `ProcessGroupGuard+Signals.swift`, which the guard calls after restoring the
/// terminal) run again with it. The handlers only read atomics and call `killpg`.
package enum ProcessGroupGuard {
    /// How many groups are registered at most at once. A command started while as many run still
    /// runs, and is still stopped when its work is cancelled; only the signal paths miss it.
    package static let capacity = 64

    /// One registered group, or 0.
    final class Slot: Sendable {
        let group = Atomic<Int32>(0)
    }

    /// The registered groups, made once; a signal handler reads them without allocating.
    static let slots: [Slot] = (0..<capacity).map { _ in Slot() }

    /// Registers `group` (a process group id) to follow the program; `false` when ``capacity``
    /// groups are registered already.
    @discardableResult
    package static func register(_ group: Int32) -> Bool {
        for slot in slots
        where slot.group.compareExchange(expected: 0, desired: group, ordering: .sequentiallyConsistent).exchanged {
            return true
        }
        return false
    }

    /// Forgets `group` (it has ended, or its leader is about to be reaped, after which its id may
    /// be reused).
    package static func unregister(_ group: Int32) {
        guard group > 0 else { return }
        for slot in slots {
            _ = slot.group.compareExchange(expected: group, desired: 0, ordering: .sequentiallyConsistent)
        }
    }

    /// The signal (`SIGINT`, or `SIGTERM`/`SIGHUP` where they cancel) that made the guard cancel
    /// the work, or `nil` when no signal did.
    package static var lastCancellingSignal: Int32? {
        let signal = TerminalState.shared.cancellingSignal.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }

    /// Sends `signal` to every registered group. Async-signal-safe.
    static func signalAll(_ signal: Int32) {
        for slot in slots {
            let group = slot.group.load(ordering: .sequentiallyConsistent)
            if group > 0 { Platform.signal(group: group, signal) }
        }
    }

    /// Sends `SIGKILL` to every registered group. Async-signal-safe.
    static func killFromSignal() {
        signalAll(Signal.kill)
    }

    /// Sends `SIGCONT` to every registered group. Async-signal-safe.
    static func continueFromSignal() {
        signalAll(Signal.continue)
    }

    /// Makes everything a signal handler reads here before any handler can run (a handler must
    /// not run lazy initialisation).
    static func prepareForSignals() {
        _ = slots.count
        TerminalState.prepareForSignals()
        prepareHandlersForSignals()
    }
}

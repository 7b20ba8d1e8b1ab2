import Synchronization
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Passes Ctrl-C, `SIGTERM`, `SIGHUP` and `SIGQUIT` on to the command's process group, and kills the group
/// when it does not end in time; stops and continues the group with `wait-alert` (Ctrl-Z, `fg`, `bg`).
///
/// The first such signal is sent on to the group as it is (a cancelled work or an expired
/// timeout sends `SIGTERM`); a second one, or ``graceNanoseconds`` without the command ending,
/// sends `SIGKILL` to the group. While the overlay's terminal guard handles the signals it cancels
/// the work instead, and the work's cancellation handler calls ``forward(_:)``; otherwise (before
/// the alert shows, or with no terminal) this type's own handler does.
///
/// The command's group is not the shell's job, `wait-alert` is: Ctrl-Z stops `wait-alert` only.
/// So, under a job-control shell, `SIGTSTP` is passed on to the group before `wait-alert` stops
/// (when the overlay's guard handles `SIGTSTP`, it restores the terminal and then calls this
/// type's handler), and `SIGCONT` continues the group (the guard does it through
/// `ProcessGroupGuard` while it handles `SIGCONT`). Without job control `wait-alert`'s group is
/// orphaned, the system discards Ctrl-Z for it, and no handler is installed; should `wait-alert`'s
/// own stop be discarded anyway, the group is continued ``discardedStopNanoseconds`` later, so it
/// never stays stopped while `wait-alert` runs.
///
/// Everything the handlers touch is an atomic; they call only `killpg`, `clock_gettime`,
/// `sigaction`, `sigemptyset` and `raise`.
enum SignalForwarder {
    /// How long the command has to end after the first signal: 3 seconds.
    static let graceNanoseconds: Int64 = 3_000_000_000

    /// The command's process group, or 0 before it started and after it was reaped.
    private static let group = Atomic<Int32>(0)
    private static let forwards = Atomic<Int>(0)
    private static let first = Atomic<Int32>(0)
    private static let firstAt = Atomic<Int64>(0)
    private static let killed = Atomic<Bool>(false)
    /// When `SIGTSTP` was passed on to the group and `wait-alert` was to stop, or 0.
    private static let stoppedAt = Atomic<Int64>(0)
    /// Where the command's start is.
    private enum Start: UInt8, AtomicRepresentable {
        case notBegun, underWay, underWayWithStopWaiting, done
    }
    private static let start = Atomic<Start>(.notBegun)

    /// How long the group may stay stopped while `wait-alert` itself runs: its own stop was
    /// discarded (an orphaned process group), so nobody would continue the group.
    static let discardedStopNanoseconds: Int64 = 1_000_000_000

    /// Installs the handler for `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` (each unless ignored), and ignores
    /// `SIGPIPE` (a closed standard output is noticed as `EPIPE`); under a job-control shell, the
    /// handlers for `SIGTSTP` (unless ignored) and `SIGCONT`.
    static func install() {
        // A handler never runs lazy initialisation.
        _ = group.load(ordering: .relaxed)
        _ = forwards.load(ordering: .relaxed)
        _ = first.load(ordering: .relaxed)
        _ = firstAt.load(ordering: .relaxed)
        _ = killed.load(ordering: .relaxed)
        _ = stoppedAt.load(ordering: .relaxed)
        _ = start.load(ordering: .relaxed)
        var ignore = sigaction()
        var action = sigaction()
        #if canImport(Glibc) || canImport(Musl)
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            action.__sigaction_handler.sa_handler = { SignalForwarder.forward($0) }
        #else
            ignore.__sigaction_u.__sa_handler = SIG_IGN
            action.__sigaction_u.__sa_handler = { SignalForwarder.forward($0) }
        #endif
        sigemptyset(&ignore.sa_mask)
        _ = sigaction(SIGPIPE, &ignore, nil)
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            var previous = sigaction()
            guard sigaction(signal, nil, &previous) == 0, !isIgnored(previous) else { continue }
            _ = sigaction(signal, &action, nil)
        }
        // A process group that is its session's own (no job-control shell above it) is orphaned:
        // the system discards Ctrl-Z for it.
        guard getpgrp() != getsid(0) else { return }
        var previous = sigaction()
        if sigaction(SIGTSTP, nil, &previous) == 0, !isIgnored(previous) { installStopHandler() }
        var resume = jobControlAction()
        _ = sigaction(SIGCONT, &resume, nil)
    }

    private static func jobControlAction() -> sigaction {
        var action = sigaction()
        #if canImport(Glibc) || canImport(Musl)
            action.__sigaction_handler.sa_handler = { SignalForwarder.followJobControl($0) }
        #else
            action.__sigaction_u.__sa_handler = { SignalForwarder.followJobControl($0) }
        #endif
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        return action
    }

    /// Installs the `SIGTSTP` handler. Async-signal-safe.
    private static func installStopHandler() {
        var action = jobControlAction()
        _ = sigaction(SIGTSTP, &action, nil)
    }

    /// `SIGTSTP`: stops the group, then `wait-alert` (the default disposition, once this handler
    /// returns). `SIGCONT`: continues the group and puts the `SIGTSTP` handler back, unless the
    /// overlay's guard has put its own. Async-signal-safe.
    private static func followJobControl(_ signal: Int32) {
        let savedErrno = errno
        defer { errno = savedErrno }
        if signal == SIGTSTP, group.load(ordering: .sequentiallyConsistent) == 0 {
            // The command is being started: its group is not known yet, and stopping now would
            // leave it running while wait-alert is stopped. The stop waits for started(group:).
            let (exchanged, original) = start.compareExchange(
                expected: .underWay, desired: .underWayWithStopWaiting, ordering: .sequentiallyConsistent)
            if exchanged || original == .underWayWithStopWaiting { return }
        }
        let group = group.load(ordering: .sequentiallyConsistent)  // started(group:) may just have set it
        if signal == SIGTSTP {
            stoppedAt.store(monotonicNanoseconds(), ordering: .sequentiallyConsistent)
            if group > 0 { _ = killpg(group, SIGTSTP) }
            var stop = sigaction()
            #if canImport(Glibc) || canImport(Musl)
                stop.__sigaction_handler.sa_handler = SIG_DFL
            #else
                stop.__sigaction_u.__sa_handler = SIG_DFL
            #endif
            sigemptyset(&stop.sa_mask)
            _ = sigaction(SIGTSTP, &stop, nil)
            raise(SIGTSTP)  // stops wait-alert once this handler returns
        } else {
            if group > 0 { _ = killpg(group, SIGCONT) }
            stoppedAt.store(0, ordering: .sequentiallyConsistent)
            var current = sigaction()
            if sigaction(SIGTSTP, nil, &current) == 0, isDefault(current) { installStopHandler() }
        }
    }

    /// Continues the group when it was stopped with `wait-alert` at least
    /// ``discardedStopNanoseconds`` ago and `wait-alert` runs: either it was continued (and this is
    /// one more `SIGCONT`, which changes nothing) or its stop was discarded.
    static func continueIfStopWasDiscarded() {
        let at = stoppedAt.load(ordering: .sequentiallyConsistent)
        guard at != 0, monotonicNanoseconds() - at >= discardedStopNanoseconds,
            stoppedAt.compareExchange(expected: at, desired: 0, ordering: .sequentiallyConsistent).exchanged
        else { return }
        let group = group.load(ordering: .sequentiallyConsistent)
        if group > 0 { _ = killpg(group, SIGCONT) }
    }

    private static func isDefault(_ action: sigaction) -> Bool {
        #if canImport(Glibc) || canImport(Musl)
            unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 0  // SIG_DFL
        #else
            unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == 0
        #endif
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc) || canImport(Musl)
            unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
        #else
            unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == 1
        #endif
    }

    /// The command is about to be started: a Ctrl-Z from now until ``started(group:)`` (or
    /// ``notStarted()``) waits for it, so the command's group is stopped along with `wait-alert`.
    static func starting() {
        start.store(.underWay, ordering: .sequentiallyConsistent)
    }

    /// The command started in process group `group`: a signal that came before is passed on now,
    /// and a Ctrl-Z that came meanwhile stops the group and `wait-alert` now.
    static func started(group: Int32) {
        self.group.store(group, ordering: .sequentiallyConsistent)
        let pending = first.load(ordering: .sequentiallyConsistent)
        if pending != 0 {
            _ = killpg(group, pending)
            _ = killpg(group, SIGCONT)
        }
        if killed.load(ordering: .sequentiallyConsistent) { _ = killpg(group, SIGKILL) }
        if start.exchange(.done, ordering: .sequentiallyConsistent) == .underWayWithStopWaiting { raise(SIGTSTP) }
    }

    /// The command could not be started: a Ctrl-Z that came meanwhile stops `wait-alert` now.
    static func notStarted() {
        if start.exchange(.notBegun, ordering: .sequentiallyConsistent) == .underWayWithStopWaiting { raise(SIGTSTP) }
    }

    /// The command's leader has been reaped: its group id may be reused, so it is forgotten.
    static func reaped() {
        group.store(0, ordering: .sequentiallyConsistent)
    }

    /// Passes `signal` on to the group the first time; kills the group any later time.
    /// Async-signal-safe.
    static func forward(_ signal: Int32) {
        let savedErrno = errno
        defer { errno = savedErrno }
        if forwards.add(1, ordering: .sequentiallyConsistent).newValue == 1 {
            firstAt.store(monotonicNanoseconds(), ordering: .sequentiallyConsistent)
            first.store(signal, ordering: .sequentiallyConsistent)
            let group = group.load(ordering: .sequentiallyConsistent)
            if group > 0 {
                _ = killpg(group, signal)
                _ = killpg(group, SIGCONT)  // a stopped command gets it too
            }
        } else {
            killGroup()
        }
    }

    /// Sends `SIGKILL` to the group, once. Async-signal-safe.
    static func killGroup() {
        guard !killed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let group = group.load(ordering: .sequentiallyConsistent)
        if group > 0 { _ = killpg(group, SIGKILL) }
    }

    /// Kills the group once the grace period after the first signal has passed.
    static func killIfGraceElapsed() {
        guard first.load(ordering: .sequentiallyConsistent) != 0 else { return }
        let since = monotonicNanoseconds() - firstAt.load(ordering: .sequentiallyConsistent)
        if since >= graceNanoseconds { killGroup() }
    }

    /// The signal passed on to the command, or `nil` while none was.
    static var interruption: Int32? {
        let signal = first.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }

    /// Kills what is left of the group (processes the command started in the background) after an
    /// interruption, while the leader is still a zombie, so the group id cannot have been reused.
    static func killStragglersIfInterrupted() {
        guard interruption != nil else { return }
        let group = group.load(ordering: .sequentiallyConsistent)
        if group > 0 { _ = killpg(group, SIGKILL) }
    }

    private static func monotonicNanoseconds() -> Int64 {
        let now = Platform.monotonicNow().components
        return now.seconds * 1_000_000_000 + now.attoseconds / 1_000_000_000
    }
}

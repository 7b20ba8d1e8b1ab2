import Synchronization

/// A command started in a process group of its own (``spawn(_:channels:standardInput:environment:workingDirectory:)``):
/// its output channels, how it is stopped, and how it is reaped.
///
/// **Stopping** (``stop(_:)``): the first time, the signal goes to the whole group (with `SIGCONT`,
/// so a stopped command gets it too); any later time, and once ``grace`` has passed without the
/// command ending (``killIfGraceElapsed()``), `SIGKILL` does. After an interruption no process of
/// the group is left behind: what is still running when the leader has ended is killed before the
/// leader is reaped, while its group id cannot have been reused.
///
/// The group is registered with ``ProcessGroupGuard`` from its start until its leader is reaped,
/// so it follows the program through Ctrl-Z, `fg`, `bg` and an abrupt end.
package final class Subprocess: Sendable {
    /// A channel's end that the program reads (a pseudo-terminal's controller, a pipe's read end).
    package struct Output: Sendable {
        package let descriptor: Int32
        package let channel: SubprocessChannel
    }

    /// What the command reads as its standard input.
    package enum StandardInput: Sendable {
        /// The program's own.
        case inherited
        /// `/dev/null`: nothing.
        case null
    }

    /// How long the command has to end after the first signal before its group is killed: 3 s.
    package static let grace = Duration.seconds(3)

    /// The command's process id, which is also its process group's id.
    package let pid: Int32
    package let outputs: [Output]

    private struct Stopping {
        /// 0 once the leader has been reaped: the group id may be reused.
        var group: Int32
        /// The first signal sent to stop the group, and when (on ``Platform/monotonicNow()``'s clock).
        var signal: Int32 = 0
        var at: Duration = .zero
        var killed = false
    }

    private let stopping: Mutex<Stopping>

    init(pid: Int32, outputs: [Output]) {
        self.pid = pid
        self.outputs = outputs
        stopping = Mutex(Stopping(group: pid))
    }

    /// Stops the command: `signal` to its group the first time, `SIGKILL` any later time.
    package func stop(_ signal: Int32) {
        stopping.withLock { stopping in
            guard stopping.group > 0 else { return }
            if stopping.signal == 0 {
                stopping.signal = signal
                stopping.at = Platform.monotonicNow()
                Platform.signal(group: stopping.group, signal)
                Platform.signal(group: stopping.group, Signal.continue)
            } else if !stopping.killed {
                stopping.killed = true
                Platform.signal(group: stopping.group, Signal.kill)
            }
        }
    }

    /// The signal first sent to stop the command — by ``stop(_:)``, or by the program's signal
    /// handlers (``ProcessGroupGuard/interruption``) — or `nil` while none was.
    package var interruption: Int32? {
        let own = stopping.withLock { $0.signal }
        return own != 0 ? own : ProcessGroupGuard.interruption
    }

    /// Kills the group once ``grace`` has passed since it was first signalled.
    func killIfGraceElapsed() {
        stopping.withLock { stopping in
            guard stopping.group > 0, !stopping.killed else { return }
            let since: Duration? =
                stopping.signal != 0 ? stopping.at : ProcessGroupGuard.interruptedAt
            guard let since, Platform.monotonicNow() - since >= Self.grace else { return }
            stopping.killed = true
            Platform.signal(group: stopping.group, Signal.kill)
        }
    }

    /// Reaps the command if it has ended; `nil` while it runs. Before reaping, while the leader is
    /// a zombie and its group id cannot be reused, an interrupted command's background processes
    /// are killed, and the group is forgotten.
    func reapIfEnded() -> (termination: SubprocessTermination, interruption: Int32?)? {
        guard Platform.hasEnded(pid) else { return nil }
        let interruption = interruption
        stopping.withLock { stopping in
            if interruption != nil { Platform.signal(group: stopping.group, Signal.kill) }
            ProcessGroupGuard.ended(group: stopping.group)
            stopping.group = 0
        }
        return (SubprocessTermination(waitStatus: Platform.reap(pid)), interruption)
    }

    /// The signal that stopped the command since the last call (`SIGSTOP`, `SIGTTIN`…), or `nil`
    /// when it has not stopped.
    func stopSinceLastAsked() -> Int32? {
        Platform.stopSignal(of: pid)
    }
}

import WaitAlert

/// How the command ended (the library's ``SubprocessTermination``), and what that makes
/// `wait-alert`'s exit status. Pure.
typealias CommandTermination = SubprocessTermination

extension CommandTermination {
    /// `wait-alert`'s exit status when the command could not be started (as a shell's).
    static let cannotRun: Int32 = 127
    /// `wait-alert`'s exit status when `--timeout` expired (as `timeout(1)`'s).
    static let timedOut: Int32 = 124

    /// The exit status: the command's own, or 128 + n when signal n ended it. When `wait-alert`
    /// passed on signal n (`interruptedBy`) and a signal ended the command — that one, or the
    /// `SIGKILL` that followed when it did not stop in time — it is 128 + n too.
    func exitStatus(timedOut: Bool = false, interruptedBy interruption: Int32? = nil) -> Int32 {
        if timedOut { return Self.timedOut }
        switch self {
        case .exited(let status): return status
        case .signaled(let signal): return 128 + (interruption ?? signal)
        }
    }
}

/// The command failed: it exited with a non-zero status or a signal ended it. Its description is
/// what the final line says after the title (`✖ Building: exit status 2`).
struct CommandFailure: Error, CustomStringConvertible {
    let termination: CommandTermination
    var description: String { termination.description }
}

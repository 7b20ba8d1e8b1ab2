#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the command ended, and what that makes `wait-alert`'s exit status. Pure.
enum CommandTermination: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)

    /// `wait-alert`'s exit status when the command could not be started (as a shell's).
    static let cannotRun: Int32 = 127
    /// `wait-alert`'s exit status when `--timeout` expired (as `timeout(1)`'s).
    static let timedOut: Int32 = 124

    /// Reads a status from `waitpid`.
    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    var succeeded: Bool { self == .exited(0) }

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

    /// `exit status 2`, `killed by SIGKILL`.
    var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "killed by \(Self.name(of: signal))"
        }
    }

    /// `SIGINT`, or `signal 42` for one without a usual name.
    static func name(of signal: Int32) -> String {
        let names: [(Int32, String)] = [
            (SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP"),
            (SIGABRT, "SIGABRT"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"), (SIGKILL, "SIGKILL"), (SIGUSR1, "SIGUSR1"),
            (SIGSEGV, "SIGSEGV"), (SIGUSR2, "SIGUSR2"), (SIGPIPE, "SIGPIPE"), (SIGALRM, "SIGALRM"),
            (SIGTERM, "SIGTERM"), (SIGXCPU, "SIGXCPU"), (SIGXFSZ, "SIGXFSZ"), (SIGSYS, "SIGSYS"),
        ]
        return names.first { $0.0 == signal }?.1 ?? "signal \(signal)"
    }
}

/// The command failed: it exited with a non-zero status or a signal ended it. Its description is
/// what the final line says after the title (`✖ Building: exit status 2`).
struct CommandFailure: Error, CustomStringConvertible {
    let termination: CommandTermination
    var description: String { termination.description }
}

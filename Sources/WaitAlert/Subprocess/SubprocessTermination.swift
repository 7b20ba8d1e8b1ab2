#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a command ended. Pure.
package enum SubprocessTermination: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)

    /// Reads a status from `waitpid`.
    package init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    package var succeeded: Bool { self == .exited(0) }

    /// `exit status 2`, `killed by SIGKILL`.
    package var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "killed by \(Self.name(of: signal))"
        }
    }

    /// Whether `signal` stopped a process for using its terminal from the background (SIGTTIN,
    /// SIGTTOU): a password prompt, most often.
    package static func isTerminalStop(_ signal: Int32) -> Bool { signal == SIGTTIN || signal == SIGTTOU }

    /// `SIGINT`, or `signal 42` for one without a usual name.
    package static func name(of signal: Int32) -> String {
        let names: [(Int32, String)] = [
            (SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP"),
            (SIGABRT, "SIGABRT"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"), (SIGKILL, "SIGKILL"), (SIGUSR1, "SIGUSR1"),
            (SIGSEGV, "SIGSEGV"), (SIGUSR2, "SIGUSR2"), (SIGPIPE, "SIGPIPE"), (SIGALRM, "SIGALRM"),
            (SIGTERM, "SIGTERM"), (SIGXCPU, "SIGXCPU"), (SIGXFSZ, "SIGXFSZ"), (SIGSYS, "SIGSYS"),
            (SIGSTOP, "SIGSTOP"), (SIGTSTP, "SIGTSTP"), (SIGTTIN, "SIGTTIN"), (SIGTTOU, "SIGTTOU"),
            (SIGCONT, "SIGCONT"), (SIGCHLD, "SIGCHLD"), (SIGWINCH, "SIGWINCH"), (SIGURG, "SIGURG"),
            (SIGPROF, "SIGPROF"), (SIGVTALRM, "SIGVTALRM"),
        ]
        return names.first { $0.0 == signal }?.1 ?? "signal \(signal)"
    }
}

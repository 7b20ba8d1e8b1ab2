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
        case .signaled(let signal): "killed by \(Platform.signalName(signal))"
        }
    }
}

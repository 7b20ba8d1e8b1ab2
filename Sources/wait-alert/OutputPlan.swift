import WaitAlert

/// Where the command's standard output and error go, decided from where `wait-alert`'s own go.
/// Pure.
///
/// Only output bound for the alert's own terminal is *display output*: cut into lines for the
/// status line, the failure tail and `--show-output always`. It goes through a pseudo-terminal
/// (one shared by both outputs when both are that terminal, so their order is kept), so the command
/// keeps its colours and line buffering. Every other output is *passed through*: copied unchanged
/// to `wait-alert`'s descriptor and never shown nor kept — through a pseudo-terminal when that
/// descriptor is another terminal, through a pipe when it is a file or a pipe (so
/// `$(wait-alert -- cmd)` captures exactly what `cmd` printed). A closed output stays closed for the
/// command.
struct OutputPlan: Equatable, Sendable {
    /// Where one of `wait-alert`'s standard outputs leads.
    enum Destination: Equatable, Sendable {
        /// The descriptor is closed.
        case closed
        /// A terminal: the device (`st_rdev`), to tell the alert's terminal from others.
        case terminal(device: UInt64)
        /// Anything else: a file, a pipe, a socket, `/dev/null`.
        case other
    }

    struct Channel: Equatable, Sendable {
        /// The command's descriptors this channel carries: `[1]`, `[2]` or `[1, 2]`.
        var descriptors: [Int32]
        /// A pseudo-terminal rather than a pipe.
        var isTerminal: Bool
        /// `wait-alert`'s descriptor the bytes are copied to unchanged; `nil` for display output.
        var passesThroughTo: Int32?

        /// For a pseudo-terminal, `wait-alert`'s descriptor whose terminal it stands for (and whose
        /// window size it follows); `nil` for a pipe.
        var sizeSource: Int32? { isTerminal ? descriptors.first : nil }

        /// The channel as the library spawns and supervises it.
        var subprocessChannel: SubprocessChannel {
            SubprocessChannel(
                descriptors: descriptors, terminal: sizeSource,
                use: passesThroughTo.map { .passThrough(to: $0) } ?? .display)
        }
    }

    var channels: [Channel]

    /// The plan for `wait-alert`'s standard output and error leading where they do, with the alert
    /// drawn on the terminal `alertTerminal` (a device), or on none (plain lines).
    static func make(standardOutput output: Destination, standardError error: Destination, alertTerminal: UInt64?)
        -> OutputPlan
    {
        func isAlertTerminal(_ destination: Destination) -> Bool {
            guard let alertTerminal else { return false }
            return destination == .terminal(device: alertTerminal)
        }
        if case .terminal = output, output == error {
            return OutputPlan(channels: [
                Channel(descriptors: [1, 2], isTerminal: true, passesThroughTo: isAlertTerminal(output) ? nil : 1)
            ])
        }
        let channels = [(Int32(1), output), (2, error)].compactMap { descriptor, destination -> Channel? in
            switch destination {
            case .closed:
                nil
            case .terminal:
                Channel(
                    descriptors: [descriptor], isTerminal: true,
                    passesThroughTo: isAlertTerminal(destination) ? nil : descriptor)
            case .other:
                Channel(descriptors: [descriptor], isTerminal: false, passesThroughTo: descriptor)
            }
        }
        return OutputPlan(channels: channels)
    }

    /// The plan in a CI service's folded log (`--progress github` or `gitlab`): what the command
    /// writes to standard error — and to standard output when it is the same log — is display
    /// output streamed as the alert's lines, so it folds in the alert's group and its last lines
    /// show again after the group when it fails. Standard output going anywhere else passes
    /// through as before, and so does anything written to a terminal.
    func foldedIntoTheLog(standardOutputIsTheLog: Bool) -> OutputPlan {
        var folded: [Channel] = []
        for channel in channels {
            guard channel.passesThroughTo != nil, !channel.isTerminal else {
                folded.append(channel)
                continue
            }
            if channel.descriptors == [2] {
                folded.append(
                    Channel(
                        descriptors: standardOutputIsTheLog ? [1, 2] : [2], isTerminal: false, passesThroughTo: nil))
            } else if !(channel.descriptors == [1] && standardOutputIsTheLog) {
                folded.append(channel)
            }
        }
        // Standard output's own channel went into standard error's: keep the descriptors in order.
        return OutputPlan(channels: folded)
    }
}

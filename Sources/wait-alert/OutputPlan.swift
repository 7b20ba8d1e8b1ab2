/// Where the command's standard output and error go, decided from where `wait-alert`'s own go.
/// Pure.
///
/// Each of the command's outputs whose counterpart in `wait-alert` is a terminal gets a
/// pseudo-terminal (one shared by both when both are terminals, so their order is kept), so the
/// command keeps its colours and line buffering; the others get a pipe. What the command writes
/// is either *passed through* unchanged to `wait-alert`'s descriptor — always for an output that
/// is not a terminal (so `$(wait-alert -- cmd)` captures exactly what `cmd` printed), and for every
/// output when the alert is not drawn on a terminal — or *display output*, shown as
/// `--show-output` says.
struct OutputPlan: Equatable, Sendable {
    struct Channel: Equatable, Sendable {
        /// The command's descriptors this channel carries: `[1]`, `[2]` or `[1, 2]`.
        var descriptors: [Int32]
        /// A pseudo-terminal rather than a pipe.
        var isTerminal: Bool
        /// `wait-alert`'s descriptor the bytes are copied to unchanged; `nil` for display output.
        var passesThroughTo: Int32?
    }

    var channels: [Channel]

    /// The plan for `wait-alert`'s standard output and error being terminals or not, and the
    /// overlay drawing on standard error (`interactive`) or writing plain lines.
    static func make(standardOutputIsTerminal output: Bool, standardErrorIsTerminal error: Bool, interactive: Bool)
        -> OutputPlan
    {
        if output && error {
            return OutputPlan(channels: [
                Channel(descriptors: [1, 2], isTerminal: true, passesThroughTo: interactive ? nil : 1)
            ])
        }
        return OutputPlan(channels: [
            Channel(descriptors: [1], isTerminal: output, passesThroughTo: output && interactive ? nil : 1),
            Channel(descriptors: [2], isTerminal: error, passesThroughTo: interactive ? nil : 2),
        ])
    }
}

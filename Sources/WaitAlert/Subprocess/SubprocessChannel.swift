/// One of a command's output channels: which of the command's descriptors it carries, whether it
/// is a pseudo-terminal or a pipe, and what becomes of what comes through it.
package struct SubprocessChannel: Equatable, Sendable {
    /// What becomes of the bytes.
    package enum Use: Equatable, Sendable {
        /// *Display output*: cut into lines for the alert (its status, its tail, lines streamed
        /// above it); its taskbar progress (`OSC 9;4`) becomes the alert's.
        case display
        /// Copied unchanged to this descriptor of the program's, never shown nor kept.
        case passThrough(to: Int32)
        /// Kept whole, up to `limit` bytes: past it the command is stopped.
        case collect(limit: Int)
    }

    /// The command's descriptors this channel carries: `[1]`, `[2]` or `[1, 2]`.
    package var descriptors: [Int32]
    /// For a pseudo-terminal, the program's descriptor whose terminal it stands for: the
    /// pseudo-terminal gets that terminal's window size and follows it. `nil` for a pipe.
    package var terminal: Int32?
    package var use: Use

    package init(descriptors: [Int32], terminal: Int32?, use: Use) {
        self.descriptors = descriptors
        self.terminal = terminal
        self.use = use
    }

    /// Where what still comes through the channel after the command ended is copied, by a process
    /// of its own, for as long as the command's background processes hold it
    /// (``SubprocessHandOff``): the destination of passed-through bytes, the terminal display
    /// output stands for (standard error for a pipe); `nil` (read and dropped) for collected bytes.
    package var handOffTarget: Int32? {
        switch use {
        case .display: terminal ?? 2
        case .passThrough(let target): target
        case .collect: nil
        }
    }
}

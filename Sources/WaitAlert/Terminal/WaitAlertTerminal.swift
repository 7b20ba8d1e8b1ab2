/// A character device the terminal overlay draws on: standard error, or an in-memory screen in tests.
///
/// The overlay calls these members from the main actor only; implementations must still be
/// `Sendable` because the terminal is shared with the signal and exit paths that restore it.
public protocol WaitAlertTerminal: AnyObject, Sendable {
    /// The width of the screen in cells, or `nil` when it is not known.
    var columns: Int? { get }

    /// Whether the device is an interactive terminal that understands cursor movement and erasing.
    ///
    /// When `false`, the overlay writes plain lines and not one escape byte.
    var isInteractive: Bool { get }

    /// Writes all of `bytes`, or as many as the device accepts.
    ///
    /// - Returns: `false` once the device cannot be written any more (for example a closed pipe);
    ///   the overlay then stops drawing.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool
}

/// A character device the terminal overlay draws on: standard error, or an in-memory screen in tests.
///
/// The overlay calls these members from the main actor only; implementations must still be
/// `Sendable` because the terminal is shared with the signal and exit paths that restore it.
public protocol WaitAlertTerminal: AnyObject, Sendable {
    /// The width of the screen in cells, or `nil` when it is not known.
    var columns: Int? { get }

    /// The height of the screen in lines, or `nil` when it is not known. A region of many rows
    /// never grows taller than this, less one line. The default is `nil` (24 lines are assumed).
    var rows: Int? { get }

    /// Whether the device is an interactive terminal that understands cursor movement and erasing.
    ///
    /// When `false`, the overlay writes plain lines and not one escape byte.
    var isInteractive: Bool { get }

    /// Whether the program may draw on the device now: `false` while the program runs as a
    /// background job of the shell that owns the terminal.
    ///
    /// While it is `false`, the overlay writes no escape sequence (it would land over the
    /// shell's prompt) and changes no terminal mode; log lines and final lines still print, as
    /// plain lines. The default is `true`.
    var isForeground: Bool { get }

    /// Writes all of `bytes`, or as many as the device accepts.
    ///
    /// - Returns: `false` once the device cannot be written any more (for example a closed pipe);
    ///   the overlay then stops drawing.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool
}

extension WaitAlertTerminal {
    public var isForeground: Bool { true }
    public var rows: Int? { nil }
}

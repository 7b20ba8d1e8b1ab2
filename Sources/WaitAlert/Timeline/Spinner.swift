/// The frames of a spinner and how long each is shown.
///
/// The frame shown is a function of the time since the alert appeared, never of how often it
/// was drawn, so a late wake-up skips frames instead of slowing the animation down.
public struct Spinner: Sendable, Hashable {
    /// The frames, in order; each is one grapheme cluster wide on screen.
    public let frames: [String]
    /// How long each frame is shown.
    public let interval: Duration

    /// Makes a spinner.
    ///
    /// - Throws: ``WaitAlertConfigurationError`` when `frames` is empty or `interval` is not positive.
    public init(frames: [String], interval: Duration) throws(WaitAlertConfigurationError) {
        guard !frames.isEmpty else { throw .emptySpinner }
        guard interval > .zero else { throw .nonPositiveDuration("spinner.interval", interval) }
        self.frames = frames
        self.interval = interval
    }

    /// The index of the frame shown `elapsed` after the alert appeared.
    public func frameIndex(after elapsed: Duration) -> Int {
        guard elapsed > .zero else { return 0 }
        return Int((elapsed.attoseconds / interval.attoseconds) % Int128(frames.count))
    }

    /// `⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏`, 80 ms a frame.
    public static let brailleDots = try! Spinner(
        frames: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"], interval: .milliseconds(80)
    )

    /// `-\|/`, 100 ms a frame, for terminals without Unicode fonts.
    public static let ascii = try! Spinner(frames: ["-", "\\", "|", "/"], interval: .milliseconds(100))
}

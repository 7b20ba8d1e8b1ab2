/// A wait alert configuration that cannot work, reported when it is made.
public enum WaitAlertConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The named duration is below zero.
    case negativeDuration(String, Duration)
    /// The named duration must be above zero.
    case nonPositiveDuration(String, Duration)
    /// Two knobs contradict each other; the text says which.
    case conflictingDurations(String)
    /// The named duration is longer than ``WaitAlertTiming/longestDuration``.
    case durationTooLong(String, Duration)
    /// A spinner needs at least one frame.
    case emptySpinner

    public var description: String {
        switch self {
        case .negativeDuration(let name, let value):
            "WaitAlert: \(name) is \(value); durations cannot be negative"
        case .nonPositiveDuration(let name, let value):
            "WaitAlert: \(name) is \(value); it must be above zero"
        case .conflictingDurations(let reason):
            "WaitAlert: \(reason)"
        case .durationTooLong(let name, let value):
            "WaitAlert: \(name) is \(value); durations longer than 10,000 years are not supported"
                + (name == "timeout" ? " (use `timeout: nil` for none)" : "")
        case .emptySpinner:
            "WaitAlert: a spinner needs at least one frame; use `spinner: nil` for none"
        }
    }
}

/// The timing knobs of a wait alert: how long it waits before appearing, how long it stays, how it fades.
///
/// Every duration is checked when the value is made, so an invalid combination is an error at
/// construction, never a surprise at run time. Start from a preset and adjust with `with…`:
///
/// ```swift
/// let timing = try WaitAlertTiming.default.with(grace: .milliseconds(200))
/// ```
///
/// | knob | default | rule |
/// |---|---|---|
/// | `grace` | 0.5 s | work that ends within it shows nothing at all |
/// | `appear` | 0.25 s | fade-in and pop-in |
/// | `minimumDisplay` | 0.5 s | counted from fully visible; never shorter unless dismissed now |
/// | `minimumPerMessage` | 0.4 s | an intermediate text stays at least this long |
/// | `finalMessage` | 0.5 s + 0.06 s × characters, clamped to 1 … 4 s | reading time of the final text |
/// | `fadeOut` | 0.35 s | opacity 1 → 0, then gone |
/// | `timeout` | none | cancels the work and ends the alert as timed out |
/// | `spinner` | braille dots, 80 ms a frame | `nil` for a toast |
public struct WaitAlertTiming: Sendable, Hashable {
    /// Work that ends within this delay shows nothing at all.
    public private(set) var grace: Duration
    /// The fade-in and pop-in duration.
    public private(set) var appear: Duration
    /// The shortest time the alert stays fully visible before fading, once shown.
    public private(set) var minimumDisplay: Duration
    /// The shortest time an intermediate text stays before a newer one replaces it.
    public private(set) var minimumPerMessage: Duration
    /// How long the final (success, failure, cancelled) text is read before the alert fades.
    public private(set) var finalMessage: ReadingTime
    /// The fade-out duration.
    public private(set) var fadeOut: Duration
    /// When set, the work is cancelled after this long and the alert ends as timed out.
    public private(set) var timeout: Duration?
    /// The spinner animation, or `nil` for an alert without one (a toast).
    public private(set) var spinner: Spinner?

    /// Makes a timing, checking every knob.
    ///
    /// - Throws: ``WaitAlertConfigurationError`` when a duration is negative or longer than
    ///   ``longestDuration``, the reading time's minimum is above its maximum, the minimum display
    ///   is longer than the longest reading time (both could not hold), or the timeout is not
    ///   positive.
    public init(
        grace: Duration = .milliseconds(500),
        appear: Duration = .milliseconds(250),
        minimumDisplay: Duration = .milliseconds(500),
        minimumPerMessage: Duration = .milliseconds(400),
        finalMessage: ReadingTime = .default,
        fadeOut: Duration = .milliseconds(350),
        timeout: Duration? = nil,
        spinner: Spinner? = .brailleDots
    ) throws(WaitAlertConfigurationError) {
        self.grace = grace
        self.appear = appear
        self.minimumDisplay = minimumDisplay
        self.minimumPerMessage = minimumPerMessage
        self.finalMessage = finalMessage
        self.fadeOut = fadeOut
        self.timeout = timeout
        self.spinner = spinner
        try validate()
    }

    private func validate() throws(WaitAlertConfigurationError) {
        let durations: [(String, Duration)] = [
            ("grace", grace), ("appear", appear), ("minimumDisplay", minimumDisplay),
            ("minimumPerMessage", minimumPerMessage), ("fadeOut", fadeOut),
        ]
        for (name, value) in durations where value < .zero {
            throw .negativeDuration(name, value)
        }
        if let timeout, timeout <= .zero {
            throw .nonPositiveDuration("timeout", timeout)
        }
        for (name, value) in durations + [("timeout", timeout ?? .zero)] where value > Self.longestDuration {
            throw .durationTooLong(name, value)
        }
        if minimumDisplay > finalMessage.maximum {
            throw .conflictingDurations(
                "minimumDisplay (\(minimumDisplay)) is longer than finalMessage.maximum (\(finalMessage.maximum)); "
                    + "the alert could not honour both"
            )
        }
    }
}

extension WaitAlertTiming {
    /// The longest duration any knob accepts: 10,000 years.
    ///
    /// Far enough to mean "never" in practice, and near enough that every deadline computed from
    /// such durations stays exact: no accepted timing can make a deadline overflow.
    public static let longestDuration = Duration.seconds(10_000 * 31_557_600)

    /// A copy with some knobs changed, checked again.
    ///
    /// - Throws: ``WaitAlertConfigurationError`` when the result is invalid.
    public func with(
        grace: Duration? = nil,
        appear: Duration? = nil,
        minimumDisplay: Duration? = nil,
        minimumPerMessage: Duration? = nil,
        finalMessage: ReadingTime? = nil,
        fadeOut: Duration? = nil
    ) throws(WaitAlertConfigurationError) -> WaitAlertTiming {
        try WaitAlertTiming(
            grace: grace ?? self.grace,
            appear: appear ?? self.appear,
            minimumDisplay: minimumDisplay ?? self.minimumDisplay,
            minimumPerMessage: minimumPerMessage ?? self.minimumPerMessage,
            finalMessage: finalMessage ?? self.finalMessage,
            fadeOut: fadeOut ?? self.fadeOut,
            timeout: self.timeout,
            spinner: self.spinner
        )
    }

    /// A copy that cancels the work after `timeout` (`nil`: never), checked again.
    ///
    /// Where work is wrapped, `withWaitAlert("…", timeout: .seconds(30))` reads better.
    ///
    /// - Throws: ``WaitAlertConfigurationError`` when `timeout` is not positive or too long.
    public func withTimeout(_ timeout: Duration?) throws(WaitAlertConfigurationError) -> WaitAlertTiming {
        try WaitAlertTiming(
            grace: grace, appear: appear, minimumDisplay: minimumDisplay, minimumPerMessage: minimumPerMessage,
            finalMessage: finalMessage, fadeOut: fadeOut, timeout: timeout, spinner: spinner)
    }

    // The presets below are constant and valid; `try!` cannot fail for them.

    /// The classic wait alert: 0.5 s grace, pop-in, reading time, fade-out.
    public static let `default` = try! WaitAlertTiming()

    /// For a terminal overlay: no pop-in (a terminal cannot scale text), the same grace and holds.
    public static let terminal = try! WaitAlertTiming(appear: .zero, fadeOut: .milliseconds(320))

    /// A toast: no spinner, no grace, shown for its reading time, then faded out.
    public static let toast = try! WaitAlertTiming(
        grace: .zero, minimumDisplay: .zero, minimumPerMessage: .zero, spinner: nil)

    /// Everything instantaneous: no grace, no animation, no holds, no lingering. For tests.
    public static let immediate = try! WaitAlertTiming(
        grace: .zero, appear: .zero, minimumDisplay: .zero, minimumPerMessage: .zero,
        finalMessage: .instant, fadeOut: .zero
    )
}

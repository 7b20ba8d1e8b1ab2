extension WaitAlertTiming {
    /// How long a final text is displayed: a base plus a time per character, clamped between a
    /// minimum and a maximum.
    ///
    /// The default, 0.5 s + 0.06 s × characters within 1 … 4 s, gives "Done" one second and a
    /// long failure message at most four.
    public struct ReadingTime: Sendable, Hashable {
        /// Time given to any text.
        public let base: Duration
        /// Time added for each character (grapheme cluster).
        public let perCharacter: Duration
        /// The shortest display before fading.
        public let minimum: Duration
        /// The longest display before fading.
        public let maximum: Duration

        /// Makes a reading time.
        ///
        /// - Throws: ``WaitAlertConfigurationError`` when a duration is negative or longer than
        ///   ``WaitAlertTiming/longestDuration``, or `minimum` is above `maximum`.
        public init(
            base: Duration = .milliseconds(500),
            perCharacter: Duration = .milliseconds(60),
            minimum: Duration = .seconds(1),
            maximum: Duration = .seconds(4)
        ) throws(WaitAlertConfigurationError) {
            for (name, value) in [
                ("base", base), ("perCharacter", perCharacter), ("minimum", minimum), ("maximum", maximum),
            ] {
                if value < .zero { throw .negativeDuration("finalMessage.\(name)", value) }
                if value > WaitAlertTiming.longestDuration { throw .durationTooLong("finalMessage.\(name)", value) }
            }
            guard minimum <= maximum else {
                throw .conflictingDurations(
                    "finalMessage.minimum (\(minimum)) is above finalMessage.maximum (\(maximum))")
            }
            self.base = base
            self.perCharacter = perCharacter
            self.minimum = minimum
            self.maximum = maximum
        }

        /// The display time of `text`: `base + perCharacter × characters`, clamped.
        public func duration(for text: String) -> Duration {
            // Past a million characters every accepted reading time is at its maximum already; the
            // bound keeps the product exact.
            let raw = base + perCharacter * min(text.count, 1_000_000)
            return min(max(raw, minimum), maximum)
        }

        /// 0.5 s + 0.06 s a character, between 1 and 4 seconds.
        public static let `default` = try! ReadingTime()

        /// No reading time at all.
        public static let instant = try! ReadingTime(base: .zero, perCharacter: .zero, minimum: .zero, maximum: .zero)
    }
}

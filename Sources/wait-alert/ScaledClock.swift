/// A clock that runs `speed` times faster than the continuous clock (slower below 1): what
/// `wait-alert replay --speed` shows a recording on, so every duration of the display — grace
/// delays, reading times, elapsed times — is the recorded one, played faster.
struct ScaledClock: Clock {
    struct Instant: InstantProtocol {
        /// The time since the clock was made, in the clock's own (scaled) time.
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    let speed: Double
    private let origin = ContinuousClock.now

    /// A clock running `speed` (a finite number above 0) times faster than real time.
    init(speed: Double) {
        precondition(speed > 0 && speed.isFinite, "a clock's speed is a finite number above 0")
        self.speed = speed
    }

    var now: Instant { Instant(offset: (ContinuousClock.now - origin) * speed) }

    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let left = now.duration(to: deadline)
        guard left > .zero else { return try Task.checkCancellation() }
        try await ContinuousClock().sleep(for: left / speed)
    }
}

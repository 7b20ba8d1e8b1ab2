/// Any `Clock<Duration>`, seen as durations since the moment it was wrapped.
///
/// Timelines count time as `Duration`s since an origin; this is the bridge from a real or manual
/// clock to those instants, and back when sleeping.
///
/// A class: every alert of a presenter holds the presenter's one clock, by reference.
final class AlertClock: Sendable {
    /// The time since the origin.
    let now: @Sendable () -> Duration
    /// Sleeps until the given time since the origin.
    let sleep: @Sendable (Duration) async throws -> Void
    /// Whether this is the system's monotonic clock, which a dispatch timer on the main queue can
    /// stand in for: it wakes the main actor directly, without first waking a worker thread.
    let isSystemClock: Bool

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
        if clock is ContinuousClock, let origin = origin as? ContinuousClock.Instant {
            // The system clock, read without going through `Clock`'s witnesses: the spinner's
            // thread reads it on every frame.
            now = { ContinuousClock.now - origin }
            isSystemClock = true
        } else {
            now = { origin.duration(to: clock.now) }
            isSystemClock = false
        }
    }
}

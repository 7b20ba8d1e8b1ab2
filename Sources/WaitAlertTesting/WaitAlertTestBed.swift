public import Testing
public import WaitAlert

/// A presenter on a manual clock with a recording renderer: everything a test needs to drive wait
/// alerts deterministically, without sleeping.
///
/// ``advance(by:)`` moves the clock one deadline at a time and lets every alert react before
/// moving on, so each phase is recorded at its exact instant.
///
/// ```swift
/// @Test @MainActor func showsProgress() async throws {
///     let bed = WaitAlertTestBed()
///     let work = Task { try await withWaitAlert("Loading…", presenter: bed.presenter) { _ in try await load() } }
///     await bed.advance(by: .seconds(1))
///     #expect(bed.recorder.latest?.text == "Loading…")
/// }
/// ```
@MainActor
public final class WaitAlertTestBed {
    /// The clock every alert of ``presenter`` sleeps on.
    public let clock: ManualClock
    /// Records every snapshot and log line.
    public let recorder: RecordingRenderer
    /// Pass this to `withWaitAlert`, `showWaitAlert` or `showToast`.
    public let presenter: WaitAlertPresenter

    /// Makes a test bed.
    ///
    /// - Parameters:
    ///   - timing: the default timing of its alerts.
    ///   - renderers: renderers to drive besides the recorder (an overlay on an in-memory terminal).
    ///   - wantsFrames: whether the recorder asks for every spinner frame.
    public init(timing: WaitAlertTiming = .default, renderers: [any WaitAlertRenderer] = [], wantsFrames: Bool = false)
    {
        clock = ManualClock()
        recorder = RecordingRenderer(wantsFrames: wantsFrames)
        presenter = WaitAlertPresenter(renderers: [recorder] + renderers, timing: timing, clock: clock)
    }

    /// The manual clock's time since its origin.
    public var now: Duration { clock.now.offset }

    /// Lets every alert handle what is due now, and waits until each one is asleep on the clock.
    public func settle() async {
        while true {
            await presenter.settle()
            let expected = presenter.timerDeadline.map { [ManualClock.Instant(offset: $0)] } ?? []
            if Self.contains(clock.sleeperDeadlines, expected) { return }
            await clock.sleepers { Self.contains($0, expected) }
        }
    }

    /// Moves time forward by `duration`, one deadline at a time.
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
        await advance(to: now + duration, sourceLocation: sourceLocation)
    }

    /// Moves time forward to `instant` (since the clock's origin), one deadline at a time.
    public func advance(to instant: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard instant >= now else {
            Issue.record(
                "WaitAlertTestBed.advance(to: \(instant)) is before now (\(now)); advance to a later instant.",
                sourceLocation: sourceLocation
            )
            return
        }
        await settle()
        while let next = clock.nextDeadline, next.offset <= instant {
            clock.advance(to: next)
            await settle()
        }
        clock.advance(to: .init(offset: instant))
        await settle()
    }

    /// Plays every alert to its end: advances from deadline to deadline until none is left.
    ///
    /// Records an issue if an alert is still alive after `limit` deadlines, which happens when the
    /// work it waits for never ends.
    public func run(limit: Int = 10_000, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle()
        for _ in 0..<limit {
            guard let next = clock.nextDeadline else { return }
            clock.advance(to: next)
            await settle()
        }
        Issue.record(
            "WaitAlertTestBed.run() gave up after \(limit) deadlines with \(presenter.alerts.count) alert(s) alive; end their work, or use advance(by:).",
            sourceLocation: sourceLocation
        )
    }

    private nonisolated static func contains(_ deadlines: [ManualClock.Instant], _ expected: [ManualClock.Instant])
        -> Bool
    {
        var remaining = deadlines
        for instant in expected {
            guard let index = remaining.firstIndex(of: instant) else { return false }
            remaining.remove(at: index)
        }
        return true
    }
}

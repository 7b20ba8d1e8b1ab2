extension WaitAlertTimeline {
    /// What the alert looks like at `now` (an instant not before the last event or deadline).
    public func snapshot(at now: Duration) -> WaitAlertSnapshot {
        let now = max(now, self.now)
        let spinning = phase == .appearing || phase == .visible
        let frame =
            spinning
            ? timing.spinner.map { $0.frameIndex(after: now - Self.onGrid(appearedAt ?? now, $0.interval)) } : nil
        return WaitAlertSnapshot(
            phase: phase,
            text: text,
            textSince: textSince,
            spinnerFrame: frame,
            spinnerGlyph: frame.flatMap { timing.spinner?.frames[$0] },
            spinner: frame == nil ? nil : timing.spinner,
            opacity: opacity(at: now),
            scale: scale(at: now),
            kind: kind,
            outcome: outcome,
            finalText: finalText,
            wasShown: appearedAt != nil,
            workDuration: finishedAt.map { $0 - beganAt },
            parent: nil,
            depth: 0,
            progress: progressSnapshot(at: now),
            isFailing: isFailing && outcome == nil,
            isCancelling: isCancelling && outcome == nil
        )
    }

    /// The progress at `now`, with its rate and time left; after the work has ended, without them.
    func progressSnapshot(at now: Duration) -> WaitAlertProgress? {
        guard let progress else { return nil }
        var snapshot = WaitAlertProgress(completed: progress.completed, total: progress.total, unit: progress.unit)
        if outcome == nil {
            let total = progress.total.map { Double(max($0, progress.completed)) }
            let estimate = estimator.estimate(total: total, at: now)
            snapshot.rate = estimate.rate
            snapshot.remaining = estimate.remaining
        }
        return snapshot
    }

    /// When the progress would next say `stalled`, while the work runs and reports progress.
    var progressStallsAt: Duration? {
        guard progress != nil, outcome == nil else { return nil }
        return estimator.stallsAt
    }

    /// The next instant after `now` at which the picture changes without any event: the next
    /// spinner frame, or the next animation step while appearing or fading. `nil` when the picture
    /// is still.
    /// The first instant after `now` on the grid of the alert's frames (its spinner's interval),
    /// whatever its phase.
    func nextFrameOnGrid(after now: Duration) -> Duration {
        let interval = (timing.spinner?.interval ?? Self.animationInterval).attoseconds
        guard interval > 0 else { return now }
        return Duration(attoseconds: (now.attoseconds / interval + 1) * interval)
    }

    public func nextFrame(after now: Duration) -> Duration? {
        let interval = timing.spinner?.interval ?? Self.animationInterval
        switch phase {
        case .appearing, .fading:
            break
        case .visible where timing.spinner != nil:
            break
        default:
            return nil
        }
        let origin = Self.onGrid(phase == .fading ? (fadeStartedAt ?? now) : (appearedAt ?? now), interval)
        let steps = (max(now, origin) - origin).attoseconds / interval.attoseconds + 1
        return origin + Duration(attoseconds: interval.attoseconds * steps)
    }

    /// `instant` moved down to a multiple of `interval` since the timeline's origin. Frames are
    /// counted from there: every timeline on one clock with the same interval turns its frames at
    /// the same instants (a region of many rows wakes once per frame, and draws them in one
    /// write), and the first frame still shows from the instant the alert appeared.
    static func onGrid(_ instant: Duration, _ interval: Duration) -> Duration {
        let step = interval.attoseconds
        guard step > 0 else { return instant }
        let ticks = instant.attoseconds / step - (instant.attoseconds % step < 0 ? 1 : 0)
        return Duration(attoseconds: ticks * step)
    }

    /// The animation step of an alert without a spinner while it appears or fades.
    static let animationInterval = Duration.milliseconds(50)

    func opacity(at now: Duration) -> Double {
        switch phase {
        case .pending, .gone:
            return 0
        case .appearing:
            return progress(since: appearedAt ?? now, over: timing.appear, at: now)
        case .visible, .lingering:
            return 1
        case .fading:
            return fadeFromOpacity * (1 - progress(since: fadeStartedAt ?? now, over: timing.fadeOut, at: now))
        }
    }

    func scale(at now: Duration) -> Double {
        switch phase {
        case .pending: Self.popIn(0)
        case .appearing: Self.popIn(progress(since: appearedAt ?? now, over: timing.appear, at: now))
        default: 1
        }
    }

    private func progress(since start: Duration, over length: Duration, at now: Duration) -> Double {
        guard length > .zero else { return 1 }
        return min(max((now - start) / length, 0), 1)
    }

    /// The classic pop-in: scale 0.6 → 1.1 → 0.9 → 1.0 at 0, 0.6, 0.8 and 1.0 of the duration.
    static func popIn(_ t: Double) -> Double {
        let keys: [(time: Double, scale: Double)] = [(0, 0.6), (0.6, 1.1), (0.8, 0.9), (1, 1)]
        guard t > 0 else { return keys[0].scale }
        for (a, b) in zip(keys, keys.dropFirst()) where t <= b.time {
            return a.scale + (b.scale - a.scale) * (t - a.time) / (b.time - a.time)
        }
        return 1
    }
}

/// What the event stream says about a presenter's alerts, worked out from their snapshots: a pure
/// state machine, fed snapshots and log lines at explicit instants, returning the events they make.
///
/// An alert starts with its first snapshot (before its grace delay ends: a stream shows what
/// ran, not only what was drawn); a new text, a change of progress and the first snapshot with an
/// outcome each make one event; the alert is forgotten once gone. The stream begins at the first
/// instant it is given, and times events from there.
struct EventStream {
    /// What was last said of an alert.
    private struct Said {
        var text: String
        var progress: ReportedProgress?
        var failing = false
        var cancelling = false
        var ended = false
        var began: Duration
    }

    private var said: [WaitAlertID: Said] = [:]
    /// The instant the stream began.
    private(set) var origin: Duration?

    /// The events `snapshot` of `alert` at `instant` makes.
    mutating func apply(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) -> [WaitAlertEvent]
    {
        let time = self.time(of: instant)
        var events: [WaitAlertEvent] = []
        var seen: Said
        if let known = said[alert] {
            seen = known
        } else {
            seen = Said(text: snapshot.text, began: instant)
            events.append(
                WaitAlertEvent(.start(title: snapshot.text), alert: alert, parent: snapshot.parent, time: time))
        }
        defer { said[alert] = snapshot.phase == .gone ? nil : seen }
        guard !seen.ended else { return events }
        if snapshot.outcome == nil, snapshot.phase < .lingering, snapshot.text != seen.text {
            seen.text = snapshot.text
            events.append(WaitAlertEvent(.text(snapshot.text), alert: alert, time: time))
        }
        let progress = snapshot.progress.map {
            ReportedProgress(completed: $0.completed, total: $0.total, unit: $0.unit)
        }
        if progress != seen.progress {
            seen.progress = progress
            let kind: WaitAlertEvent.Kind =
                progress.map { .progress(completed: $0.completed, total: $0.total, unit: $0.unit) } ?? .progressUnknown
            events.append(WaitAlertEvent(kind, alert: alert, time: time))
        }
        if snapshot.isFailing != seen.failing, snapshot.outcome == nil {
            seen.failing = snapshot.isFailing
            events.append(WaitAlertEvent(.failing(snapshot.isFailing), alert: alert, time: time))
        }
        if snapshot.isCancelling, !seen.cancelling, snapshot.outcome == nil {
            seen.cancelling = true
            events.append(WaitAlertEvent(.cancelling, alert: alert, time: time))
        }
        if let outcome = snapshot.outcome {
            seen.ended = true
            let elapsed = snapshot.workDuration ?? (instant - seen.began)
            events.append(
                WaitAlertEvent(
                    .end(outcome: outcome, text: snapshot.finalText, elapsed: elapsed), alert: alert, time: time))
        }
        return events
    }

    /// The event of `question`, asked at `instant`.
    mutating func question(_ question: WaitAlertEvent.Question, at instant: Duration) -> WaitAlertEvent {
        WaitAlertEvent(.question(question), alert: nil, time: time(of: instant))
    }

    /// The event of `line`, logged by `alert` (or printed by the program, for `nil`) at `instant`.
    mutating func log(_ line: String, from alert: WaitAlertID?, at instant: Duration) -> WaitAlertEvent {
        WaitAlertEvent(.log(line), alert: alert, time: time(of: instant))
    }

    /// The time since the stream began, which is `instant` if it has not yet.
    private mutating func time(of instant: Duration) -> Duration {
        if origin == nil { origin = instant }
        return max(instant - (origin ?? instant), .zero)
    }
}

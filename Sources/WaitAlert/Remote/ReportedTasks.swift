/// The tasks one source of received events has open — a child process's connection, or a
/// recording being played — and how its events become a reporter's calls.
///
/// Ids belong to the source: `start` opens task `id` under the source's task `parent`, or under
/// ``target``; `text`, `progress` and `log` go to task `id`, or without an `id` to the target;
/// `end` ends task `id` (never the target). Without a target, a `start` with no parent begins a
/// top-level alert, and a `log` without an id is a line the recorded program printed (sanitized:
/// no escape sequence of a recording reaches the terminal). A `start` of an id already open, past ``openTaskLimit`` open tasks, or without
/// an id counts as malformed, like a line that is not an event.
@MainActor
struct ReportedTasks {
    /// Where events without a parent go; `nil`: a `start` without a parent begins a top-level alert.
    let target: AlertSession?
    /// The source's open tasks, by its ids.
    private(set) var open: [UInt64: AlertSession] = [:]
    /// The source's open tasks in the order they began.
    private var order: [UInt64] = []
    /// Whether a task of the source began.
    private(set) var began = false
    /// How many lines were not events, or events that could not apply.
    private(set) var malformed = 0
    /// What cancels the source, attached to the top-level alerts it begins: Ctrl-C (or
    /// ``WaitAlertPresenter/cancelAll()``) then stops a recording being played.
    var cancelSource: (@Sendable () -> Void)?

    static let openTaskLimit = 1_000

    init(target: AlertSession?) { self.target = target }

    /// Applies one received event (`nil` for a line that is not one) to `presenter`'s alerts; a
    /// start or an end happened at `instant` when given (a recording played says when), else now.
    mutating func apply(
        _ event: WaitAlertEvent.Received?, on presenter: WaitAlertPresenter, at instant: Duration? = nil
    ) {
        guard let event else {
            malformed += 1
            return
        }
        let session = event.id.map { open[$0] } ?? target
        switch event.kind {
        case .start(let title):
            guard let task = event.id, open[task] == nil, open.count < Self.openTaskLimit else {
                malformed += 1
                return
            }
            if let parent = event.parent.flatMap({ open[$0] }) ?? target {
                guard !parent.isGone, parent.timeline.outcome == nil else { return }
                open[task] = presenter.begin(title, parent: parent, beganAt: instant)
                order.append(task)
                began = true
            } else {
                // A recording says when its alerts end (a timeout too): the presenter's timeout
                // does not apply, so it never cancels the playing.
                let alert = presenter.begin(
                    title, timing: (try? presenter.timing.withTimeout(nil)) ?? presenter.timing, beganAt: instant)
                if let cancelSource { alert.attach(cancel: cancelSource) }
                open[task] = alert
            }
        case .text(let text): session?.mailbox.update(text)
        case .progress(let completed, let total, let unit):
            session?.mailbox.progress(completed: completed, total: total, unit: unit)
        case .progressUnknown: session?.mailbox.indeterminate()
        case .failing(let failing): session?.mailbox.failing(failing)
        case .cancelling: session?.mailbox.cancelling()
        case .log(let line):
            if let session {
                session.mailbox.log(line)
            } else if event.id == nil, target == nil {
                // A line the recorded program printed: after what its alerts reported before it,
                // and sanitized like a log line (a recording is a file from anywhere; where no
                // region draws, the presenter writes the line as it is).
                for task in open.sorted(by: { $0.key < $1.key }) { task.value.mailbox.applyNowIfOnMainActor() }
                for part in TextSanitizer.logLines(line) { presenter.print(part, to: .standardError) }
            }
        case .question:
            return  // its answer, a log line, follows
        case .end(let outcome, _, _):
            guard let task = event.id, let ended = open.removeValue(forKey: task) else { return }
            if let index = order.firstIndex(of: task) { order.remove(at: index) }
            _ = presenter.end(ended, with: outcome, at: instant)
        }
    }

    /// Counts a line that could not apply.
    mutating func countMalformed() {
        malformed += 1
    }

    /// Ends every open task with `outcome` (as cancelled unless told), the latest first, so
    /// children end before their parents: ``WaitAlertOutcome/dismissed`` takes them off the
    /// display without a trace, for a source that goes on showing them elsewhere.
    mutating func endOpen(on presenter: WaitAlertPresenter, with outcome: WaitAlertOutcome = .cancelled) {
        for task in open.sorted(by: { $0.key > $1.key }).map(\.value) {
            _ = presenter.end(task, with: outcome)
        }
        open = [:]
        order = []
    }

    /// The open task `id` when its work still runs; for `0`, the task that began last and still
    /// runs.
    func running(_ id: UInt64) -> AlertSession? {
        guard id == 0 else { return open[id].flatMap { $0.isRunning ? $0 : nil } }
        return order.reversed().lazy.compactMap { open[$0] }.first { $0.isRunning }
    }
}

extension AlertSession {
    /// Whether the alert's work still runs: it has no outcome and is not gone.
    var isRunning: Bool { timeline.outcome == nil && !isGone }
}

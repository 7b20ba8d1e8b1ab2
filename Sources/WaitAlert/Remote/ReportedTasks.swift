/// The tasks one source of received events has open — a child process's connection, or a
/// recording being played — and how its events become a reporter's calls.
///
/// Ids belong to the source: `start` opens task `id` under the source's task `parent`, or under
/// ``target``; `text`, `progress` and `log` go to task `id`, or without an `id` to the target;
/// `end` ends task `id` (never the target). Without a target, a `start` with no parent begins a
/// top-level alert, and a `log` without an id is a line the recorded program printed. A `start` of an id already open, past ``openTaskLimit`` open tasks, or without
/// an id counts as malformed, like a line that is not an event.
@MainActor
struct ReportedTasks {
    /// Where events without a parent go; `nil`: a `start` without a parent begins a top-level alert.
    let target: AlertSession?
    /// The source's open tasks, by its ids.
    private(set) var open: [UInt64: AlertSession] = [:]
    /// How many lines were not events, or events that could not apply.
    private(set) var malformed = 0
    /// What cancels the source, attached to the top-level alerts it begins: Ctrl-C (or
    /// ``WaitAlertPresenter/cancelAll()``) then stops a recording being played.
    var cancelSource: (@Sendable () -> Void)?

    static let openTaskLimit = 1_000

    init(target: AlertSession?) { self.target = target }

    /// Applies one received event (`nil` for a line that is not one) to `presenter`'s alerts.
    mutating func apply(_ event: WaitAlertEvent.Received?, on presenter: WaitAlertPresenter) {
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
            let parent = event.parent.flatMap { open[$0] } ?? target
            if let parent {
                guard !parent.isGone, parent.timeline.outcome == nil else { return }
                open[task] = presenter.begin(title, parent: parent)
            } else {
                // A recording says when its alerts end (a timeout too): the presenter's timeout
                // does not apply, so it never cancels the playing.
                let alert = presenter.begin(title, timing: (try? presenter.timing.withTimeout(nil)) ?? presenter.timing)
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
                // A line the recorded program printed: after what its alerts reported before it.
                for task in open.sorted(by: { $0.key < $1.key }) { task.value.mailbox.applyNowIfOnMainActor() }
                presenter.print(line, to: .standardError)
            }
        case .question:
            return  // its answer, a log line, follows
        case .end(let outcome, _, _):
            guard let task = event.id, let ended = open.removeValue(forKey: task) else { return }
            _ = presenter.end(ended, with: outcome)
        }
    }

    /// Counts a line that could not apply.
    mutating func countMalformed() {
        malformed += 1
    }

    /// Ends every open task as cancelled, the latest first, so children end before their parents.
    mutating func cancelOpen(on presenter: WaitAlertPresenter) {
        for task in open.sorted(by: { $0.key > $1.key }).map(\.value) {
            _ = presenter.end(task, with: .cancelled)
        }
        open = [:]
    }
}

import Synchronization

/// The WaitAlert events a command prints — a program run with `WAIT_ALERT_PROGRESS=json`, here or
/// on another machine (`ssh host 'WAIT_ALERT_PROGRESS=json tool'`, `docker exec`, `kubectl
/// exec`) — shown as rows of the alert that runs it, as reports from the event socket are.
///
/// The command's supervisor hands each line that begins as an event (`{"v":`) to ``take(_:)``
/// on its own thread: a line that reads as an event is taken (neither shown nor passed on) and
/// applied on the main actor, in order, like a child process's report (``ReportedTasks``: the
/// stream's top-level alerts become child tasks of the target, its ids its own). A line that does
/// not read as one is output like any other. When the command ends, ``finish()`` ends the rows
/// it left open as cancelled — a dropped connection, a killed program. While ``pendingLimit``
/// events wait for the main actor, the supervisor's thread waits too, and so does a command that
/// floods events (its pipe fills): the program's memory does not grow with the flood.
package final class CommandEvents: Sendable {
    private let inbox = Mutex<Inbox>(Inbox())
    private let applier: Applier

    private struct Inbox {
        var events: [WaitAlertEvent.Received] = []
        var scheduled = false
    }

    /// Where the events apply, on the main actor.
    @MainActor
    private final class Applier {
        let presenter: WaitAlertPresenter
        var tasks: ReportedTasks

        init(presenter: WaitAlertPresenter, target: AlertSession) {
            self.presenter = presenter
            tasks = ReportedTasks(target: target)
        }
    }

    /// Events applied under `target`, an alert of `presenter`.
    @MainActor
    init(presenter: WaitAlertPresenter, target: AlertSession) {
        applier = Applier(presenter: presenter, target: target)
    }

    /// The most events waiting for the main actor before ``take(_:)`` waits for them to be applied.
    static let pendingLimit = 4096

    /// Takes `line` when it is an event (any thread but the main actor's): whether it was.
    package func take(_ line: String) -> Bool {
        guard let event = WaitAlertEvent.received(line) else { return false }
        let (schedule, waiting) = inbox.withLock { inbox in
            inbox.events.append(event)
            defer { inbox.scheduled = true }
            return (!inbox.scheduled, inbox.events.count)
        }
        if schedule { Task { @MainActor in self.drain() } }
        if waiting >= Self.pendingLimit {
            while inbox.withLock({ $0.events.count }) >= Self.pendingLimit / 2 { Platform.sleep(for: .milliseconds(1)) }
        }
        return true
    }

    /// Applies the events taken so far, in order.
    @MainActor
    func drain() {
        let events = inbox.withLock { inbox in
            inbox.scheduled = false
            defer { inbox.events = [] }
            return inbox.events
        }
        for event in events { applier.tasks.apply(event, on: applier.presenter) }
    }

    /// The command ended: what it printed is applied, and the rows it left open end as cancelled.
    /// Events that could not apply (a `start` of an id already open, past the open-task limit)
    /// are counted, and the count is logged once, as the socket does.
    @MainActor
    package func finish() {
        drain()
        applier.tasks.endOpen(on: applier.presenter, with: .cancelled)
        let malformed = applier.tasks.malformed
        if malformed > 0, let target = applier.tasks.target {
            let lines = malformed == 1 ? "1 event that could not apply" : "\(malformed) events that could not apply"
            target.mailbox.log("wait-alert: the command printed \(lines); ignored")
        }
    }
}

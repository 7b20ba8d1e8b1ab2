/// Where top-level alerts begin, and with the first of them the socket through which the
/// processes the program starts report into its alerts (``ChildProcessReports``).
extension WaitAlertPresenter {
    /// Begins a top-level alert; the first one of a presenter that takes child processes'
    /// reports makes the socket they report through (`WAIT_ALERT_SOCKET`).
    func beginTopLevel(
        _ title: String, timing: WaitAlertTiming?, kind: WaitAlertKind = .waitAlert,
        mailbox: ReportMailbox = ReportMailbox()
    ) -> AlertSession {
        guard kind == .waitAlert else { return begin(title, timing: timing, kind: kind, mailbox: mailbox) }
        exportSocketToChildProcesses()
        let session = begin(title, timing: timing, kind: kind, mailbox: mailbox)
        ChildProcessReports.ownAlertBegan()
        return session
    }

    /// Makes the socket the processes the program starts report through, and exports it
    /// (`WAIT_ALERT_SOCKET`), when this presenter takes their reports and no socket was made yet:
    /// for a program that starts a process just before its alert begins.
    package func exportSocketToChildProcesses() {
        if servesChildProcesses { ChildProcessReports.serve(self) }
    }
}

/// The environment that tells a process which alert it reports under (`WAIT_ALERT_SOCKET` and
/// `WAIT_ALERT_PARENT`), for the code that starts it.
extension WaitAlertReporter {
    /// The environment variables under which a process started now reports into this alert: its
    /// alerts show as child tasks of this one (and of the nearest alert above it that still runs,
    /// once this one has ended), whatever else began meanwhile. Add them to the environment the
    /// process is started with; without them it inherits the program's own, which names the
    /// program's alert that began last.
    ///
    /// Empty when the alert's presenter neither takes the reports of child processes (its
    /// overlay on standard error has not made the socket yet) nor reports to a parent.
    package var childProcessEnvironment: [String: String] {
        guard let session = parent?.session else { return [:] }
        var ids: [UInt64] = []
        var current: AlertSession? = session
        while let alert = current {
            ids.append(alert.model.id.rawValue)
            current = alert.parent
        }
        return EventSocket.environment(under: ids)
    }
}

extension WaitAlertPresenter {
    /// The environment variables under which a process started now reports under this program's
    /// alert that began last and still runs — or, started before any, the one that begins next
    /// (as `wait-alert` starts its command): see ``WaitAlertReporter/childProcessEnvironment``.
    /// The program's own environment says the same once the socket is made or the program
    /// reports to a parent, so processes started with it inherit this.
    package nonisolated static var childProcessEnvironment: [String: String] { EventSocket.environment(under: []) }
}

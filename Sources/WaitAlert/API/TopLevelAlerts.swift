/// Where top-level alerts begin, and with the first of them the socket through which the
/// processes the program starts report into its alerts (``ChildProcessReports``).
extension WaitAlertPresenter {
    /// Begins a top-level alert; the first one of a presenter that takes child processes'
    /// reports makes the socket they report through (`WAIT_ALERT_SOCKET`).
    func beginTopLevel(
        _ title: String, timing: WaitAlertTiming?, kind: WaitAlertKind = .waitAlert,
        mailbox: ReportMailbox = ReportMailbox()
    ) -> AlertSession {
        if kind == .waitAlert { exportSocketToChildProcesses() }
        return begin(title, timing: timing, kind: kind, mailbox: mailbox)
    }

    /// Makes the socket the processes the program starts report through, and exports it
    /// (`WAIT_ALERT_SOCKET`), when this presenter takes their reports and no socket was made yet:
    /// for a program that starts a process just before its alert begins.
    package func exportSocketToChildProcesses() {
        if servesChildProcesses { ChildProcessReports.serve(self) }
    }
}

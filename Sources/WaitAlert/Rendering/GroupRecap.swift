/// What a group leaves when it ends, besides the record lines of its child tasks: the last log
/// lines of each child task that failed, and the steps it planned that never ran.
///
/// Kept by every renderer that prints endings (the terminal region, plain lines), so both print
/// the same recap.
struct GroupRecap {
    /// How many of a failed child task's last log lines are printed again; 0 for none.
    let logLines: Int
    /// The last log lines of each child task, until it ends.
    private var recentLogs: [WaitAlertID: [String]] = [:]
    /// For each group, its failed child tasks that logged: their final text and last log lines.
    private var failures: [WaitAlertID: [(text: String, logs: [String])]] = [:]

    init(logLines: Int) {
        self.logLines = max(logLines, 0)
    }

    /// Keeps `lines`, logged by the child task `alert`.
    mutating func log(_ lines: [String], from alert: WaitAlertID) {
        guard logLines > 0, !lines.isEmpty else { return }
        var recent = recentLogs[alert] ?? []
        recent += lines.suffix(logLines)
        recentLogs[alert] = Array(recent.suffix(logLines))
    }

    /// The child task `alert` of `parent` ended with `final`.
    mutating func ended(_ alert: WaitAlertID, of parent: WaitAlertID, with final: FinalLine?) {
        let logs = recentLogs.removeValue(forKey: alert) ?? []
        guard let final, final.tone == .failure, !logs.isEmpty else { return }
        failures[parent, default: []].append((final.text, logs))
    }

    /// The lines `parent` leaves as it ends: for each failed child task, its final text and last
    /// log lines (indented); then what still waited its turn, which never ran (see
    /// ``notRun(_:)``).
    mutating func close(_ parent: WaitAlertID, pending: PendingWork) -> [FinalLine] {
        let parts = closing(parent, pending: pending)
        return parts.failedTails + parts.notRun
    }

    /// ``close(_:pending:)``'s two parts: the failed child tasks' final texts and last log lines,
    /// and what never ran.
    mutating func closing(_ parent: WaitAlertID, pending: PendingWork) -> (
        failedTails: [FinalLine], notRun: [FinalLine]
    ) {
        var lines: [FinalLine] = []
        for failure in failures.removeValue(forKey: parent) ?? [] {
            lines.append(FinalLine(icon: nil, text: "\(failure.text) — last log lines:", tone: .failure))
            lines += failure.logs.map { FinalLine(icon: nil, text: "    " + $0, tone: .neutral) }
        }
        return (lines, Self.notRun(pending))
    }

    /// At most this many steps that never ran are listed one by one; more make one line.
    static let notRunListed = 5

    /// What waited its turn in a group and never ran: a line each (`○ Linking: not run`) for a
    /// handful of steps known by title, one line naming the first three for more (`○ 96 tasks not
    /// run: Compiling Logging, Compiling Metrics, Compiling Parser and 93 more`) — a group that
    /// stops early under a concurrency limit leaves one line, not one per task that waited its
    /// turn. When more may have waited than were counted, it says so: `○ 6 or more tasks not
    /// run: … and more`.
    static func notRun(_ pending: PendingWork) -> [FinalLine] {
        let names = pending.listedSteps.map { WaitAlertOutcome.name(fromTitle: $0) }
        let total = pending.count
        if total == names.count, total <= notRunListed, !pending.hasUncountedTasks {
            return names.map { FinalLine(icon: "○", text: "\($0): not run", tone: .neutral) }
        }
        guard total > 0 else { return [] }
        let named = names.prefix(3)
        var text =
            pending.hasUncountedTasks
            ? "\(total) or more tasks not run" : "\(total) task\(total == 1 ? "" : "s") not run"
        if !named.isEmpty {
            text += ": " + named.joined(separator: ", ")
            if pending.hasUncountedTasks {
                text += " and more"
            } else if total > named.count {
                text += " and \(total - named.count) more"
            }
        }
        return [FinalLine(icon: "○", text: text, tone: .neutral)]
    }

    /// Lets go of what is kept for `alert`.
    mutating func forget(_ alert: WaitAlertID) {
        recentLogs[alert] = nil
        failures[alert] = nil
    }

    /// Whether a child task that ended with `outcome` and `final`, after being shown or not, leaves
    /// a record line under `retention`: a task that ended within its grace leaves one only if it
    /// says something of its own — it failed, was skipped, or ended with a warning or information;
    /// a transient one only if it did not succeed.
    static func leavesRecord(
        _ final: FinalLine, outcome: WaitAlertOutcome?, wasShown: Bool, retention: WaitAlertRowRetention
    ) -> Bool {
        let saysSomething =
            switch outcome {
            case .skipped, .warning, .info, .failure: true
            default: false
            }
        if !wasShown { return saysSomething }
        if retention == .transient { return saysSomething || final.tone == .warning }
        return true
    }
}

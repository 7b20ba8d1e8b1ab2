/// What the agent mode says of a presenter's alerts: only what a reader who pays for every byte
/// needs to act on — a pure state machine, fed snapshots and log lines, returning the lines to
/// write.
///
/// - A child task that fails says so at once, with its last log lines; one that ends with a
///   warning, is cancelled or times out says so in one line. One that succeeds or is skipped says
///   nothing.
/// - A top-level alert says nothing while it runs and leaves its final line when it ends — after
///   its own last log lines when it failed — and, when it had child tasks, one line counting how
///   they ended.
/// - Texts, progress, spinners and successful work's log lines are left out.
///
/// ```text
/// ✖ Compiling Parser: exit status 1
///     Parser.swift:12: error: cannot find 'tokn' in scope
/// ✖ Building: 1 task failed
///   12 tasks: 10 succeeded, 1 failed, 1 not run
/// ```
struct CompactReport {
    /// How many of a failing alert's last log lines are kept and shown.
    let tailLines: Int

    private struct Alert {
        var parent: WaitAlertID?
        var logs: LastLines
        /// How many log lines it wrote in all.
        var logged = 0
        var ended = false
    }

    /// How a top-level alert's child tasks ended.
    private struct Tally {
        var succeeded = 0
        var failed = 0
        var warned = 0
        var cancelled = 0
        var skipped = 0
        var total: Int { succeeded + failed + warned + cancelled + skipped }
    }

    private var alerts: [WaitAlertID: Alert] = [:]
    private var tallies: [WaitAlertID: Tally] = [:]

    init(tailLines: Int = 10) {
        self.tailLines = max(tailLines, 0)
    }

    /// Keeps `line`, logged by `alert`, in case it fails.
    mutating func log(_ line: String, from alert: WaitAlertID) {
        guard var known = alerts[alert] else { return }
        for part in TextSanitizer.logLines(line) {
            known.logs.append(part)
            known.logged += 1
        }
        alerts[alert] = known
    }

    /// The lines `snapshot` of `alert` makes: none until it ends.
    mutating func apply(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID) -> [String] {
        var known = alerts[alert] ?? Alert(parent: snapshot.parent, logs: LastLines(capacity: tailLines))
        defer { alerts[alert] = snapshot.phase == .gone ? nil : known }
        guard let outcome = snapshot.outcome, !known.ended else { return [] }
        known.ended = true
        let final = FinalLine.of(snapshot)
        if let parent = snapshot.parent {
            count(outcome, under: root(of: parent))
            switch outcome {
            case .failure, .timedOut:
                return (final.map { [$0.plain] } ?? []) + tail(of: known)
            case .warning, .cancelled:
                return final.map { [$0.plain] } ?? []
            default:
                return []
            }
        }
        var lines: [String] = []
        switch outcome {
        case .failure, .timedOut: lines += tail(of: known)
        default: break
        }
        if let final { lines.append(final.plain) }
        if let tally = tallies.removeValue(forKey: alert) {
            lines.append("  " + Self.summary(tally, notRun: snapshot.pendingWork.count))
        } else if snapshot.pendingWork.count > 0 {
            lines.append("  " + Self.summary(Tally(), notRun: snapshot.pendingWork.count))
        }
        return lines
    }

    /// The top-level alert above `alert`.
    private func root(of alert: WaitAlertID) -> WaitAlertID {
        alert.root { alerts[$0]?.parent }
    }

    private mutating func count(_ outcome: WaitAlertOutcome, under root: WaitAlertID) {
        var tally = tallies[root] ?? Tally()
        switch outcome {
        case .success, .info, .dismissed: tally.succeeded += 1
        case .failure, .timedOut: tally.failed += 1
        case .warning: tally.warned += 1
        case .cancelled: tally.cancelled += 1
        case .skipped: tally.skipped += 1
        }
        tallies[root] = tally
    }

    /// A failing alert's last log lines, indented, after a line saying how many came before.
    private func tail(of alert: Alert) -> [String] {
        let lines = alert.logs.lines
        guard !lines.isEmpty else { return [] }
        let earlier = alert.logged - lines.count
        let note = earlier > 0 ? ["    … \(earlier) earlier line\(earlier == 1 ? "" : "s")"] : []
        return note + lines.map { "    " + $0 }
    }

    /// `12 tasks: 10 succeeded, 1 failed, 1 not run`.
    private static func summary(_ tally: Tally, notRun: Int) -> String {
        let parts = [
            (tally.succeeded, "succeeded"), (tally.failed, "failed"), (tally.warned, "with warnings"),
            (tally.cancelled, "cancelled"), (tally.skipped, "skipped"), (notRun, "not run"),
        ]
        .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        let total = tally.total + notRun
        return "\(total) task\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }
}

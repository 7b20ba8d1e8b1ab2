/// Draws alerts as plain lines, without a single escape byte: for pipes, files, CI logs and
/// `TERM=dumb`.
///
/// A top-level alert prints a line when it first appears, a line per distinct text at most once
/// every ``minimumInterval`` (a text that comes sooner waits, and a newer one replaces it: latest
/// wins, so a busy alert never floods a log), every log line, and its final outcome — also when it
/// finished within its grace delay and was never shown, so the record of what happened is never
/// lost. Its progress (``WaitAlertReporter/progress(completed:total:unit:)``) — or, for a group,
/// its ``WaitAlertSnapshot/groupProgress`` — is printed as it passes 25, 50, 75 and 100 %, and
/// otherwise at most every ``progressInterval`` when it moved:
/// `Downloading: 45% (1.8 MB / 4.0 MB, 1.2 MB/s, ~3m left)`, or for a group counting tasks
/// `Downloading: 45% (42/100 tasks, 93.1 MB, 14.2 MB/s, ~3m left)`.
///
/// A top-level alert whose work says it is failing while it goes on (``WaitAlertSnapshot/isFailing``)
/// prints `Building: failing`, and `Building: no longer failing` when that ends; one whose
/// cancelling was asked for (``WaitAlertSnapshot/isCancelling``) prints `Building: cancelling…`
/// once, while its work goes on.
///
/// A child task prints one line per change of state: when it starts (once its grace delay has
/// passed), and when it ends (`✔ Compiling Core (3.2s)`, `✖ …`, `↷ …`); a child task that ends
/// within its grace prints only a failure or a skip. When a group ends, the last log lines of its
/// failed child tasks are printed again, then the steps it planned that never ran. While work
/// runs and nothing else was printed for ``heartbeatInterval``, a heartbeat line says what is
/// still running, so a CI watchdog that waits for output stays fed.
///
/// In a CI service's log (``TerminalOverlay/Mode/github``, ``TerminalOverlay/Mode/gitlab``) the
/// lines of each top-level alert are folded in a group, closed before the alert's ending, so its
/// failure and the failed tasks' last log lines show outside it; on GitHub failures and warnings
/// are annotations too, and a Markdown summary of each top-level alert's tasks is appended to
/// the step summary file.
///
/// While a question asked on the same terminal waits for its line, the renderer's own lines wait
/// too (an alert's latest text and progress, start and end lines), so the question stays the
/// last thing on the screen and is asked once; they follow its answer. Log lines do not wait:
/// they go above the question, which is asked again under them.
@MainActor
public final class LineRenderer: WaitAlertRenderer, WaitAlertFrameRenderer {
    /// The shortest time between two progress lines of one alert.
    public let minimumInterval: Duration
    /// The longest time without a line while something runs: then a heartbeat line is printed.
    public let heartbeatInterval: Duration
    /// The shortest time between two progress lines of one alert, besides the quarters.
    public let progressInterval: Duration
    /// Where the lines go.
    package let terminal: any WaitAlertTerminal
    /// Whether final lines are coloured by how the work ended (accessible mode on a terminal).
    private let colors: Bool
    private var alerts: [WaitAlertID: Printed] = [:]
    /// The failed child tasks' last log lines and the planned steps, printed when a group ends.
    private var recap: GroupRecap
    /// The instant of the last line written, or of the first render.
    private var lastLine: Duration?
    /// The instant of the latest render.
    private var latest = Duration.zero
    /// Lines made while a question waits for its line, in order, to print once it is answered:
    /// an alert's newer text or progress line takes the place of the one waiting.
    private var held: [(key: HeldKey?, bytes: [UInt8])] = []
    /// How lines are folded in a CI service's log, when they are.
    private var folding: LogFolding?
    /// Top-level alerts' last log lines, printed again after the group when one fails (folded
    /// logs only).
    private var rootLogs: [WaitAlertID: LastLines] = [:]
    /// The annotations of a top-level alert's failed child tasks, and the failed tasks' last log
    /// lines of the groups under it, written after its group.
    private var annotations: [WaitAlertID: [String]] = [:]
    private var recaps: [WaitAlertID: [String]] = [:]
    /// The summary of the run and the file it is appended to (GitHub's `GITHUB_STEP_SUMMARY`).
    private var summary = StepSummary()
    private let summaryPath: String?
    /// The wall-clock time in seconds since 1970, for GitLab's sections.
    private let unixTime: () -> Int

    /// What a held line is, when a newer one replaces it.
    private enum HeldKey: Hashable {
        case text(WaitAlertID)
        case progress(WaitAlertID)
    }

    private struct Printed {
        var text: String?
        var at: Duration
        /// Whether a newer text waits for ``minimumInterval`` to pass.
        var isHolding = false
        var ended = false
        var parent: WaitAlertID?
        /// The alert's first text: its title.
        var title: String
        /// When the alert began, for the heartbeat.
        var began: Duration
        /// Whether the alert is on screen and its work runs: the heartbeat names it.
        var isRunning = false
        /// What waited its turn under it, as last seen before it ended.
        var pending = PendingWork()
        /// The quarter of its progress last printed (0 … 4), and when.
        var quarter = 0
        var progressAt: Duration?
        /// The figures last printed or first seen: a line is due again only once they moved.
        var progressShown: ProgressText.Figures?
        var progress: ProgressText.Figures?
        /// Whether the work says it is failing, as last printed.
        var failing = false
        /// Whether `cancelling…` was printed.
        var cancelling = false
    }

    /// Said after `cancelling…` while a Ctrl-C cancelled the work and one more would end the
    /// program (set by whoever handles Ctrl-C for this renderer).
    package var interruptHint: String?

    /// Makes a renderer writing to `terminal`.
    ///
    /// - Parameters:
    ///   - terminal: where the lines go.
    ///   - minimumInterval: the shortest time between two progress lines of one alert.
    ///   - heartbeatInterval: the longest time without a line while something runs.
    ///   - progressInterval: the shortest time between two progress lines of one alert, besides
    ///     the lines at 25, 50, 75 and 100 %.
    ///   - failureLogLines: how many of a failed child task's last log lines are printed again
    ///     when its group ends (0 for none).
    public convenience init(
        terminal: any WaitAlertTerminal, minimumInterval: Duration = .seconds(1),
        heartbeatInterval: Duration = .seconds(30), progressInterval: Duration = .seconds(5),
        failureLogLines: Int = 5
    ) {
        self.init(
            terminal: terminal, minimumInterval: minimumInterval, heartbeatInterval: heartbeatInterval,
            progressInterval: progressInterval, failureLogLines: failureLogLines, colors: false)
    }

    /// A progress interval long enough that progress prints only at 25, 50, 75 and 100 %.
    package static let quartersOnly = Duration.seconds(3_155_760_000)

    /// Makes a renderer writing to `terminal`, its final lines coloured when `colors` is set.
    ///
    /// With `folding`, the lines are folded for that CI service's log, and with `summaryPath` a
    /// Markdown summary of each top-level alert is appended to that file as it ends.
    package init(
        terminal: any WaitAlertTerminal, minimumInterval: Duration, heartbeatInterval: Duration,
        progressInterval: Duration, failureLogLines: Int, colors: Bool, folding: LogFolding.Service? = nil,
        summaryPath: String? = nil, unixTime: @escaping () -> Int = { Int(Platform.wallClockSeconds()) }
    ) {
        self.folding = folding.map(LogFolding.init(service:))
        self.summaryPath = summaryPath
        self.unixTime = unixTime
        self.colors = colors
        self.progressInterval = progressInterval
        self.terminal = terminal
        self.minimumInterval = minimumInterval
        self.heartbeatInterval = max(heartbeatInterval, .milliseconds(1))
        self.recap = GroupRecap(logLines: failureLogLines)
    }

    package var wantsFrames: Bool { false }

    public func redrawDeadline(for alert: WaitAlertID) -> Duration? {
        guard let printed = alerts[alert] else { return nil }
        let heartbeat = printed.isRunning ? (lastLine ?? printed.began) + heartbeatInterval : nil
        let held = printed.isHolding ? printed.at + minimumInterval : nil
        return earliest(heartbeat, held)
    }

    public func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        latest = max(latest, instant)
        if lastLine == nil { lastLine = instant }
        var printed =
            alerts[alert] ?? Printed(at: instant, parent: snapshot.parent, title: snapshot.text, began: instant)
        defer { alerts[alert] = snapshot.phase == .gone ? nil : printed }
        if snapshot.outcome == nil {
            printed.pending = snapshot.pendingWork
            printed.progress = ProgressText.figures(of: snapshot)
        }
        printed.isRunning = snapshot.outcome == nil && snapshot.isOnScreen && snapshot.phase < .lingering
        if snapshot.outcome != nil || snapshot.phase >= .lingering {
            guard !printed.ended else { return }
            printed.ended = true
            printed.isHolding = false
            printed.isRunning = false
            end(snapshot, of: alert, printed: printed)
        } else if snapshot.isOnScreen, snapshot.kind == .waitAlert {
            if snapshot.parent != nil {
                // A child task: one line when it starts, none per text.
                if printed.text == nil {
                    printed.text = snapshot.text
                    printed.at = instant
                    emitLine(indent(snapshot.depth) + "▸ " + printed.title, at: instant, key: nil, from: alert)
                }
            } else if printed.text == snapshot.text {
                printed.isHolding = false
            } else if printed.text == nil || instant - printed.at >= minimumInterval {
                printed.text = snapshot.text
                printed.at = instant
                printed.isHolding = false
                emitLine(snapshot.text, at: instant, key: .text(alert), from: alert)
            } else {
                printed.isHolding = true
            }
            if snapshot.parent == nil, let progress = printed.progress {
                printProgress(progress, of: &printed, alert: alert, at: instant)
            }
            if snapshot.parent == nil, snapshot.isFailing != printed.failing {
                printed.failing = snapshot.isFailing
                let name = printed.text ?? printed.title
                emitLine(
                    (name.isEmpty ? "" : name + ": ") + (snapshot.isFailing ? "failing" : "no longer failing"),
                    at: instant, key: nil, from: alert)
            }
            if snapshot.parent == nil, snapshot.isCancelling, !printed.cancelling {
                printed.cancelling = true
                let name = WaitAlertOutcome.name(fromTitle: printed.title)
                let hint = interruptHint.map { " \($0)." } ?? ""
                emitLine(
                    (name.isEmpty ? "Cancelling…" : name + ": cancelling…") + hint, at: instant, key: nil, from: alert)
            }
        }
    }

    public func log(_ line: String, from alert: WaitAlertID) {
        // A CI service's log shows colours: a folded log keeps them.
        let lines = TextSanitizer.logLines(line, keepingColors: folding != nil)
        if alerts[alert]?.parent != nil {
            recap.log(lines, from: alert)
        } else if folding != nil, alerts[alert] != nil, recap.logLines > 0 {
            for line in lines { rootLogs[alert, default: LastLines(capacity: recap.logLines)].append(line) }
        }
        guard !lines.isEmpty else { return }
        lastLine = latest
        // As written: a program's (or a command's) own workflow commands run as they would
        // without WaitAlert — `::add-mask::` must.
        var bytes = folding == nil ? [] : Array(fold(into: alert).utf8)
        for line in lines {
            bytes += line.utf8
            bytes.append(0x0A)
        }
        out(bytes)
    }

    /// Prints the heartbeat when nothing was printed for ``heartbeatInterval`` while work runs
    /// (and no question waits for its line: someone is at the terminal).
    package func flush(at instant: Duration) {
        latest = max(latest, instant)
        guard let lastLine, instant - lastLine >= heartbeatInterval, !isAsking else { return }
        let running = alerts.filter(\.value.isRunning).sorted { $0.key < $1.key }
        guard !running.isEmpty else { return }
        let named = running.prefix(3).map { entry in
            let name = DisplayWidth.truncate(TextSanitizer.line(entry.value.text ?? ""), toWidth: 40)
            let percent = entry.value.progress.flatMap(ProgressText.percent).map { "\($0), " } ?? ""
            return "\(name) (\(percent)\(DurationFormat.elapsed(instant - entry.value.began)))"
        }
        let more = running.count > named.count ? " and \(running.count - named.count) more" : ""
        emitLine("… still running: " + named.joined(separator: ", ") + more, at: instant, key: nil)
    }

    /// Prints a top-level alert's progress when it passes a quarter (25, 50, 75, 100 %), or
    /// after ``progressInterval`` when it moved: never a line per report.
    private func printProgress(
        _ progress: ProgressText.Figures, of printed: inout Printed, alert: WaitAlertID, at instant: Duration
    ) {
        let quarter = progress.fraction.map { Int(($0 * 4).rounded(.down)) } ?? 0
        let moved = printed.progressShown.map { !Self.sameCount($0, progress) } ?? false
        let due = printed.progressAt.map { instant - $0 >= progressInterval } ?? true
        guard quarter > printed.quarter || (moved && due) else {
            if printed.progressShown == nil {
                printed.progressShown = progress
                printed.progressAt = instant
            }
            return
        }
        printed.quarter = max(printed.quarter, quarter)
        printed.progressAt = instant
        printed.progressShown = progress
        emitLine(Self.progressLine(printed, progress), at: instant, key: .progress(alert), from: alert)
    }

    /// Whether two figures say the work has gone as far (rates and times left aside).
    private static func sameCount(_ a: ProgressText.Figures, _ b: ProgressText.Figures) -> Bool {
        a.fraction == b.fraction && a.count == b.count && a.tasks == b.tasks
    }

    /// `Downloading: 45% (1.8 MB / 4.0 MB, 1.2 MB/s, ~3m left)`; the figures alone for an alert
    /// without a text.
    private static func progressLine(_ printed: Printed, _ progress: ProgressText.Figures) -> String {
        let name = printed.text ?? printed.title
        let summary = ProgressText.summary(progress)
        return name.isEmpty ? summary : "\(name): \(summary)"
    }

    /// An alert ended: a child task's line (if it leaves one), a group's recap, the final line.
    private func end(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, printed: Printed) {
        let final = FinalLine.of(snapshot)
        if let parent = snapshot.parent {
            recap.ended(alert, of: parent, with: final)
        }
        let recapped = recap.closing(alert, pending: printed.pending)
        var failedTails = recapped.failedTails.map(\.plain)
        var lines = recapped.notRun.map(\.plain)
        if snapshot.parent == nil, case .success = snapshot.outcome, printed.quarter < 4,
            let progress = ProgressText.figures(of: snapshot), progress.fraction == 1
        {
            lines.append(Self.progressLine(printed, progress))
        }
        // Folded: a top-level alert's ending goes after its group, with its own last log lines
        // when it failed; a child task's record line goes in its top-level alert's group.
        var prefix = ""
        var after = ""
        if folding != nil {
            if snapshot.parent == nil {
                // Whichever group is open: another top-level alert's may be (its lines came last).
                prefix = folding?.leave(nil, unixTime: unixTime()) ?? ""
                let logs = rootLogs.removeValue(forKey: alert)?.lines ?? []
                if let final, final.tone == .failure, !logs.isEmpty {
                    failedTails.insert(
                        contentsOf: ["\(final.text) — last log lines:"] + logs.map { "    " + $0 }, at: 0)
                }
                failedTails.insert(contentsOf: recaps.removeValue(forKey: alert) ?? [], at: 0)
                after = (annotations.removeValue(forKey: alert) ?? []).joined()
                if let final { after += folding?.annotation(of: final, title: printed.title) ?? "" }
            } else {
                let root = root(of: alert)
                prefix = fold(into: alert)
                // A group under it: its failed tasks' last log lines wait for the top-level
                // alert's group to close (what never ran is said where it is).
                recaps[root, default: []] += failedTails
                failedTails = []
                if let final, final.tone == .failure || final.tone == .warning,
                    let annotation = folding?.annotation(of: final, title: printed.title), !annotation.isEmpty,
                    annotations[root, default: []].count < Self.annotationLimit
                {
                    annotations[root, default: []].append(annotation)
                }
            }
        }
        if let summaryPath {
            writeSummary(of: snapshot, alert: alert, final: final, title: printed.title, to: summaryPath)
        }
        var content = Self.bytes(of: failedTails + lines, keepingColors: folding != nil)
        if let final,
            snapshot.parent == nil
                || GroupRecap.leavesRecord(
                    final, outcome: snapshot.outcome, wasShown: printed.text != nil, retention: snapshot.retention)
        {
            for part in TextSanitizer.logLines(indent(snapshot.depth) + final.plain) {
                content += ((colors ? TaskRegion.style(for: final.tone).apply(to: part) : part) + "\n").utf8
            }
        }
        let bytes = Array(prefix.utf8) + shielded(content) + Array(after.utf8)
        guard !bytes.isEmpty else { return }
        lastLine = latest
        out(bytes, key: nil)
    }

    /// At most this many annotations of failed child tasks per top-level alert (GitHub shows ten
    /// errors of a step).
    static let annotationLimit = 10

    /// Appends to the step summary what a top-level alert leaves, or notes how a child task ended.
    private func writeSummary(
        of snapshot: WaitAlertSnapshot, alert: WaitAlertID, final: FinalLine?, title: String, to path: String
    ) {
        if snapshot.parent != nil {
            if let final { summary.ended(final, title: title, under: root(of: alert), ran: snapshot.workDuration) }
            return
        }
        let markdown = summary.close(alert, title: title, final: final)
        if !markdown.isEmpty { _ = Platform.append(Array(markdown.utf8), toFileAt: path) }
    }

    /// The top-level alert above `alert` (itself when it is one).
    private func root(of alert: WaitAlertID) -> WaitAlertID {
        alert.root { alerts[$0]?.parent }
    }

    /// What goes before a line of `alert` in a folded log: its top-level alert's group opened,
    /// the open one closed. Nothing for lines that are not folded, or belong to no alert known.
    private func fold(into alert: WaitAlertID?) -> String {
        guard folding != nil, let alert, alerts[alert] != nil else { return "" }
        let root = root(of: alert)
        let title = alerts[root]?.title ?? ""
        return folding?.enter(root, title: title, unixTime: unixTime()) ?? ""
    }

    private func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: min(max(depth - 1, 0), 8))
    }

    /// Writes a progress or final text of `alert` as exactly one line.
    private func emitLine(_ text: String, at instant: Duration, key: HeldKey?, from alert: WaitAlertID? = nil) {
        lastLine = instant
        out(Array(fold(into: alert).utf8) + shielded(Array((TextSanitizer.line(text) + "\n").utf8)), key: key)
    }

    /// `bytes`, whole lines WaitAlert composed (texts, titles, final lines, log lines repeated
    /// after a group), with any line GitHub Actions would run as a workflow command made inert.
    private func shielded(_ bytes: [UInt8]) -> [UInt8] {
        guard folding?.service == .githubActions else { return bytes }
        return Array(LogFolding.shieldingCommands(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    /// Writes whole lines. While a question asked on this terminal waits for its line, they go
    /// below it, and it is asked again after them.
    private func out(_ bytes: [UInt8]) {
        guard let question = StandardInputPrompt.questionOnLine, terminal.isInteractive else {
            _ = terminal.write(bytes)
            return
        }
        _ = terminal.write(Array("\n".utf8) + bytes + Array(question.utf8))
    }

    /// Writes the renderer's own lines — or, while a question asked on this terminal waits for
    /// its line, keeps them until it is answered (a line with the `key` of one kept replaces it).
    private func out(_ bytes: [UInt8], key: HeldKey?) {
        guard isAsking else { return out(bytes) }
        if let key, let index = held.firstIndex(where: { $0.key == key }) {
            held[index].bytes = bytes
        } else {
            if held.isEmpty {
                StandardInputPrompt.afterQuestion { [weak self] in self?.releaseHeld() }
            }
            held.append((key, bytes))
        }
    }

    /// Whether a question asked on this terminal waits for its line.
    private var isAsking: Bool {
        // A folded log is read later, not at a terminal: its group lines keep their order.
        StandardInputPrompt.questionOnLine != nil && terminal.isInteractive && folding == nil
    }

    /// Writes the lines kept while a question waited, now that it has its answer (or waits for
    /// the next question to be answered).
    private func releaseHeld() {
        guard !held.isEmpty else { return }
        guard !isAsking else {
            StandardInputPrompt.afterQuestion { [weak self] in self?.releaseHeld() }
            return
        }
        let bytes = held.flatMap(\.bytes)
        held = []
        lastLine = latest
        out(bytes)
    }

    /// Lines, each split at its line breaks and sanitized (their colours kept when
    /// `keepingColors` is set): every part is kept.
    private static func bytes(of lines: [String], keepingColors: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines {
            for part in TextSanitizer.logLines(line, keepingColors: keepingColors) { bytes += (part + "\n").utf8 }
        }
        return bytes
    }
}

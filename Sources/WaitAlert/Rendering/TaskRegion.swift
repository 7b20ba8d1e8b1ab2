/// What a terminal region shows of the alerts and their child tasks: a pure value, fed with
/// snapshots and log lines at explicit instants, that says what to print above the region and
/// which lines to show in it.
///
/// It keeps the task tree (each row's parent, its group's counts, the steps planned under it),
/// the order of record lines (a child task's final line stays in its row until read, then is
/// printed above the region in the order the tasks ended), the lines waiting to be printed above
/// the region, the layout within the region's height, and the taskbar's progress. It never
/// writes: the overlay carries out what it returns (``frame(columns:budget:)``,
/// ``takeLinesAbove()``, ``taskbarUpdate()``), in one write per batch.
struct TaskRegion {
    typealias Key = OverlayScreen.Key
    typealias State = RegionLayout.Row<Key>.State

    /// How the region looks and behaves, chosen once.
    struct Style {
        /// Whether final lines stay (`false`: they linger and fade in the region).
        var persistentEndings = true
        var colors = false
        /// Whether bars may use block characters (a UTF-8 locale), or `#` and `-`.
        var unicode = true
        /// Whether the top-level alert's progress shows in the terminal's tab or taskbar.
        var showsTaskbar = false
        /// Whether spinners are turned between draws (by a ticker), so rows keep their slots.
        var turnsSpinners = false
        /// How many of a failed child task's last log lines are printed again when its group ends.
        var failureLogLines = 5

        /// The same style, with spinners turned between draws.
        func turningSpinners() -> Style {
            var style = self
            style.turnsSpinners = true
            return style
        }
    }

    /// A line to print above the region, styled and plain (for a program in the background).
    typealias PrintedLine = (styled: String, plain: String)

    let style: Style
    /// Whether the program is a background job: every ending is printed at once as a plain line
    /// (a transient one too), and no row keeps a final line.
    var isDetached = false
    /// The instant of the latest snapshot or frame, for decorations.
    var lastInstant = Duration.zero

    /// The rows of the region: every alert on screen, shown or left out by the layout.
    var rows: [WaitAlertID: Row] = [:]
    /// What waits its turn under each alert: the first planned steps, shown as pending rows
    /// under it, and counts, in the summary's.
    var pending: [WaitAlertID: PendingWork] = [:]
    /// The top-level alerts that have a row.
    var topLevel: Set<WaitAlertID> = []
    /// The parent of every child task seen, until it is forgotten.
    var parents: [WaitAlertID: WaitAlertID] = [:]
    /// When each alert began.
    var began: [WaitAlertID: Duration] = [:]
    /// The counts of each alert's child tasks.
    var groups: [WaitAlertID: Group] = [:]
    /// Child tasks already counted as finished, and as started.
    var finishedChildren: Set<WaitAlertID> = []
    var countedChildren: Set<WaitAlertID> = []
    /// Alerts whose ending has been handled.
    var ended: Set<WaitAlertID> = []
    /// Alerts whose snapshots are over (`.gone`), kept while a record line waits.
    var gone: Set<WaitAlertID> = []
    /// For each alert, its ended child tasks whose record lines wait, in the order they ended.
    var waiting: [WaitAlertID: RecordQueue] = [:]
    /// Alerts that have ended as groups: a child task that ends later is recorded at once.
    var closedGroups: Set<WaitAlertID> = []
    /// The retention of each child task still in the region with its final line.
    var retentions: [WaitAlertID: WaitAlertRowRetention] = [:]
    /// The failed child tasks' last log lines and the planned steps, printed when a group ends.
    var recap: GroupRecap
    /// Lines waiting to be printed above the region.
    var above: [PrintedLine] = []
    /// The layout, when the rows have not changed since it was made, the budget it was made for,
    /// and the rows it shows.
    var layout: RegionLayout.Layout<Key>?
    var layoutBudget = 0
    var shownKeys: Set<Key> = []
    /// Running rows the layout leaves out, and the changes to tell the presenter (whether each
    /// alert's frames are drawn).
    var unanimated: Set<WaitAlertID> = []
    var animationChanges: [WaitAlertID: Bool] = [:]
    /// What the taskbar shows now, and since when.
    var taskbar = TaskbarProgress.State.cleared
    var taskbarSince = Duration.zero

    /// An alert's row in the region.
    struct Row {
        var line: OverlayScreen.Line
        var parent: WaitAlertID?
        var state: State
        /// How far its work (and its child tasks') has gone, when it says so. (Kept out of line:
        /// most rows report none, and ten thousand rows stay small.)
        @OutOfLineOptional var progress: ProgressText.Figures? = nil
        /// Its spinner, while one turns (the slot's line is set when drawn).
        var spinner: SpinnerSlot?
        /// Whether its work says it is failing while it goes on.
        var isFailing = false
        /// Whether cancelling its work was asked for, and the work goes on meanwhile.
        var isCancelling = false
    }

    typealias Waiting = RecordQueue.Entry

    /// The child tasks of an alert so far.
    struct Group {
        var started = 0
        var finished = 0
        var failed = 0
        /// Ended with a warning (``WaitAlertOutcome/warning(_:)``): done, with something to read.
        var warned = 0
    }

    init(style: Style) {
        self.style = style
        self.recap = GroupRecap(logLines: style.failureLogLines)
    }

    /// Whether any row is in the region.
    var hasRows: Bool { !rows.isEmpty }

    // MARK: - Gathering

    /// Whether applying `snapshot` ends its alert now: the lines the ending prints follow what the
    /// program wrote before it.
    func endsNow(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID) -> Bool {
        snapshot.outcome != nil && endsPersistently(snapshot) && !ended.contains(alert)
    }

    private func endsPersistently(_ snapshot: WaitAlertSnapshot) -> Bool {
        (snapshot.kind != .toast && style.persistentEndings) || isDetached
    }

    /// Takes a snapshot of `alert` at `instant`.
    mutating func apply(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        lastInstant = max(lastInstant, instant)
        count(snapshot, of: alert, at: instant)
        if let parent = snapshot.parent { parents[alert] = parent }
        if snapshot.outcome == nil { setPending(snapshot.pendingWork, of: alert) }
        if snapshot.outcome != nil, endsPersistently(snapshot) {
            if !ended.contains(alert) {
                end(snapshot, of: alert, at: instant)
            } else if snapshot.phase >= .fading {
                read(alert)
            }
        } else if !ended.contains(alert) {
            switch snapshot.phase {
            case .pending: break
            case .appearing, .visible, .lingering, .fading:
                setRow(
                    alert,
                    Row(
                        line: line(for: snapshot), parent: snapshot.parent, state: .running,
                        progress: snapshot.phase < .lingering ? ProgressText.figures(of: snapshot) : nil,
                        spinner: spinnerSlot(of: snapshot, at: instant, previous: rows[alert]?.spinner),
                        isFailing: snapshot.isFailing, isCancelling: snapshot.isCancelling))
            case .gone: removeRow(alert)
            }
        }
        if snapshot.phase == .gone {
            gone.insert(alert)
            if !isWaiting(alert) { forget(alert) }
        }
    }

    /// Log lines of `alert`, already cut into lines and sanitized: printed above the region (and
    /// kept for its group's recap, for a child task).
    mutating func log(_ lines: [String], from alert: WaitAlertID) {
        if parents[alert] != nil { recap.log(lines, from: alert) }
        above += lines.map { ($0, $0) }
    }

    /// Lines to print above the region (the program's own, a presenter's `print`).
    mutating func printAbove(_ lines: [PrintedLine]) {
        above += lines
    }

    /// The lines waiting to be printed above the region, in order; they are the caller's now.
    mutating func takeLinesAbove() -> [PrintedLine] {
        defer { above = [] }
        return above
    }

    /// Lines taken with ``takeLinesAbove()`` that could not be printed: they go first again.
    mutating func putBack(_ lines: [PrintedLine]) {
        above = lines + above
    }

    /// Whether each alert's spinner frames are drawn, for the alerts whose answer changed since
    /// the last call: a running row the layout leaves out needs none.
    mutating func takeAnimationChanges() -> [WaitAlertID: Bool] {
        defer { animationChanges = [:] }
        return animationChanges
    }

    /// The spinner a visible row turns, for the ticker.
    private func spinnerSlot(
        of snapshot: WaitAlertSnapshot, at instant: Duration, previous: SpinnerSlot?
    ) -> SpinnerSlot? {
        guard style.turnsSpinners, snapshot.phase == .visible, let spinner = snapshot.spinner,
            let frame = snapshot.spinnerFrame
        else { return nil }
        return SpinnerSlot(
            line: 0, indent: snapshot.depth, spinner: spinner, frame: frame, at: instant, previous: previous)
    }

    // MARK: - Rows

    mutating func setRow(_ alert: WaitAlertID, _ row: Row) {
        let old = rows[alert]
        if row.parent == nil { topLevel.insert(alert) }
        if let old, old.state == row.state, old.parent == row.parent {
            rows[alert]?.line = row.line
            rows[alert]?.progress = row.progress
            rows[alert]?.isFailing = row.isFailing
            rows[alert]?.isCancelling = row.isCancelling
            return
        }
        rows[alert] = row
        if let old, old.parent == row.parent, row.state != .failed, isLeftOut(alert) {
            // A row the layout leaves out that is not failing stays out: only the summary's counts
            // change, without laying out every row again (ending many rows stays linear).
            count(old.state, -1)
            count(row.state, +1)
        } else {
            layout = nil
        }
    }

    mutating func removeRow(_ alert: WaitAlertID) {
        guard let old = rows.removeValue(forKey: alert) else { return }
        topLevel.remove(alert)
        if isLeftOut(alert), layout?.hidden != nil {
            count(old.state, -1)
        } else {
            layout = nil
        }
    }

    /// Takes what waits under `alert`. A change of counts alone changes the summary's count of
    /// pending rows, without laying out every row again: a group of thousands of tasks waiting
    /// their turn costs a frame what its rows on screen do.
    private mutating func setPending(_ work: PendingWork, of alert: WaitAlertID) {
        let old = pending[alert] ?? PendingWork()
        guard work != old else { return }
        pending[alert] = work.isEmpty ? nil : work
        guard rows[alert] != nil else { return }  // laid out with its row
        guard work.listedSteps == old.listedSteps, var hidden = layout?.hidden else {
            layout = nil
            return
        }
        hidden.pending += work.unlisted - old.unlisted
        if hidden == RegionLayout.Hidden() { layout = nil } else { layout?.hidden = hidden }
    }

    /// Whether the current layout leaves `alert`'s row out.
    private func isLeftOut(_ alert: WaitAlertID) -> Bool {
        layout?.hidden != nil && !shownKeys.contains(.alert(alert))
    }

    /// Adds `change` to the summary's count of left-out rows in `state`.
    private mutating func count(_ state: State, _ change: Int) {
        guard var hidden = layout?.hidden else { return }
        switch state {
        case .running: hidden.running += change
        case .failed, .finished: hidden.finished += change
        case .pending: hidden.pending += change
        }
        layout?.hidden = hidden
    }

    /// Keeps the counts of each alert's child tasks, for its header.
    private mutating func count(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        if began[alert] == nil { began[alert] = instant }
        // A child task counts from its beginning, also while its grace delay hides it — but one
        // that holds the place of a planned step counts once it shows or ends: the step leaves
        // the plan then, so the header never counts it twice.
        if let parent = snapshot.parent,
            !snapshot.claimsPlannedStep || snapshot.phase > .pending || snapshot.outcome != nil,
            countedChildren.insert(alert).inserted
        {
            groups[parent, default: Group()].started += 1
        }
        if let parent = snapshot.parent, let outcome = snapshot.outcome, !finishedChildren.contains(alert) {
            finishedChildren.insert(alert)
            groups[parent, default: Group()].finished += 1
            switch outcome {
            case .failure: groups[parent, default: Group()].failed += 1
            case .warning: groups[parent, default: Group()].warned += 1
            default: break
            }
        }
    }

    mutating func forget(_ alert: WaitAlertID) {
        ended.remove(alert)
        gone.remove(alert)
        removeRow(alert)
        began[alert] = nil
        groups[alert] = nil
        pending[alert] = nil
        parents[alert] = nil
        closedGroups.remove(alert)
        finishedChildren.remove(alert)
        countedChildren.remove(alert)
        recap.forget(alert)
        if unanimated.remove(alert) != nil { animationChanges[alert] = true }
    }
}

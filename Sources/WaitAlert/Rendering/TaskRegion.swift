/// What a terminal region shows of the alerts and their child tasks: a pure value, fed with
/// snapshots and log lines at explicit instants, that says what to print above the region and
/// which lines to show in it.
///
/// It keeps one ``Entry`` per alert (its row, its parent, its group's counts, the steps planned
/// under it), the order of record lines (a child task's final line stays in its row until read,
/// then is printed above the region in the order the tasks ended), the lines waiting to be printed
/// above the region, the layout within the region's height, and the taskbar's progress. It never
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

    /// Everything the region knows about each alert.
    var entries: [WaitAlertID: Entry] = [:]
    /// The alerts that have an entry and no parent.
    var topLevel: Set<WaitAlertID> = []
    /// How many entries have a row.
    var rowCount = 0
    /// For each alert, its ended child tasks whose record lines wait, in the order they ended
    /// (taken from the front in constant time); whether each may go is its entry's to say.
    var waiting: [WaitAlertID: ArraySlice<Waiting>] = [:]
    /// The failed child tasks' last log lines and the planned steps, printed when a group ends.
    var recap: GroupRecap
    /// Lines waiting to be printed above the region.
    var above: [PrintedLine] = []
    /// The layout, when the rows have not changed since it was made, and the budget it was made
    /// for.
    var layout: RegionLayout.Layout<Key>?
    var layoutBudget = 0
    /// The changes to tell the presenter: whether each alert's frames are drawn.
    var animationChanges: [WaitAlertID: Bool] = [:]
    /// What the taskbar shows now, and since when.
    var taskbar = TaskbarProgress.State.cleared
    var taskbarSince = Duration.zero

    /// Everything the region knows about one alert.
    ///
    /// An alert's entry is made by its first snapshot and forgotten once the alert is gone (its
    /// snapshots are over) and its record line has been printed: nothing about an alert outlives
    /// its entry but the record lines of its child tasks still waiting their turn
    /// (``TaskRegion/waiting``).
    struct Entry {
        /// When it began.
        let began: Duration
        /// Its parent, for a child task.
        let parent: WaitAlertID?
        /// Whether its ending has been handled: its group has closed, and a child task that ends
        /// later is recorded at once.
        var hasEnded = false
        /// Whether its snapshots are over (`.gone`).
        var isGone = false
        /// Whether its parent's header counts it as begun, and as ended.
        var isCountedAsStarted = false
        var isCountedAsFinished = false
        /// Whether its record line waits in its parent's turn (``TaskRegion/waiting``), and
        /// whether it may go (its final message has been read, or it was never shown).
        var waits = false
        var isReady = false
        /// Whether the layout leaves its row out, and whether its spinner frames go undrawn for it
        /// (a running row left out, as of the last layout).
        var isLeftOut = false
        var isUnanimated = false
        /// Its row in the region, while it has one.
        var row: Row?
        private var groupStorage: CopyOnWrite<Group>?

        /// Its child tasks and the work waiting under it (kept out of line: most alerts have none).
        var group: Group {
            get { groupStorage?.value ?? Group() }
            _modify {
                if groupStorage == nil { groupStorage = CopyOnWrite(Group()) }
                yield &groupStorage!.value
            }
        }

        init(began: Duration, parent: WaitAlertID?) {
            self.began = began
            self.parent = parent
        }
    }

    /// An alert's row in the region.
    struct Row {
        var line: OverlayScreen.Line
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
        /// Whether it shows a child task's final line until its group ends
        /// (``WaitAlertRowRetention/keepUntilGroupEnds``).
        var keepsUntilGroupEnds = false
    }

    /// An ended child task whose record line (`nil`: it leaves none) waits its turn.
    struct Waiting {
        var id: WaitAlertID
        var record: FinalLine?
    }

    /// The child tasks of an alert so far, and the work waiting its turn under it.
    struct Group {
        var started = 0
        var finished = 0
        var failed = 0
        /// Ended with a warning (``WaitAlertOutcome/warning(_:)``): done, with something to read.
        var warned = 0
        /// The first planned steps, shown as pending rows under the alert, and counts, in the
        /// summary's.
        var pending = PendingWork()

        /// Whether a child task has been counted.
        var hasChildren: Bool { started + finished > 0 }
    }

    init(style: Style) {
        self.style = style
        self.recap = GroupRecap(logLines: style.failureLogLines)
    }

    /// Whether any row is in the region.
    var hasRows: Bool { rowCount > 0 }

    // MARK: - Gathering

    /// Whether applying `snapshot` ends its alert now: the lines the ending prints follow what the
    /// program wrote before it.
    func endsNow(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID) -> Bool {
        snapshot.outcome != nil && endsPersistently(snapshot) && entries[alert]?.hasEnded != true
    }

    private func endsPersistently(_ snapshot: WaitAlertSnapshot) -> Bool {
        (snapshot.kind != .toast && style.persistentEndings) || isDetached
    }

    /// Takes a snapshot of `alert` at `instant`.
    mutating func apply(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        lastInstant = max(lastInstant, instant)
        if entries[alert] == nil {
            entries[alert] = Entry(began: instant, parent: snapshot.parent)
            if snapshot.parent == nil { topLevel.insert(alert) }
        }
        count(snapshot, of: alert)
        if snapshot.outcome == nil { setPending(snapshot.pendingWork, of: alert) }
        let hasEnded = entries[alert]?.hasEnded == true
        if snapshot.outcome != nil, endsPersistently(snapshot) {
            if !hasEnded {
                end(snapshot, of: alert, at: instant)
            } else if snapshot.phase >= .fading {
                read(alert)
            }
        } else if !hasEnded {
            switch snapshot.phase {
            case .pending: break
            case .appearing, .visible, .lingering, .fading:
                setRow(
                    alert,
                    Row(
                        line: line(for: snapshot), state: .running,
                        progress: snapshot.phase < .lingering ? ProgressText.figures(of: snapshot) : nil,
                        spinner: spinnerSlot(of: snapshot, at: instant, previous: entries[alert]?.row?.spinner),
                        isFailing: snapshot.isFailing, isCancelling: snapshot.isCancelling))
            case .gone: removeRow(alert)
            }
        }
        if snapshot.phase == .gone {
            entries[alert]?.isGone = true
            forgetIfDone(alert)
        }
    }

    /// Log lines of `alert`, already cut into lines and sanitized: printed above the region (and
    /// kept for its group's recap, for a child task).
    mutating func log(_ lines: [String], from alert: WaitAlertID) {
        if entries[alert]?.parent != nil { recap.log(lines, from: alert) }
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
        guard let entry = entries[alert] else { return }
        if let old = entry.row, old.state == row.state {
            entries[alert]?.row?.line = row.line
            entries[alert]?.row?.progress = row.progress
            entries[alert]?.row?.isFailing = row.isFailing
            entries[alert]?.row?.isCancelling = row.isCancelling
            return
        }
        entries[alert]?.row = row
        if let old = entry.row, row.state != .failed, isLeftOut(alert) {
            // A row the layout leaves out that is not failing stays out: only the summary's counts
            // change, without laying out every row again (ending many rows stays linear).
            count(old.state, -1)
            count(row.state, +1)
        } else {
            if entry.row == nil { rowCount += 1 }
            layout = nil
        }
    }

    mutating func removeRow(_ alert: WaitAlertID) {
        guard let old = entries[alert]?.row else { return }
        entries[alert]?.row = nil
        rowCount -= 1
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
        guard let old = entries[alert]?.group.pending, work != old else { return }
        entries[alert]?.group.pending = work
        guard entries[alert]?.row != nil else { return }  // laid out with its row
        guard work.listedSteps == old.listedSteps, var hidden = layout?.hidden else {
            layout = nil
            return
        }
        hidden.pending += work.unlisted - old.unlisted
        if hidden == RegionLayout.Hidden() { layout = nil } else { layout?.hidden = hidden }
    }

    /// Whether the current layout leaves `alert`'s row out.
    private func isLeftOut(_ alert: WaitAlertID) -> Bool {
        layout?.hidden != nil && entries[alert]?.isLeftOut == true
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

    /// Counts a child task in its parent's header.
    private mutating func count(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID) {
        guard let entry = entries[alert], let parent = entry.parent else { return }
        // A child task counts from its beginning, also while its grace delay hides it — but one
        // that holds the place of a planned step counts once it shows or ends: the step leaves
        // the plan then, so the header never counts it twice.
        if !entry.isCountedAsStarted,
            !snapshot.claimsPlannedStep || snapshot.phase > .pending || snapshot.outcome != nil
        {
            entries[alert]?.isCountedAsStarted = true
            entries[parent]?.group.started += 1
        }
        if let outcome = snapshot.outcome, !entry.isCountedAsFinished {
            entries[alert]?.isCountedAsFinished = true
            entries[parent]?.group.finished += 1
            switch outcome {
            case .failure: entries[parent]?.group.failed += 1
            case .warning: entries[parent]?.group.warned += 1
            default: break
            }
        }
    }

    /// Forgets `alert` once it is gone and its record line has been printed.
    mutating func forgetIfDone(_ alert: WaitAlertID) {
        guard let entry = entries[alert], entry.isGone, !entry.waits else { return }
        removeRow(alert)
        entries[alert] = nil
        if entry.parent == nil { topLevel.remove(alert) }
        recap.forget(alert)
        if entry.isUnanimated { animationChanges[alert] = true }
    }
}

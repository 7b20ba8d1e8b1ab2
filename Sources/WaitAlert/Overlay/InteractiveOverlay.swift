import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The interactive side of a ``TerminalOverlay``: a region at the bottom of a terminal with one
/// row per visible alert and child task, the terminal guard (signals, input, exit) on standard
/// error, and plain lines while the program is a background job.
///
/// `render` and `log` only gather what changed; `flush` lays the rows out within the terminal's
/// height (``RegionLayout``) and draws them in one write (``OverlayScreen``). A child task's row
/// ends as a record line above the region, in the order the tasks ended.
@MainActor
final class InteractiveOverlay: WaitAlertRenderer {
    typealias Key = OverlayScreen.Key
    typealias State = RegionLayout.Row<Key>.State

    private let ending: TerminalOverlay.Ending
    private let terminal: any WaitAlertTerminal
    private let integration: TerminalOverlay.ProcessIntegration
    /// Whether the overlay draws on the process's standard error, which the terminal guard protects.
    private let isStandardError: Bool
    private let colors: Bool
    /// Whether the top-level alert's progress shows in the terminal's tab or taskbar (`OSC 9;4`).
    private let showsTaskbar: Bool
    /// What the taskbar shows now, and since when.
    private var taskbar = TaskbarProgress.State.cleared
    private var taskbarSince = Duration.zero
    /// Whether bars may use block characters (a UTF-8 locale), or `#` and `-`.
    private let unicode: Bool
    /// The failed child tasks' last log lines and the planned steps, printed when a group ends.
    private var recap: GroupRecap
    private var screen = OverlayScreen()

    /// The rows of the region: every alert on screen, shown or left out by the layout.
    private var rows: [WaitAlertID: Row] = [:]
    /// The steps each alert has planned and not started, shown as pending rows under it.
    private var planned: [WaitAlertID: [String]] = [:]
    /// The top-level alerts that have a row.
    private var topLevel: Set<WaitAlertID> = []
    /// The parent of every child task seen, until it is forgotten.
    private var parents: [WaitAlertID: WaitAlertID] = [:]
    /// When each alert began.
    private var began: [WaitAlertID: Duration] = [:]
    /// The counts of each alert's child tasks.
    private var groups: [WaitAlertID: Group] = [:]
    /// Child tasks already counted as finished.
    private var finishedChildren: Set<WaitAlertID> = []
    /// Child tasks already counted in their group.
    private var countedChildren: Set<WaitAlertID> = []
    /// Alerts whose ending has been handled.
    private var ended: Set<WaitAlertID> = []
    /// Alerts whose snapshots are over (`.gone`), kept while a record line waits.
    private var gone: Set<WaitAlertID> = []
    /// For each alert, its ended child tasks whose record lines wait, in the order they ended.
    private var waiting: [WaitAlertID: [Waiting]] = [:]
    /// Alerts that have ended as groups: a child task that ends later is recorded at once.
    private var closedGroups: Set<WaitAlertID> = []
    /// Lines waiting to be printed above the region at its next draw, styled and plain.
    private var above: [(styled: String, plain: String)] = []
    /// Whether something changed since the last draw.
    private var dirty = false
    /// The layout, when the rows have not changed since it was made.
    private var layout: RegionLayout.Layout<Key>?
    /// The budget the layout was made for.
    private var layoutBudget = 0
    /// The rows the layout shows.
    private var shownKeys: Set<Key> = []
    /// Running rows the layout leaves out, whose frames the presenter was told not to draw.
    private var unanimated: Set<WaitAlertID> = []
    /// The instant of the latest batch, for decorations.
    private var lastInstant = Duration.zero
    /// Turns the spinners between draws when the presenter runs on the system clock; `nil` when
    /// every frame comes through `render` (a test's manual clock).
    private var ticker: SpinnerTicker?
    /// The relay catching the program's output while lines show, and how many of its unfinished
    /// lines the region shows.
    private var relay: OutputRelay?
    private var capturedPartials = 0
    /// The prompt asked on the terminal now.
    private var promptDriver: TerminalPrompt?
    /// How many suspensions are under way: while any is, nothing is drawn.
    private var suspensions = 0
    /// Whether a draw holds the ticker (which then hands over an empty plan if the draw stops).
    private var drawingWithTicker = false
    /// Whether the last frame was dropped because the program is stopping (Ctrl-Z): the lines it
    /// was to print wait for the next draw.
    private var frameDropped = false
    /// Whether the program's output is caught while the prompt shows (not while suspended).
    private var promptCaptures = false
    /// Whether a prompt shows and the program's output is caught meanwhile.
    private var promptKeepsCapture: Bool { promptDriver != nil && promptCaptures }
    /// The draw that follows a resize once the window has kept its size; nothing is drawn before.
    private var settling: DispatchWorkItem?
    /// The fewest rows the window had in the last second of resizes, and when that second ends.
    private var shortestRows: Int?
    private var shortestRowsExpiry: DispatchWorkItem?
    /// The terminal guard's count of stops when the last frame was drawn.
    private var seenStops = TerminalGuard.stops.load(ordering: .sequentiallyConsistent)
    /// While the program is a background job: checks now and then whether it is in the
    /// foreground again (`fg` on a job running in the background sends no signal).
    private var foregroundWatch: (any DispatchSourceTimer)?

    /// An alert's row in the region.
    private struct Row {
        var line: OverlayScreen.Line
        var parent: WaitAlertID?
        var state: State
        /// How far its work (and its child tasks') has gone, when it says so.
        var progress: ProgressText.Figures?
        /// Its spinner, while one turns (the slot's line is set when drawn).
        var spinner: SpinnerTicker.Slot?
    }

    /// An ended child task whose record line waits its turn.
    private struct Waiting {
        var id: WaitAlertID
        /// The record line, or `nil` when the task leaves none.
        var record: FinalLine?
        /// Whether its final message has been read (or it was never on screen).
        var isReady: Bool
    }

    /// The child tasks of an alert so far.
    private struct Group {
        var started = 0
        var finished = 0
        var failed = 0
    }
    private var context: WaitAlertRendererContext?
    private var guarding = false
    private var inputBlocked = false
    private var running: Set<WaitAlertID> = []
    /// The alerts whose work the last Ctrl-C cancelled and that have not ended yet.
    private var interrupted: Set<WaitAlertID> = []
    /// Whether the program is a background job: nothing is drawn and no terminal mode touched.
    private var detached = false
    private var stopped = false

    init(
        terminal: any WaitAlertTerminal, ending: TerminalOverlay.Ending, colors: Bool,
        integration: TerminalOverlay.ProcessIntegration, failureLogLines: Int = 5, taskbar: Bool = false
    ) {
        self.showsTaskbar = taskbar
        self.terminal = terminal
        self.ending = ending
        self.integration = integration
        self.recap = GroupRecap(logLines: failureLogLines)
        self.isStandardError =
            (terminal as? WaitAlertStandardError)?.descriptor == WaitAlertStandardError.shared.descriptor
        self.colors = colors
        self.unicode = Self.localeIsUTF8(environmentVariables(["LC_ALL", "LC_CTYPE", "LANG"]))
        self.screen.columns = terminal.columns ?? 80
        if isStandardError { TerminalGuard.installExitHook() }
        if isStandardError, taskbar {
            TerminalGuard.prepareTaskbarClear(Array(TaskbarProgress.State.cleared.sequence.utf8))
        }
    }

    var wantsFrames: Bool { true }

    func didAttach(to context: WaitAlertRendererContext) {
        self.context = context
        if let now = context.systemClockNow {
            let terminal = terminal
            let isStandardError = isStandardError
            ticker = SpinnerTicker(now: now) { bytes in
                if isStandardError {
                    TerminalGuard.writeIfDrawn(bytes, to: terminal)
                } else {
                    _ = terminal.write(bytes)
                }
            }
        }
    }

    var drawsSpinnerFramesItself: Bool { ticker != nil }

    /// The ticker, for tests that turn a frame at an instant of their choosing.
    var spinnerTicker: SpinnerTicker? { ticker }

    /// With spinners turned off the main actor, the elapsed times still count: a running row that
    /// shows one (a child task's, a group's header) is drawn again on the next whole second of
    /// the clock, all of them at once.
    func redrawDeadline(for alert: WaitAlertID) -> Duration? {
        guard ticker != nil, let row = rows[alert], row.state == .running, row.parent != nil || groups[alert] != nil
        else { return nil }
        let second = Duration.seconds(1).attoseconds
        return Duration(attoseconds: (lastInstant.attoseconds / second + 1) * second)
    }

    // MARK: - Gathering

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        guard !stopped else { return }
        dirty = true
        lastInstant = max(lastInstant, instant)
        updateRunning(alert, isRunning: snapshot.outcome == nil && snapshot.phase < .lingering)
        count(snapshot, of: alert, at: instant)
        if let parent = snapshot.parent { parents[alert] = parent }
        if snapshot.outcome == nil, planned[alert] ?? [] != snapshot.plannedSteps {
            planned[alert] = snapshot.plannedSteps.isEmpty ? nil : snapshot.plannedSteps
            layout = nil
        }
        let ending = snapshot.kind == .toast ? TerminalOverlay.Ending.transient : self.ending
        if snapshot.outcome != nil, ending == .persistent || detached {
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
                        spinner: spinnerSlot(of: snapshot, at: instant)))
            case .gone: removeRow(alert)
            }
        }
        if snapshot.phase == .gone {
            gone.insert(alert)
            if !isWaiting(alert) { forget(alert) }
        }
    }

    func log(_ line: String, from alert: WaitAlertID) {
        guard !stopped else { return }
        let lines = TextSanitizer.logLines(line)
        if parents[alert] != nil { recap.log(lines, from: alert) }
        if detached {
            writePlain(lines)
        } else {
            recordEndedRows()
            absorbCapturedLines()
            above += lines.map { ($0, $0) }
            dirty = true
        }
    }

    /// Takes the program's lines caught so far into the lines waiting to be printed above the
    /// region, before a line for something that happens now: what the program wrote before it
    /// comes out before it. Under the terminal guard's lock, as a frame collects them.
    private func absorbCapturedLines() {
        guard let relay, isStandardError, !stopped, !detached else { return }
        _ = TerminalGuard.write(to: terminal) {
            let collected = relay.collect(at: OutputRelay.now())
            if collected.erasedRegion { screen.markErased(cursorShown: false) }
            above += collected.lines.map { (TextSanitizer.keepingColors($0.text), TextSanitizer.line($0.text)) }
            return []
        }
    }

    /// Something is printed above the region: the child tasks that ended before it, whose final
    /// lines still wait out their reading time in the region, become record lines first, so the
    /// lines above the region keep the order things happened in.
    private func recordEndedRows() {
        for parent in waiting.keys.sorted() {
            guard let entries = waiting[parent] else { continue }
            for index in entries.indices where !entries[index].isReady {
                guard retention(of: entries[index].id) != .keepUntilGroupEnds || rows[entries[index].id] == nil else {
                    continue
                }
                waiting[parent]?[index].isReady = true
            }
            commitReady(under: parent)
        }
    }

    /// Draws what the batch changed, in one write.
    func flush(at instant: Duration) {
        guard !stopped, dirty else { return }
        dirty = false
        lastInstant = max(lastInstant, instant)
        if let promptDriver {
            promptDriver.printAbove()  // the region waits for the prompt to end
            return
        }
        refreshPlacement()
        if detached, !rows.isEmpty { watchForForeground() }
        drawRegion()
        updateGuard()
        updateCapture()
    }

    /// The spinner a visible row turns, for the ticker.
    private func spinnerSlot(of snapshot: WaitAlertSnapshot, at instant: Duration) -> SpinnerTicker.Slot? {
        guard ticker != nil, snapshot.phase == .visible, let spinner = snapshot.spinner,
            let frame = snapshot.spinnerFrame
        else { return nil }
        return SpinnerTicker.Slot(line: 0, indent: snapshot.depth, spinner: spinner, frame: frame, at: instant)
    }

    private func setRow(_ alert: WaitAlertID, _ row: Row) {
        let old = rows[alert]
        if row.parent == nil { topLevel.insert(alert) }
        if let old, old.state == row.state, old.parent == row.parent {
            rows[alert]?.line = row.line
            rows[alert]?.progress = row.progress
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

    private func removeRow(_ alert: WaitAlertID) {
        guard let old = rows.removeValue(forKey: alert) else { return }
        topLevel.remove(alert)
        if isLeftOut(alert), layout?.hidden != nil {
            count(old.state, -1)
        } else {
            layout = nil
        }
    }

    /// Whether the current layout leaves `alert`'s row out.
    private func isLeftOut(_ alert: WaitAlertID) -> Bool {
        layout?.hidden != nil && !shownKeys.contains(.alert(alert))
    }

    /// Adds `change` to the summary's count of left-out rows in `state`.
    private func count(_ state: State, _ change: Int) {
        guard var hidden = layout?.hidden else { return }
        switch state {
        case .running: hidden.running += change
        case .failed, .finished: hidden.finished += change
        case .pending: hidden.pending += change
        }
        layout?.hidden = hidden
    }

    /// Keeps the counts of each alert's child tasks, for its header.
    private func count(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        if began[alert] == nil { began[alert] = instant }
        // A child task counts once it shows or ends: a planned step it takes leaves the plan then,
        // so the header never counts it twice.
        if let parent = snapshot.parent, snapshot.phase > .pending || snapshot.outcome != nil,
            countedChildren.insert(alert).inserted
        {
            groups[parent, default: Group()].started += 1
        }
        if let parent = snapshot.parent, let outcome = snapshot.outcome, !finishedChildren.contains(alert) {
            finishedChildren.insert(alert)
            groups[parent, default: Group()].finished += 1
            if case .failure = outcome { groups[parent, default: Group()].failed += 1 }
        }
    }

    private func forget(_ alert: WaitAlertID) {
        ended.remove(alert)
        gone.remove(alert)
        removeRow(alert)
        began[alert] = nil
        groups[alert] = nil
        planned[alert] = nil
        parents[alert] = nil
        closedGroups.remove(alert)
        finishedChildren.remove(alert)
        countedChildren.remove(alert)
        recap.forget(alert)
        if unanimated.remove(alert) != nil { context?.setDrawsFrames(alert, true) }
    }

    // MARK: - Endings

    /// An ended alert with a persistent ending (or any ending in the background). Its group
    /// closes first: the record lines of its child tasks, in the order they ended, the last log
    /// lines of those that failed, and the planned steps that never ran. Then a top-level alert's
    /// final line is printed above the region; a child task's row shows its final line until it
    /// has been read, then becomes a record line in its turn.
    private func end(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        ended.insert(alert)
        // What the program wrote before the end comes out before the lines the end prints (after
        // the record lines of child tasks that ended earlier, for an alert's own end).
        if snapshot.parent == nil { recordEndedRows() }
        absorbCapturedLines()
        closeGroup(alert)
        let final = FinalLine.of(snapshot).flatMap { detached && snapshot.kind == .toast ? nil : $0 }
        guard let parent = snapshot.parent else {
            removeRow(alert)
            if let final { emit(final) }
            return
        }
        recap.ended(alert, of: parent, with: final)
        let record = final.flatMap { final in
            GroupRecap.leavesRecord(
                final, outcome: snapshot.outcome, wasShown: snapshot.wasShown, retention: snapshot.retention)
                ? final : nil
        }
        let showsFinal = rows[alert] != nil && !detached && snapshot.phase < .fading && final != nil
        if showsFinal, let final {
            let state: State = final.tone == .failure ? .failed : .finished(at: instant)
            let line = OverlayScreen.Line(
                glyph: final.icon, text: TextSanitizer.line(final.text),
                style: colors ? Self.style(for: final.tone) : .plain,
                suffix: final.elapsed.map { " (\($0))" } ?? "", indent: snapshot.depth)
            setRow(alert, Row(line: line, parent: parent, state: state))
            retentions[alert] = snapshot.retention
        } else {
            removeRow(alert)
        }
        let isReady = !showsFinal || closedGroups.contains(parent)
        waiting[parent, default: []].append(Waiting(id: alert, record: record, isReady: isReady))
        commitReady(under: parent)
    }

    /// A child task's final message has been read (its alert fades): its record line may go.
    private func read(_ alert: WaitAlertID) {
        guard let parent = parents[alert], let index = waiting[parent]?.firstIndex(where: { $0.id == alert }),
            waiting[parent]?[index].isReady == false
        else { return }
        let keeps = rows[alert] != nil && retention(of: alert) == .keepUntilGroupEnds
        guard !keeps else { return }
        waiting[parent]?[index].isReady = true
        commitReady(under: parent)
    }

    /// The retention of a child task still in the region, from its waiting record.
    private var retentions: [WaitAlertID: WaitAlertRowRetention] = [:]

    private func retention(of alert: WaitAlertID) -> WaitAlertRowRetention {
        retentions[alert] ?? .record
    }

    private func isWaiting(_ alert: WaitAlertID) -> Bool {
        guard let parent = parents[alert] else { return false }
        return waiting[parent]?.contains { $0.id == alert } == true
    }

    /// Prints, in order, the record lines under `parent` that are ready, up to the first that is
    /// not: lines are committed in the order the tasks ended.
    private func commitReady(under parent: WaitAlertID) {
        while let first = waiting[parent]?.first, first.isReady {
            waiting[parent]?.removeFirst()
            commit(first)
        }
        if waiting[parent]?.isEmpty == true { waiting[parent] = nil }
    }

    private func commit(_ entry: Waiting) {
        removeRow(entry.id)
        retentions[entry.id] = nil
        if let record = entry.record { emit(record) }
        if gone.contains(entry.id) { forget(entry.id) }
    }

    /// `alert` has ended: every record line of its child tasks is committed now, in order, then
    /// the last log lines of those that failed and the steps that never ran.
    private func closeGroup(_ alert: WaitAlertID) {
        closedGroups.insert(alert)
        let entries = waiting.removeValue(forKey: alert) ?? []
        entries.forEach(commit)
        let steps = planned.removeValue(forKey: alert) ?? []
        recap.close(alert, planned: steps).forEach(emit)
        if !entries.isEmpty || !steps.isEmpty { layout = nil }
    }

    /// Prints a final line above the region (or as a plain line in the background).
    private func emit(_ final: FinalLine) {
        emit(text: final.plain, tone: final.tone)
    }

    private func emit(text: String, tone: FinalLine.Tone) {
        dirty = true
        let text = TextSanitizer.line(text)
        if detached {
            writePlain([text])
        } else {
            above.append((colors ? Self.style(for: tone).apply(to: text) : text, text))
        }
    }

    // MARK: - Drawing

    /// Lays the rows out within the terminal's height and draws them, after the lines waiting to
    /// be printed above: one write.
    private func drawRegion() {
        guard !detached, suspensions == 0 else { return }
        if settling != nil {
            // The window is being resized: no region until it keeps its size, but every line
            // waiting to be printed goes out now (a final line right before the program exits).
            guard !above.isEmpty else { return }
            let taken = above
            above = []
            writeFrame([], [], taken.map(\.styled))
            if frameDropped { above = taken + above }
            return
        }
        let windowRows = min(terminal.rows ?? 24, shortestRows ?? .max)
        let budget = max(windowRows - 1 - capturedPartials, 1)
        let layout = currentLayout(budget: budget)
        var desired: [(key: Key, line: OverlayScreen.Line)] = []
        desired.reserveCapacity(layout.rows.count + 1)
        for key in layout.rows {
            switch key {
            case .alert(let id):
                if let row = rows[id] { desired.append((key, decorated(row, of: id))) }
            case .planned(let parent, let index):
                let title = planned[parent]?[index] ?? ""
                let depth = (rows[parent]?.line.indent ?? 0) + 1
                let line = OverlayScreen.Line(
                    glyph: "○", text: TextSanitizer.line(title), style: colors ? .grey(level: 0.5) : .plain,
                    indent: depth)
                desired.append((key, line))
            case .summary, .captured:
                break
            }
        }
        if let hidden = layout.hidden {
            desired.append(
                (.summary, OverlayScreen.Line(glyph: nil, text: RegionLayout.summary(hidden), style: .plain)))
        }
        // The guard (signals, echo, exit restore) is in place before the first byte shows, so a
        // Ctrl-C that comes as soon as the spinner does already finds it.
        updateGuard()
        let taken = above
        let printed = taken.map(\.styled)
        above = []
        let taskbarBytes = taskbarUpdate()
        // A taskbar state shown is flagged before its bytes go out, and a clear only after:
        // whatever ends the program between the two still clears it.
        if isStandardError, !taskbarBytes.isEmpty, taskbar != .cleared {
            TerminalGuard.taskbarShown.store(true, ordering: .sequentiallyConsistent)
        }
        if let ticker {
            ticker.draw { onScreen in
                drawingWithTicker = true
                defer { drawingWithTicker = false }
                screen.adoptGlyphs(onScreen)
                let shown = writeFrame(taskbarBytes, desired, printed)
                return tickerPlan(shown)
            }
        } else {
            writeFrame(taskbarBytes, desired, printed)
        }
        if frameDropped {
            // The program is stopping: what was to be printed waits for the draw after `fg`.
            above = taken + above
            if !taskbarBytes.isEmpty { taskbar = .cleared }
        }
        updateCapture()
        if isStandardError, !taskbarBytes.isEmpty, taskbar == .cleared {
            TerminalGuard.taskbarShown.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Shows `desired` after printing `printed` above it, in one write, with what the program
    /// wrote meanwhile: its finished lines printed above first, its unfinished lines at the top
    /// of the region. Returns the lines shown. A frame the terminal guard drops — a signal
    /// handler has quieted the overlay because the program is stopping — is never composed: the
    /// screen stays as it was, and ``frameDropped`` says so, for the lines to be printed later.
    @discardableResult
    private func writeFrame(
        _ prefix: [UInt8], _ desired: [(key: Key, line: OverlayScreen.Line)], _ printed: [String]
    ) -> [(key: Key, line: OverlayScreen.Line)] {
        frameDropped = false
        guard isStandardError, !stopped, !detached else {
            write(prefix + screen.show(desired, printingAbove: printed))
            return desired
        }
        var shown = desired
        var composed = false
        let written = TerminalGuard.write(to: terminal) {
            composed = true
            let stops = TerminalGuard.stops.load(ordering: .sequentiallyConsistent)
            if stops != seenStops {
                // A stop erased the lines since the last frame (and showed the cursor).
                seenStops = stops
                screen.markErased()
            }
            var above = printed
            if let relay {
                let collected = relay.collect(at: OutputRelay.now())
                if collected.erasedRegion { screen.markErased(cursorShown: false) }
                let partials = collected.partials.sorted { $0.key.rawValue < $1.key.rawValue }.map { entry in
                    (
                        key: Key.captured(Int32(entry.key.rawValue)),
                        line: OverlayScreen.Line(glyph: nil, text: TextSanitizer.line(entry.value), style: .plain)
                    )
                }
                let fits = desired.isEmpty ? [] : partials.prefix(max((terminal.rows ?? 24) - 1 - desired.count, 0))
                if fits.count != capturedPartials {
                    capturedPartials = fits.count
                    layout = nil
                }
                shown = fits + desired
                // What the batch printed happened before the program's lines still in the
                // relay: each event took the lines written before it (`absorbCapturedLines`).
                above = printed + collected.lines.map { TextSanitizer.keepingColors($0.text) }
            }
            let bytes = prefix + screen.show(shown, printingAbove: above)
            // What is on screen is recorded with the write that puts it there, under the lock the
            // relay prints under: it erases these lines before printing over them, and whatever
            // ends the program now erases them too.
            TerminalGuard.erasedByRelay.store(false, ordering: .sequentiallyConsistent)
            TerminalGuard.drawn.store(guarding && !screen.isEmpty, ordering: .sequentiallyConsistent)
            return bytes
        }
        if !written {
            stop()
        } else if !composed {
            frameDropped = true
            return []
        }
        return shown
    }

    /// The glyphs the ticker turns until the next draw: the running rows drawn with a spinner
    /// whose glyph it can rewrite alone.
    private func tickerPlan(_ drawn: [(key: Key, line: OverlayScreen.Line)]) -> SpinnerTicker.Plan {
        var plan = SpinnerTicker.Plan()
        guard !detached, !stopped else { return plan }
        for (index, entry) in drawn.enumerated() {
            guard case .alert(let id) = entry.key, var slot = rows[id]?.spinner, let glyph = entry.line.glyph,
                screen.turnsGlyph(ofLine: index, through: slot.frames)
            else { continue }
            slot.line = index
            slot.indent = entry.line.indent
            plan.append(slot, showing: glyph)
        }
        return plan
    }

    /// The layout of the rows within `budget` lines, made again only when rows came, went or
    /// changed state (or the budget changed): a frame that only turns spinners costs what is on
    /// screen, however many rows there are.
    private func currentLayout(budget: Int) -> RegionLayout.Layout<Key> {
        if let layout, layoutBudget == budget { return layout }
        var input: [RegionLayout.Row<Key>] = []
        input.reserveCapacity(rows.count)
        for id in rows.keys.sorted() {
            guard let row = rows[id] else { continue }
            input.append(RegionLayout.Row(id: .alert(id), parent: row.parent.map(Key.alert), state: row.state))
        }
        for (parent, steps) in planned.sorted(by: { $0.key < $1.key }) where rows[parent] != nil {
            for index in steps.indices {
                input.append(RegionLayout.Row(id: .planned(parent, index), parent: .alert(parent), state: .pending))
            }
        }
        let layout = RegionLayout.layout(input, budget: budget)
        self.layout = layout
        layoutBudget = budget
        shownKeys = Set(layout.rows)
        animateOnly(shown: layout)
        return layout
    }

    /// The bytes that bring the taskbar up to date, in the frame's write: the first top-level
    /// row's progress (its own, or its group's), an error while its group has failed tasks,
    /// indeterminate otherwise; cleared when no top-level row runs. A new percentage at most four
    /// times a second.
    private func taskbarUpdate() -> [UInt8] {
        guard showsTaskbar else { return [] }
        var desired = TaskbarProgress.State.cleared
        if let id = topLevel.filter({ rows[$0]?.state == .running }).min(), let row = rows[id] {
            let fraction = row.progress?.fraction
            let percent = fraction.map(ProgressText.percent(of:))
            if (groups[id]?.failed ?? 0) > 0 {
                desired = .error(percent ?? 100)
            } else {
                desired = percent.map(TaskbarProgress.State.percent) ?? .indeterminate
            }
        }
        guard desired != taskbar else { return [] }
        switch (desired, taskbar) {
        case (.percent, .percent), (.error, .error):
            if lastInstant - taskbarSince < .milliseconds(250) { return [] }
        default: break
        }
        taskbar = desired
        taskbarSince = lastInstant
        return Array(desired.sequence.utf8)
    }

    /// Tells the presenter which running rows are left out, so that their frames cost nothing.
    private func animateOnly(shown layout: RegionLayout.Layout<Key>) {
        guard let context else { return }
        var hidden: Set<WaitAlertID> = []
        if layout.hidden != nil {
            let shown = Set(layout.rows)
            for (id, row) in rows where row.state == .running && !shown.contains(.alert(id)) { hidden.insert(id) }
        }
        for id in hidden.subtracting(unanimated) { context.setDrawsFrames(id, false) }
        for id in unanimated.subtracting(hidden) { context.setDrawsFrames(id, true) }
        unanimated = hidden
    }

    /// A row with what the region adds: the header of an alert with child tasks
    /// ("· 12/40 · 2 failed · 1m03s"), the elapsed time of a child task that has run a second.
    private func decorated(_ row: Row, of alert: WaitAlertID) -> OverlayScreen.Line {
        var line = row.line
        guard row.state == .running else { return line }
        let elapsed = began[alert].map { lastInstant - $0 } ?? .zero
        var suffix = ""
        if let group = groups[alert] {
            let total = group.started + (planned[alert]?.count ?? 0)
            suffix = " · \(group.finished)/\(total)"
            if group.failed > 0 { suffix += " · \(group.failed) failed" }
            if elapsed >= .seconds(1) { suffix += " · " + DurationFormat.elapsed(elapsed) }
        } else if row.parent != nil, elapsed >= .seconds(1) {
            suffix = " · " + DurationFormat.elapsed(elapsed)
        }
        if let progress = row.progress {
            // The bar takes what the text leaves: at least a dozen cells of text stay. Its width
            // grows with the window: 8 cells at 80 columns (the time left, the count and the rate
            // still fit), 20 at 100, at most 24.
            let room = screen.columns - 1 - line.indent * 2 - 2 - 12 - DisplayWidth.of(suffix)
            let barWidth = min(max((3 * screen.columns - 200) / 5, 6), 24)
            suffix = ProgressText.row(progress, room: room, barWidth: barWidth, unicode: unicode) + suffix
        }
        line.suffix = suffix
        return line
    }

    // MARK: - The terminal

    /// Re-reads the terminal's size and redraws every line, leaving no garbage behind when the
    /// window shrank below a line's length.
    func terminalDidResize() {
        guard !stopped else { return }
        if relay != nil { OutputRelay.followWindowSize() }
        refreshPlacement()
        dirty = true
        flush(at: lastInstant)
    }

    /// The window changed size (`SIGWINCH`): nothing is drawn until it has kept its size for
    /// ``resizeSettling``, then every line is drawn afresh at the new size. While the user drags
    /// a window's edge, frames sized for a window that is no longer there would land in a smaller
    /// one and push copies of the region into the scrollback; meanwhile the terminal itself trims
    /// the rows below the cursor, which rests on the region's first row.
    private func windowResized() {
        guard !stopped else { return }
        if relay != nil { OutputRelay.followWindowSize() }
        // For a while the region is no taller than the shortest window seen: a frame that lands
        // in a window shortened again meanwhile still fits.
        if let rows = terminal.rows { shortestRows = min(shortestRows ?? rows, rows) }
        shortestRowsExpiry?.cancel()
        let expiry = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.shortestRows != nil else { return }
                self.shortestRows = nil
                self.dirty = true
                self.flush(at: self.lastInstant)
            }
        }
        shortestRowsExpiry = expiry
        DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(1), execute: expiry)
        ticker?.stop()
        settling?.cancel()
        let settled = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.settling = nil
                self.terminalDidResize()
            }
        }
        settling = settled
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.resizeSettling, execute: settled)
    }

    /// How long the window keeps its size before the region is drawn again after a resize.
    static let resizeSettling = DispatchTimeInterval.milliseconds(150)

    /// Checks where the program now is after a stop and a continue (Ctrl-Z, then `fg` or `bg`):
    /// in the foreground the lines are drawn again where the shell left the cursor; in the
    /// background nothing is drawn until the program is brought back.
    func terminalDidResume() {
        guard !stopped, guarding else { return }
        if !detached, !screen.isEmpty, !TerminalGuard.drawn.load(ordering: .sequentiallyConsistent) {
            // The stop erased the lines and put the terminal modes back: nothing of ours is on
            // screen, and echo is on again. Lines still waiting are printed as plain lines.
            inputBlocked = false
            detach()
        }
        dirty = true
        flush(at: lastInstant)
    }

    /// Picks up where the program is (foreground or background job) and the terminal's width,
    /// before anything is drawn.
    private func refreshPlacement() {
        let foreground = terminal.isForeground
        if foreground == detached {
            foreground ? attach() : detach()
        } else if !detached {
            refreshWidth()
        }
    }

    /// Picks up a width change, also one that no `SIGWINCH` reported (between alerts, without
    /// signal handling, or on another terminal), before drawing anything: the next draw erases
    /// and draws every line, laid out for the terminal's height then (drawing the lines as they
    /// were first could make them taller than a window that also got shorter).
    private func refreshWidth() {
        guard let columns = terminal.columns, columns != screen.columns else { return }
        screen.columns = columns
    }

    /// The program went to the background: from now on nothing is drawn and no terminal mode is
    /// touched; the lines are kept to be drawn again in the foreground.
    private func detach() {
        detached = true
        watchForForeground()
        ticker?.stop()
        if !above.isEmpty {
            writePlain(above.map(\.plain))
            above = []
        }
        releaseOutput()
        updateGuard()  // nothing drawn; input no longer blocked (the shell owns the terminal now)
    }

    /// While the program runs in the background, checks five times a second whether it is in
    /// the foreground again: `fg` on a job that runs in the background only hands it the
    /// terminal, with no signal, and the region must come back at once, not at the next change.
    private func watchForForeground() {
        guard foregroundWatch == nil, ticker != nil else { return }  // without a ticker every frame checks
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        let terminal = terminal
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                guard self.detached, !self.stopped, !self.rows.isEmpty else {
                    // Nothing to bring back: the next alert's first draw checks by itself.
                    self.foregroundWatch?.cancel()
                    self.foregroundWatch = nil
                    return
                }
                guard terminal.isForeground else { return }
                self.dirty = true
                self.flush(at: self.lastInstant)
            }
        }
        timer.resume()
        foregroundWatch = timer
    }

    /// The program is in the foreground again: the next draw draws the lines afresh where the
    /// cursor is.
    private func attach() {
        detached = false
        foregroundWatch?.cancel()
        foregroundWatch = nil
        taskbar = .cleared  // a stop cleared it
        screen.columns = terminal.columns ?? screen.columns
        screen.markErased()
        dirty = true
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !stopped, !detached else { return }
        let written = isStandardError ? TerminalGuard.write(bytes, to: terminal) : terminal.write(bytes)
        if !written { stop() }
    }

    /// Writes `lines` as plain text, for a program in the background: no escape byte at all.
    private func writePlain(_ lines: [String]) {
        guard !lines.isEmpty, !stopped else { return }
        let bytes = Array(lines.map { TextSanitizer.line($0) + "\n" }.joined().utf8)
        let written = isStandardError ? TerminalGuard.write(bytes, to: terminal) : terminal.write(bytes)
        if !written { stop() }
    }

    func print(_ line: String, to stream: WaitAlertOutputStream) -> Bool {
        let prompting = promptDriver != nil
        guard !stopped, !detached, prompting || suspensions == 0, prompting || !rows.isEmpty || !screen.isEmpty
        else { return false }
        if stream == .standardOutput, !isStandardError || !Self.standardOutputIsStandardError() { return false }
        recordEndedRows()
        absorbCapturedLines()
        for part in line.split(separator: "\n", omittingEmptySubsequences: false) {
            let styled = TextSanitizer.keepingColors(String(part))
            above.append((colors ? styled : TextSanitizer.line(String(part)), TextSanitizer.line(String(part))))
        }
        dirty = true
        flush(at: lastInstant)
        return true
    }

    /// Whether standard output is the terminal standard error is (so a line for it can go above
    /// the region).
    private static func standardOutputIsStandardError() -> Bool {
        let output = OutputRelay.real(STDOUT_FILENO)
        let error = OutputRelay.real(STDERR_FILENO)
        var outputStatus = stat()
        var errorStatus = stat()
        guard isatty(output) == 1, fstat(output, &outputStatus) == 0, fstat(error, &errorStatus) == 0 else {
            return false
        }
        return outputStatus.st_rdev == errorStatus.st_rdev
    }

    /// Takes the region off the screen and gives the terminal back (modes, signals, descriptors)
    /// until the matching ``resume()``.
    func suspend() {
        suspensions += 1
        guard suspensions == 1, !stopped else { return }
        ticker?.stop()
        if !detached {
            let taken = above
            above = []
            writeFrame([], [], taken.map(\.styled))
            if frameDropped { above = taken + above }
        }
        if !promptKeepsCapture { releaseOutput() }
        updateGuard()
    }

    func resume() {
        guard suspensions > 0 else { return }
        suspensions -= 1
        guard suspensions == 0, !stopped else { return }
        dirty = true
        flush(at: lastInstant)
    }

    /// Asks `prompt` on the terminal when standard input is the same terminal, in the
    /// foreground; returns `false` otherwise.
    func present(_ prompt: WaitAlertPrompt) -> Bool {
        guard isStandardError, !stopped, !detached, promptDriver == nil, TerminalPrompt.canAsk(),
            let terminal = terminal as? WaitAlertStandardError
        else { return false }
        let driver = TerminalPrompt(prompt, terminal: terminal, colors: colors) { [weak self] in
            self?.promptDriver = nil
            self?.resume()
            self?.updateCapture()  // still suspended (`withAlertsSuspended`): the capture ends
        }
        // Asked while the alerts are suspended, the program has its own descriptors and keeps them.
        promptCaptures = suspensions == 0
        promptDriver = driver
        // The region makes way and gives the terminal guard to the prompt; the program's output
        // is still caught (or now is), and printed above the prompt.
        suspend()
        updateCapture()
        driver.collectAbove = { [weak self] in self?.takeLinesAbovePrompt() ?? ([], false) }
        driver.start()
        return true
    }

    /// What waits to be printed above the prompt: the program's lines caught meanwhile, then log
    /// lines, final and record lines. Taken under the lock of the write that prints them.
    private func takeLinesAbovePrompt() -> (lines: [String], erased: Bool) {
        var lines = above.map(\.styled)
        var erased = false
        above = []
        if let relay {
            let collected = relay.collect(at: OutputRelay.now())
            erased = collected.erasedRegion
            lines += collected.lines.map { TextSanitizer.keepingColors($0.text) }
        }
        return (lines, erased)
    }

    /// The program wrote something while lines show: it is printed above them now.
    private func outputArrived() {
        guard relay != nil, !stopped, !detached else { return }
        recordEndedRows()
        dirty = true
        flush(at: lastInstant)
    }

    /// Catches the program's output from the moment an alert begins (a subprocess started during
    /// the grace delay writes through what it inherited) until none is left, in the foreground.
    private func updateCapture() {
        let shouldCapture =
            integration.capturesOutput && isStandardError && !stopped && !detached
            && (promptKeepsCapture || suspensions == 0 && (!running.isEmpty || !rows.isEmpty || !screen.isEmpty))
        if shouldCapture, relay == nil, let relay = OutputRelay.relay() {
            let wake: @Sendable () -> Void = { [weak self] in Task { @MainActor in self?.outputArrived() } }
            let erase: @Sendable (Int) -> String = { "\r" + OverlayScreen.up($0) + OverlayScreen.eraseFromCursorRow }
            if relay.capture(wake: wake, eraseRegion: erase) { self.relay = relay }
        } else if !shouldCapture {
            releaseOutput()
        }
    }

    /// Gives the program its own descriptors back; what it wrote and was not shown yet follows.
    private func releaseOutput() {
        guard let relay else { return }
        self.relay = nil
        capturedPartials = 0
        if relay.release() {
            // The relay printed over the lines and they were not drawn since: the next draw
            // draws them afresh, and records them as drawn again.
            screen.markErased(cursorShown: false)
            TerminalGuard.erasedByRelay.store(false, ordering: .sequentiallyConsistent)
            dirty = true
        }
    }

    // MARK: - Input and signals

    /// Tracks which alerts still wait for their work; once every work a Ctrl-C interrupted has
    /// ended, the next Ctrl-C cancels the next work instead of ending the program.
    private func updateRunning(_ alert: WaitAlertID, isRunning: Bool) {
        if isRunning {
            running.insert(alert)
        } else {
            running.remove(alert)
            if interrupted.remove(alert) != nil, interrupted.isEmpty { TerminalGuard.resetInterrupts() }
        }
    }

    /// A Ctrl-C: cancel the work of every alert; with none to cancel, Ctrl-C does what it would
    /// have done without the overlay.
    private func interrupt() {
        interrupted.formUnion(running)
        if context?.cancelAllWork() != true { TerminalGuard.passOnInterrupt() }
    }

    /// The overlay line of a snapshot: spinner glyph (or outcome icon) and text, styled.
    private func line(for snapshot: WaitAlertSnapshot) -> OverlayScreen.Line {
        let text = TextSanitizer.line(snapshot.text)
        var style = OverlayScreen.Style.plain
        var glyph = snapshot.spinnerGlyph
        if snapshot.phase >= .lingering, snapshot.kind == .waitAlert, let final = FinalLine.of(snapshot) {
            glyph = final.icon
            style = colors ? Self.style(for: final.tone) : .plain
        }
        if colors, snapshot.phase == .fading { style = .grey(level: snapshot.opacity) }
        return OverlayScreen.Line(glyph: glyph, text: text, style: style, indent: snapshot.depth)
    }

    /// Whether the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`; an
    /// unset locale counts as UTF-8, as on macOS and in most terminals).
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale else { return true }
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    static func style(for tone: FinalLine.Tone) -> OverlayScreen.Style {
        switch tone {
        case .success: .green
        case .failure: .red
        case .warning: .yellow
        case .neutral: .plain
        }
    }

    /// Turns the terminal guard on while there are lines to show (also in the background, where
    /// `SIGCONT` tells when the program is brought back), off when there are none; tells it
    /// whether lines are on screen; blocks input only in the foreground, while some alert still
    /// waits for its work.
    private func updateGuard() {
        let shouldGuard = (!rows.isEmpty || !screen.isEmpty) && isStandardError && suspensions == 0
        if shouldGuard != guarding {
            guarding = shouldGuard
            if shouldGuard {
                TerminalGuard.activate(
                    output: WaitAlertStandardError.shared.descriptor,
                    handlesSignals: integration.handlesSignals,
                    handlers: handlers()
                )
                if relay != nil { OutputRelay.followWindowSize() }  // resized before the handler was in place
            } else {
                inputBlocked = false
                if !promptKeepsCapture { releaseOutput() }
                TerminalGuard.deactivate()
            }
        }
        if guarding { TerminalGuard.setDrawn(!detached && !screen.isEmpty) }
        let shouldBlock = guarding && integration.blocksInput && !running.isEmpty && !detached
        if shouldBlock != inputBlocked {
            inputBlocked = shouldBlock
            TerminalGuard.blockInput(shouldBlock)
        }
    }

    private func handlers() -> TerminalGuard.Handlers {
        TerminalGuard.Handlers(
            interrupt: { [weak self] in Task { @MainActor in self?.interrupt() } },
            resize: { [weak self] in Task { @MainActor in self?.windowResized() } },
            resume: { [weak self] in Task { @MainActor in self?.terminalDidResume() } }
        )
    }

    /// Stops drawing for good after the terminal refused a write.
    private func stop() {
        stopped = true
        settling?.cancel()
        settling = nil
        foregroundWatch?.cancel()
        foregroundWatch = nil
        releaseOutput()
        if !drawingWithTicker { ticker?.stop() }
        if guarding {
            guarding = false
            inputBlocked = false
            TerminalGuard.deactivate()
        }
    }
}

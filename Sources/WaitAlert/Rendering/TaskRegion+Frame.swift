extension TaskRegion {
    /// The region's lines from top to bottom, laid out within `budget` lines of a terminal
    /// `columns` wide: rows (decorated: a group's counts, a child task's elapsed time, progress),
    /// the first steps planned and not started, and a summary of the rows left out and of the
    /// work waiting that has no row (`… 3272 pending`).
    mutating func frame(columns: Int, budget: Int) -> [(key: Key, line: OverlayScreen.Line)] {
        let layout = currentLayout(budget: budget)
        var lines: [(key: Key, line: OverlayScreen.Line)] = []
        lines.reserveCapacity(layout.rows.count + 1)
        for key in layout.rows {
            switch key {
            case .alert(let id):
                if let entry = entries[id], let row = entry.row {
                    lines.append((key, decorated(row, of: entry, columns: columns)))
                }
            case .planned(let parent, let index):
                let steps = entries[parent]?.group.pending.listedSteps ?? []
                let title = steps.indices.contains(index) ? steps[index] : ""
                let depth = (entries[parent]?.row?.line.indent ?? 0) + 1
                let line = OverlayScreen.Line(
                    glyph: "○", text: TextSanitizer.line(title), style: style.colors ? .grey(level: 0.5) : .plain,
                    indent: depth)
                lines.append((key, line))
            case .summary, .captured, .notice:
                break
            }
        }
        if let hidden = layout.hidden {
            lines.append((.summary, OverlayScreen.Line(glyph: nil, text: RegionLayout.summary(hidden), style: .plain)))
        }
        return lines
    }

    /// The spinner the row under `key` turns, if it turns one.
    func spinner(of key: Key) -> SpinnerSlot? {
        guard case .alert(let id) = key else { return nil }
        return entries[id]?.row?.spinner
    }

    /// With spinners turned between draws, the elapsed times still count: a running row that
    /// shows one (a child task's, a group's header) is drawn again on the next whole second of
    /// the clock, all of them at once.
    func redrawDeadline(for alert: WaitAlertID) -> Duration? {
        guard style.turnsSpinners, let entry = entries[alert], entry.row?.state == .running,
            entry.parent != nil || entry.group.hasChildren
        else { return nil }
        let second = Duration.seconds(1).attoseconds
        return Duration(attoseconds: (lastInstant.attoseconds / second + 1) * second)
    }

    /// The taskbar's new state, when it changes: the first top-level row's progress (its own, or
    /// its group's), an error while its group has failed tasks or its work says it is failing,
    /// indeterminate otherwise; cleared
    /// when no top-level row runs. A new percentage at most four times a second.
    mutating func taskbarUpdate() -> TaskbarProgress.State? {
        guard style.showsTaskbar else { return nil }
        var desired = TaskbarProgress.State.cleared
        if let id = topLevel.filter({ entries[$0]?.row?.state == .running }).min(), let entry = entries[id],
            let row = entry.row
        {
            let percent = row.progress?.fraction.map(ProgressText.percent(of:))
            if entry.group.failed > 0 || row.isFailing {
                desired = .error(percent ?? 100)
            } else {
                desired = percent.map(TaskbarProgress.State.percent) ?? .indeterminate
            }
        }
        guard desired != taskbar else { return nil }
        switch (desired, taskbar) {
        case (.percent, .percent), (.error, .error):
            if lastInstant - taskbarSince < .milliseconds(250) { return nil }
        default: break
        }
        taskbar = desired
        taskbarSince = lastInstant
        return desired
    }

    /// The taskbar shows nothing any more (a stop cleared it, or its update was not written).
    mutating func taskbarCleared() {
        taskbar = .cleared
    }

    /// Moves the region's clock to `instant` (a frame drawn then).
    mutating func advance(to instant: Duration) {
        lastInstant = max(lastInstant, instant)
    }

    // MARK: - Layout and decoration

    /// The layout of the rows within `budget` lines, made again only when rows came, went or
    /// changed state (or the budget changed): a frame that only turns spinners costs what is on
    /// screen, however many rows there are.
    private mutating func currentLayout(budget: Int) -> RegionLayout.Layout<Key> {
        if let layout, layoutBudget == budget { return layout }
        var rows: [(id: WaitAlertID, row: RegionLayout.Row<Key>)] = []
        var planned: [(id: WaitAlertID, work: PendingWork)] = []
        rows.reserveCapacity(rowCount)
        for (id, entry) in entries {
            guard let row = entry.row else { continue }
            rows.append((id, RegionLayout.Row(id: .alert(id), parent: entry.parent.map(Key.alert), state: row.state)))
            let work = entry.group.pending
            if !work.isEmpty { planned.append((id, work)) }
        }
        var input = rows.sorted { $0.id < $1.id }.map(\.row)
        var unlisted = 0
        for (parent, work) in planned.sorted(by: { $0.id < $1.id }) {
            for index in work.listedSteps.indices {
                input.append(RegionLayout.Row(id: .planned(parent, index), parent: .alert(parent), state: .pending))
            }
            unlisted += work.unlisted
        }
        let layout = RegionLayout.layout(input, budget: budget, unlistedPending: unlisted)
        self.layout = layout
        layoutBudget = budget
        noteLeftOut(by: layout)
        return layout
    }

    /// Notes which rows the layout leaves out, and which running ones among them, so that their
    /// frames cost nothing.
    private mutating func noteLeftOut(by layout: RegionLayout.Layout<Key>) {
        var shown: Set<WaitAlertID> = []
        if layout.hidden != nil {
            for case .alert(let id) in layout.rows { shown.insert(id) }
        }
        // Walked by index, so that the entries change in place (iterating them holds a copy).
        var index = entries.startIndex
        while index != entries.endIndex {
            let id = entries.keys[index]
            let state = entries.values[index].row?.state
            let isLeftOut = layout.hidden != nil && state != nil && !shown.contains(id)
            let isUnanimated = isLeftOut && state == .running
            entries.values[index].isLeftOut = isLeftOut
            if isUnanimated != entries.values[index].isUnanimated {
                entries.values[index].isUnanimated = isUnanimated
                animationChanges[id] = !isUnanimated
            }
            entries.formIndex(after: &index)
        }
    }

    /// A row with what the region adds: the header of an alert with child tasks
    /// ("· 12/40 · 2 failed · 1 warning · 1m03s"), the elapsed time of a child task that has run a second,
    /// "· failing" while its work says so, "· cancelling…" once cancelling it was asked for,
    /// progress.
    ///
    /// The row's own text comes first: it keeps ``readableTextWidth(room:)`` cells (all of it
    /// when shorter). The figures share what is left, the least important given up first: the
    /// elapsed time, then the progress's rate, count, time left and bar (``ProgressText/row``);
    /// the counts of a header, `failing` and `cancelling…` are always kept.
    private func decorated(_ row: Row, of entry: Entry, columns: Int) -> OverlayScreen.Line {
        var line = row.line
        // The cells of the row after its indent and glyph, and what its text keeps of them.
        let room = columns - 1 - line.indent * 2 - 2
        let textKeeps = min(DisplayWidth.of(line.text), Self.readableTextWidth(room: room))
        guard row.state == .running else {
            // A final message's elapsed time gives way too.
            if room - DisplayWidth.of(line.suffix) < textKeeps { line.suffix = "" }
            return line
        }
        let elapsed = lastInstant - entry.began
        let group = entry.group
        var kept = ""
        var shownElapsed: String?
        if group.hasChildren {
            let total = group.started + group.pending.count
            kept = " · \(group.finished)/\(total)\(group.pending.hasUncountedTasks ? "+" : "")"
            if group.failed > 0 { kept += " · \(group.failed) failed" }
            if group.warned > 0 { kept += " · \(group.warned) warning\(group.warned == 1 ? "" : "s")" }
        }
        if group.hasChildren || entry.parent != nil, elapsed >= .seconds(1) {
            shownElapsed = " · " + DurationFormat.elapsed(elapsed)
        }
        if row.isFailing { kept = " · failing" + kept }
        if row.isCancelling { kept = (style.unicode ? " · cancelling…" : " · cancelling...") + kept }
        var left = room - textKeeps - DisplayWidth.of(kept)
        var progress = ""
        if let figures = row.progress {
            // The bar's width grows with the window: 8 cells at 80 columns (the time left, the
            // count and the rate still fit), 20 at 100, at most 24.
            let barWidth = min(max((3 * columns - 200) / 5, 6), 24)
            progress = ProgressText.row(figures, room: left, barWidth: barWidth, unicode: style.unicode)
            left -= DisplayWidth.of(progress)
        }
        if let shownElapsed, DisplayWidth.of(shownElapsed) <= left { kept += shownElapsed }
        line.suffix = progress + kept
        return line
    }

    /// The cells a row's text keeps before any figure takes one, out of the `room` after its
    /// indent and glyph: two fifths, at least 12 and at most 32 (less when the text is shorter,
    /// and only what there is in a window narrower than that).
    static func readableTextWidth(room: Int) -> Int {
        min(max(room * 2 / 5, 12), 32, max(room, 0))
    }

    /// The region line of a snapshot: spinner glyph (or outcome icon) and text, styled.
    func line(for snapshot: WaitAlertSnapshot) -> OverlayScreen.Line {
        let text = TextSanitizer.line(snapshot.text)
        var lineStyle = OverlayScreen.Style.plain
        var glyph = snapshot.spinnerGlyph
        if snapshot.phase >= .lingering, snapshot.kind == .waitAlert, let final = FinalLine.of(snapshot) {
            glyph = final.icon
            lineStyle = style.colors ? Self.style(for: final.tone) : .plain
        }
        if style.colors, snapshot.phase == .fading { lineStyle = .grey(level: snapshot.opacity) }
        return OverlayScreen.Line(glyph: glyph, text: text, style: lineStyle, indent: snapshot.depth)
    }
}

extension TaskRegion {
    /// An ended alert with a persistent ending (or any ending in the background). Its group
    /// closes first: the record lines of its child tasks, in the order they ended, the last log
    /// lines of those that failed, and the planned steps that never ran. Then a top-level alert's
    /// final line is printed above the region; a child task's row shows its final line until it
    /// has been read, then becomes a record line in its turn.
    mutating func end(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        ended.insert(alert)
        closeGroup(alert)
        let final = FinalLine.of(snapshot).flatMap { isDetached && snapshot.kind == .toast ? nil : $0 }
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
        let showsFinal = rows[alert] != nil && !isDetached && snapshot.phase < .fading && final != nil
        if showsFinal, let final {
            let state: State = final.tone == .failure ? .failed : .finished(at: instant)
            let line = OverlayScreen.Line(
                glyph: final.icon, text: TextSanitizer.line(final.text),
                style: style.colors ? Self.style(for: final.tone) : .plain,
                suffix: final.elapsed.map { " (\($0))" } ?? "", indent: snapshot.depth)
            setRow(alert, Row(line: line, parent: parent, state: state))
            retentions[alert] = snapshot.retention
        } else {
            removeRow(alert)
        }
        let isReady = !showsFinal || closedGroups.contains(parent)
        waiting[parent, default: RecordQueue()].append(Waiting(id: alert, record: record, isReady: isReady))
        commitReady(under: parent)
    }

    /// A child task's final message has been read (its alert fades): its record line may go.
    mutating func read(_ alert: WaitAlertID) {
        guard let parent = parents[alert], waiting[parent]?.isUnready(alert) == true else { return }
        let keeps = rows[alert] != nil && retention(of: alert) == .keepUntilGroupEnds
        guard !keeps else { return }
        waiting[parent]?.markReady(alert)
        commitReady(under: parent)
    }

    /// Something is printed above the region: the child tasks that ended before it, whose final
    /// lines still wait out their reading time in the region, become record lines first, so the
    /// lines above the region keep the order things happened in.
    mutating func recordEndedRows() {
        for parent in waiting.keys.sorted() {
            guard let entries = waiting[parent]?.waiting else { continue }
            for entry in entries where !entry.isReady {
                guard retention(of: entry.id) != .keepUntilGroupEnds || rows[entry.id] == nil else { continue }
                waiting[parent]?.markReady(entry.id)
            }
            commitReady(under: parent)
        }
    }

    func retention(of alert: WaitAlertID) -> WaitAlertRowRetention {
        retentions[alert] ?? .record
    }

    func isWaiting(_ alert: WaitAlertID) -> Bool {
        guard let parent = parents[alert] else { return false }
        return waiting[parent]?.contains(alert) == true
    }

    /// Prints, in order, the record lines under `parent` that are ready, up to the first that is
    /// not: lines are committed in the order the tasks ended.
    private mutating func commitReady(under parent: WaitAlertID) {
        while let first = waiting[parent]?.takeFirstReady() { commit(first) }
        if waiting[parent]?.isEmpty == true { waiting[parent] = nil }
    }

    private mutating func commit(_ entry: Waiting) {
        removeRow(entry.id)
        retentions[entry.id] = nil
        if let record = entry.record { emit(record) }
        if gone.contains(entry.id) { forget(entry.id) }
    }

    /// `alert` has ended: every record line of its child tasks is committed now, in order, then
    /// the last log lines of those that failed and the steps that never ran.
    private mutating func closeGroup(_ alert: WaitAlertID) {
        closedGroups.insert(alert)
        var queue = waiting.removeValue(forKey: alert) ?? RecordQueue()
        let entries = queue.takeAll()
        for entry in entries { commit(entry) }
        let waiting = pending.removeValue(forKey: alert) ?? PendingWork()
        for line in recap.close(alert, pending: waiting) { emit(line) }
        if !entries.isEmpty || !waiting.isEmpty { layout = nil }
    }

    /// Prints a final or record line above the region.
    private mutating func emit(_ final: FinalLine) {
        let text = TextSanitizer.line(final.plain)
        above.append((style.colors ? Self.style(for: final.tone).apply(to: text) : text, text))
    }

    /// The style of a final line's tone.
    static func style(for tone: FinalLine.Tone) -> OverlayScreen.Style {
        switch tone {
        case .success: .green
        case .failure: .red
        case .warning: .yellow
        case .info: .cyan
        case .neutral: .plain
        }
    }
}

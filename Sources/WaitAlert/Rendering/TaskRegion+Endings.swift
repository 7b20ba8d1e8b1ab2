extension TaskRegion {
    /// An ended alert with a persistent ending (or any ending in the background). Its group
    /// closes first: the record lines of its child tasks, in the order they ended, the last log
    /// lines of those that failed, and the planned steps that never ran. Then a top-level alert's
    /// final line is printed above the region; a child task's row shows its final line until it
    /// has been read, then becomes a record line in its turn.
    mutating func end(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        entries[alert]?.hasEnded = true
        closeGroup(alert)
        let final = FinalLine.of(snapshot).flatMap { isDetached && snapshot.kind == .toast ? nil : $0 }
        guard let parent = snapshot.parent else {
            removeRow(alert)
            if let final { emit(final) }
            return
        }
        // A parent forgotten never closes: nothing is kept for its recap.
        recap.ended(alert, of: parent, with: entries[parent] == nil ? nil : final)
        let record = final.flatMap { final in
            GroupRecap.leavesRecord(
                final, outcome: snapshot.outcome, wasShown: snapshot.wasShown, retention: snapshot.retention)
                ? final : nil
        }
        let showsFinal = entries[alert]?.row != nil && !isDetached && snapshot.phase < .fading && final != nil
        if showsFinal, let final {
            let state: State = final.tone == .failure ? .failed : .finished(at: instant)
            let line = OverlayScreen.Line(
                glyph: final.icon, text: TextSanitizer.line(final.text),
                style: style.colors ? Self.style(for: final.tone) : .plain,
                suffix: final.elapsed.map { " (\($0))" } ?? "", indent: snapshot.depth)
            setRow(alert, Row(line: line, state: state, keepsUntilGroupEnds: snapshot.retention == .keepUntilGroupEnds))
        } else {
            removeRow(alert)
        }
        // A parent forgotten is gone, its group ended for good: the record line goes at once.
        let isReady = !showsFinal || entries[parent]?.hasEnded ?? true
        entries[alert]?.waits = true
        entries[alert]?.isReady = isReady
        waiting[parent, default: []].append(Waiting(id: alert, record: record))
        commitReady(under: parent)
    }

    /// A child task's final message has been read (its alert fades): its record line may go.
    mutating func read(_ alert: WaitAlertID) {
        guard let entry = entries[alert], let parent = entry.parent, entry.waits, !entry.isReady,
            entry.row?.keepsUntilGroupEnds != true
        else { return }
        entries[alert]?.isReady = true
        commitReady(under: parent)
    }

    /// Something is printed above the region: the child tasks that ended before it, whose final
    /// lines still wait out their reading time in the region, become record lines first, so the
    /// lines above the region keep the order things happened in.
    mutating func recordEndedRows() {
        for parent in waiting.keys.sorted() {
            for child in waiting[parent] ?? [] where entries[child.id]?.row?.keepsUntilGroupEnds != true {
                entries[child.id]?.isReady = true
            }
            commitReady(under: parent)
        }
    }

    /// Prints, in order, the record lines under `parent` that are ready, up to the first that is
    /// not: lines are committed in the order the tasks ended.
    private mutating func commitReady(under parent: WaitAlertID) {
        while let first = waiting[parent]?.first, entries[first.id]?.isReady != false {
            _ = waiting[parent]?.popFirst()
            commit(first)
        }
        if waiting[parent]?.isEmpty == true { waiting[parent] = nil }
    }

    private mutating func commit(_ child: Waiting) {
        removeRow(child.id)
        entries[child.id]?.waits = false
        if let record = child.record { emit(record) }
        forgetIfDone(child.id)
    }

    /// `alert` has ended: every record line of its child tasks is committed now, in order, then
    /// the last log lines of those that failed and the steps that never ran.
    private mutating func closeGroup(_ alert: WaitAlertID) {
        let children = waiting.removeValue(forKey: alert) ?? []
        for child in children { commit(child) }
        let pending = entries[alert]?.group.pending ?? PendingWork()
        if !pending.isEmpty { entries[alert]?.group.pending = PendingWork() }
        for line in recap.close(alert, pending: pending) { emit(line) }
        if !children.isEmpty || !pending.isEmpty { layout = nil }
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

/// Which rows a terminal region shows when they do not all fit: a pure function of the rows and
/// the number of lines the region may take.
///
/// Rows are shown in tree order (each alert, then its child tasks in the order they began, then
/// the steps it has planned). When they do not fit, the region keeps, in this priority: top-level
/// alerts (the group headers), failed rows, running rows (the longest-running first, so the rows
/// shown do not change while they run: a row never jumps), recently finished rows, planned steps,
/// and gives the last line to a summary of the rest ("… 37 more running, 120 done"). A row kept
/// brings its ancestors, so a nested row is never shown without the rows above it. The result
/// never has more lines than the budget.
enum RegionLayout {
    /// One row of the region.
    struct Row<ID: Hashable>: Equatable {
        /// Where the row is while it runs or after it ended.
        enum State: Equatable {
            case running
            case failed
            /// Ended (not failed) at this instant.
            case finished(at: Duration)
            /// Planned, not started yet.
            case pending
        }

        var id: ID
        var parent: ID?
        var state: State
    }

    /// How many rows of each kind a region leaves out.
    struct Hidden: Equatable {
        var running = 0
        var finished = 0
        var pending = 0
    }

    /// What the region shows.
    struct Layout<ID: Hashable>: Equatable {
        /// The rows shown, in tree order.
        var rows: [ID]
        /// The rows left out, when some are.
        var hidden: Hidden?
    }

    /// The rows to show within `budget` lines (one of them the summary, if rows are left out or
    /// pending work has no row).
    ///
    /// - Parameters:
    ///   - rows: every row, parents before their children, siblings in the order they are shown.
    ///   - unlistedPending: work waiting its turn that has no row, only a count in the summary
    ///     (`… 3272 pending`): the tasks of a group waiting for a slot, the planned steps past
    ///     those listed by title.
    static func layout<ID>(_ rows: [Row<ID>], budget: Int, unlistedPending: Int = 0) -> Layout<ID> {
        let ordered = treeOrder(rows)
        let unlisted = max(unlistedPending, 0)
        guard ordered.count + (unlisted > 0 ? 1 : 0) > budget else {
            return Layout(rows: ordered.map(\.id), hidden: unlisted > 0 ? Hidden(pending: unlisted) : nil)
        }
        guard budget > 1 else { return Layout(rows: Array(ordered.prefix(max(budget, 0)).map(\.id)), hidden: nil) }
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen: Set<ID> = []
        let slots = budget - 1  // the last line says what is left out
        func choose(_ row: Row<ID>) {
            var lineage = [row.id]
            var parent = row.parent
            while let id = parent, !chosen.contains(id), let above = byID[id] {
                lineage.append(id)
                parent = above.parent
            }
            let added = lineage.filter { !chosen.contains($0) }
            guard chosen.count + added.count <= slots else { return }
            chosen.formUnion(added)
        }
        for row in ordered where row.parent == nil { choose(row) }
        for row in ordered where row.state == .failed { choose(row) }
        for row in ordered where row.state == .running { choose(row) }
        let finished = ordered.compactMap { row -> (Row<ID>, Duration)? in
            if case .finished(let at) = row.state { (row, at) } else { nil }
        }
        for (row, _) in finished.sorted(by: { $0.1 > $1.1 }) { choose(row) }
        for row in ordered where row.state == .pending { choose(row) }
        var hidden = Hidden(pending: unlisted)
        for row in ordered where !chosen.contains(row.id) {
            switch row.state {
            case .running: hidden.running += 1
            case .failed, .finished: hidden.finished += 1
            case .pending: hidden.pending += 1
            }
        }
        return Layout(rows: ordered.filter { chosen.contains($0.id) }.map(\.id), hidden: hidden)
    }

    /// The rows in tree order: each row followed by its descendants, siblings in the given order.
    static func treeOrder<ID>(_ rows: [Row<ID>]) -> [Row<ID>] {
        let known = Set(rows.map(\.id))
        var children: [ID: [Row<ID>]] = [:]
        var roots: [Row<ID>] = []
        for row in rows {
            if let parent = row.parent, known.contains(parent) {
                children[parent, default: []].append(row)
            } else {
                roots.append(row)
            }
        }
        var ordered: [Row<ID>] = []
        ordered.reserveCapacity(rows.count)
        var stack = Array(roots.reversed())
        while let row = stack.popLast() {
            ordered.append(row)
            stack += (children[row.id] ?? []).reversed()
        }
        return ordered
    }

    /// "… 37 more running, 120 done, 3 pending".
    static func summary(_ hidden: Hidden) -> String {
        var parts: [String] = []
        if hidden.running > 0 { parts.append("\(hidden.running) more running") }
        if hidden.finished > 0 { parts.append("\(hidden.finished) done") }
        if hidden.pending > 0 { parts.append("\(hidden.pending) pending") }
        return "… " + (parts.isEmpty ? "more" : parts.joined(separator: ", "))
    }
}

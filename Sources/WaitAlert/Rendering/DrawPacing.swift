/// When a terminal region draws what changed: at once for what the user must see now (a
/// top-level alert's text, phase or ending, a log line, a printed line, a resize), and at most
/// once per interval for the changes of child rows and of progress, so that a thousand child
/// tasks ending together cost a draw or two, not a thousand layouts of the whole region. A pure
/// value, on explicit instants.
struct DrawPacing {
    /// The shortest time between two draws of child-row changes alone.
    let interval: Duration
    /// When the region last drew.
    private(set) var lastDraw: Duration?
    private var pending = Pending.none
    /// The last snapshot of each top-level alert, to tell a change of its own from a change of
    /// its progress (its child tasks' counts and progress roll up into it).
    private var topLevel: [WaitAlertID: WaitAlertSnapshot] = [:]

    private enum Pending: Equatable {
        case none
        /// Every change since the last draw can wait until `due`.
        case waiting(due: Duration)
        /// Something must be drawn at the next chance.
        case now
    }

    init(interval: Duration) {
        self.interval = interval
    }

    /// Records `snapshot` of `alert` at `instant`: a child row's change, or a top-level alert's
    /// change of progress alone (its own, its group's, the work waiting under it: what its child
    /// tasks change rolls up into it), can wait while a top-level alert runs (once none does, the
    /// program may be about to go on, or to exit: what is left shows at once).
    mutating func changed(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        guard snapshot.parent == nil else {
            return changed(at: instant, canWait: topLevel.values.contains { $0.outcome == nil })
        }
        let previous = topLevel[alert]
        topLevel[alert] = snapshot.phase == .gone ? nil : snapshot
        guard var previous else { return changed(at: instant, canWait: false) }
        previous.progress = snapshot.progress
        previous.groupProgress = snapshot.groupProgress
        previous.pendingWork = snapshot.pendingWork
        changed(at: instant, canWait: previous == snapshot)
    }

    /// Records a change at `instant`: one that must show at once (`canWait == false`), or one
    /// that may wait for the interval since the last draw to pass.
    mutating func changed(at instant: Duration, canWait: Bool) {
        switch pending {
        case .now:
            return
        case .waiting:
            if !canWait { pending = .now }
        case .none:
            if canWait, let lastDraw, instant < lastDraw + interval {
                pending = .waiting(due: lastDraw + interval)
            } else {
                pending = .now
            }
        }
    }

    /// Whether the changes recorded should be drawn at `instant`.
    func drawsNow(at instant: Duration) -> Bool {
        switch pending {
        case .none, .now: true
        case .waiting(let due): instant >= due
        }
    }

    /// When the changes held back are due, if any are.
    var due: Duration? {
        if case .waiting(let due) = pending { due } else { nil }
    }

    /// Records a draw at `instant`: nothing is pending any more.
    mutating func drew(at instant: Duration) {
        lastDraw = instant
        pending = .none
    }
}

/// A group's progress as its parts change: a pure state machine fed with the group's own
/// progress, its child tasks' parts and its planned steps, that makes the
/// ``WaitAlertGroupProgress`` of every renderer at explicit instants.
///
/// It keeps running sums (units in 128 bits, so no total a caller can pass overflows them): a
/// child task's change costs the same whatever the number of child tasks, and ``update(at:)``
/// costs the number of units in use.
///
/// The rules (see ``WaitAlertGroupProgress``): units when the size of all the work is known in
/// one unit, tasks otherwise; below 1 while anything runs or waits — the group's own work too —
/// and for good once a part, or the group, ended with its work undone; never back unless work
/// was added. A switch from tasks to units waits until counting units does not move the fraction
/// back.
struct GroupProgressTally: Sendable {
    /// One child task, as its group counts it.
    struct Part: Sendable, Hashable {
        /// Whether its work still runs.
        var isRunning: Bool
        /// Whether it ended with success: its whole total counts as done.
        var succeeded = false
        /// Whether it ended with its work undone (a failure, a cancellation, a timeout): it counts
        /// as far as it went, its remaining work stays in the total, and the group never reads as
        /// complete. (An ending that is neither — a skip, a dismissal — leaves nothing to do.)
        var undone = false
        /// Whether it holds the place of a planned step (it began under the step's title and has
        /// not shown yet): the step is not counted twice.
        var claimsPlannedStep = false
        /// Its units, when it reported progress. (Kept out of line: most parts of a large group
        /// report none.)
        @OutOfLineOptional var units: Units? = nil
        /// How far it has gone when it says so without a total of units (a group counting
        /// tasks); otherwise its units' fraction.
        var fraction: Double?
        /// The tasks it stands for: 1, or a group's.
        var tasks = 1
    }

    /// Units done, in all (when known), and what they count.
    typealias Units = ReportedProgress

    /// The group's own progress, if it reports any.
    var own: Units?
    /// The steps planned under the group that have not shown yet.
    var planned = 0
    /// The child tasks waiting for a slot under a concurrency limit.
    var waiting = 0
    /// Whether more child tasks may come than are counted: the size of the whole is not known.
    var hasUncountedTasks = false

    /// How the group's own work stands: running, or how it ended.
    enum OwnWork: Sendable, Hashable {
        case running
        /// It ended with nothing left to do.
        case done
        /// It ended with its work undone (a failure, a cancellation, a timeout).
        case undone

        /// How the work of an alert that has `outcome` (`nil`: none yet) stands.
        init(_ outcome: WaitAlertOutcome?) {
            self = outcome.map { $0.leavesWorkUndone ? .undone : .done } ?? .running
        }
    }

    private var parts: [WaitAlertID: Part] = [:]
    /// Parts that ended and whose child tasks are gone: still in the sums, no longer kept, so a
    /// group of a million tasks keeps only those alive.
    private var retired = 0
    /// The last total each part reported, kept while it reports none.
    private var knownTotals: [WaitAlertID: Int] = [:]
    private var sums = Sums()
    /// Whether a part's total grew since the last update.
    private var workAdded = false
    /// What the last update made, and what it was made from.
    private var latest: Latest?
    private var unitsEstimator = WaitAlertRateEstimator()
    private var fractionEstimator = WaitAlertRateEstimator()

    private struct Latest: Sendable {
        var progress: WaitAlertGroupProgress
        var unitsTotal: Int128?
        var ownTotal: Int?
        var unit: WaitAlertProgressUnit?
        var unitsDone: Int128?
        /// What the work still running can reach — the whole, less what parts left undone — for
        /// the time left: in units, and as a fraction.
        var reachableUnits: Int128?
        var reachableFraction = 1.0
    }

    /// The running sums over the parts.
    private struct Sums: Sendable {
        var finished = 0
        /// Parts that ended with their work undone, and the part of a task each left undone, in
        /// millionths.
        var undone = 0
        var undoneMillionths = 0
        var runningUnsized = 0
        var claims = 0
        var withProgress = 0
        /// Each part's fraction in millionths (a finished part is whole).
        var millionths = 0
        var units: [WaitAlertProgressUnit: UnitSum] = [:]
    }

    private struct UnitSum: Sendable {
        var parts = 0
        var completed: Int128 = 0
        var total: Int128 = 0
        /// The units parts left undone: in the total, never to be done.
        var undone: Int128 = 0
    }

    /// Sets the part of the child task `id`; returns whether anything the group counts changed.
    /// A total larger than the last one the part reported, or more tasks under it, is work added;
    /// a first total is not (the size of work already counted becomes known).
    @discardableResult
    mutating func set(_ id: WaitAlertID, _ part: Part) -> Bool {
        let old = parts.updateValue(part, forKey: id)
        guard old != part else { return false }
        if let old {
            add(old, -1)
            if part.tasks > old.tasks { workAdded = true }
        }
        if let total = part.units?.total {
            if let known = knownTotals[id], total > known { workAdded = true }
            knownTotals[id] = total
        }
        add(part, 1)
        return true
    }

    /// The child task `id` is gone: its part, if it ended, stays in the sums and is no longer kept
    /// (nothing it counts can change any more).
    mutating func retire(_ id: WaitAlertID) {
        guard let part = parts[id], !part.isRunning else { return }
        parts[id] = nil
        knownTotals[id] = nil
        retired += 1
    }

    private mutating func add(_ part: Part, _ sign: Int) {
        if !part.isRunning { sums.finished += sign }
        if !part.isRunning, part.undone {
            sums.undone += sign
            sums.undoneMillionths += sign * (1_000_000 - Self.millionths(of: part))
        }
        if part.claimsPlannedStep { sums.claims += sign }
        if part.units != nil || part.fraction != nil { sums.withProgress += sign }
        if part.isRunning, part.units?.total == nil { sums.runningUnsized += sign }
        sums.millionths += sign * Self.millionths(of: part)
        guard let units = part.units else { return }
        let done = Int128(units.completed)
        let whole = Int128(units.total ?? units.completed)
        // A success (with a warning or information too) did all its work; a failure, a
        // cancellation or a timeout left the rest undone, still to do; a skip or a dismissal left
        // nothing to do.
        let (completed, total) =
            part.isRunning || part.undone ? (done, whole) : part.succeeded ? (whole, whole) : (done, done)
        var sum = sums.units[units.unit] ?? UnitSum()
        sum.parts += sign
        sum.completed += Int128(sign) * completed
        sum.total += Int128(sign) * total
        if !part.isRunning, part.undone { sum.undone += Int128(sign) * (whole - done) }
        sums.units[units.unit] = sum.parts == 0 ? nil : sum
    }

    /// A part's share of one task, in millionths: as far as it went while it runs and once it
    /// ended with its work undone, whole once it ended otherwise.
    private static func millionths(of part: Part) -> Int {
        guard part.isRunning || part.undone else { return 1_000_000 }
        let fraction =
            part.fraction ?? part.units.flatMap { units in
                units.total.map { Double(units.completed) / Double($0) }
            } ?? 0
        return Int((min(max(fraction, 0), 1) * 1_000_000).rounded(.down))
    }

    /// Whether the group shows progress: it has child tasks or planned steps, and something in it
    /// reports progress.
    var isDeterminate: Bool { latest != nil }

    /// Makes the group's progress from the parts as they are at `now`, the group's own work
    /// standing as `ownWork` says.
    mutating func update(at now: Duration, ownWork: OwnWork = .running) {
        defer { workAdded = false }
        let pending = max(planned - sums.claims, 0) + max(waiting, 0)
        let tasks = parts.count + retired + pending
        guard tasks > 0, own != nil || sums.withProgress > 0 else {
            latest = nil
            return
        }
        let unit = sharedUnit()
        let sum = unit.flatMap { sums.units[$0] } ?? UnitSum()
        let ownDone = Int128(own?.completed ?? 0)
        var unitsDone = ownDone + sum.completed
        var unitsTotal: Int128?
        var shownUnit = unit
        if unit != nil {
            if let declared = own?.total {
                unitsTotal = max(Int128(declared), ownDone + sum.total)
            } else if own == nil, sums.runningUnsized == 0, pending == 0, !hasUncountedTasks, sum.total > 0 {
                // (The group's own count without a total leaves the size of the whole unknown.)
                unitsTotal = sum.total
            }
        } else if let own, let declared = own.total {
            // Child tasks in other units cannot count toward the alert's own total.
            (unitsDone, unitsTotal, shownUnit) = (ownDone, Int128(declared), own.unit)
        }
        let running = parts.count + retired - sums.finished
        let added =
            workAdded || tasks > (latest?.progress.tasks ?? 0)
            || latest?.unitsTotal.map { (unitsTotal ?? 0) > $0 } == true || (own?.total ?? 0) > (latest?.ownTotal ?? 0)
        let floor = added ? nil : latest?.progress.fraction
        let byTasks = Double(sums.millionths) / 1_000_000 / Double(tasks)
        let byUnits = unitsTotal.map { Self.fraction(unitsDone, of: $0) }
        var basis = byUnits == nil ? WaitAlertGroupProgress.Basis.tasks : .units
        if basis == .units, latest?.progress.basis == .tasks, let floor, let byUnits, byUnits < floor {
            basis = .tasks  // counting units would move the bar back: not yet
        }
        var fraction = basis == .units ? byUnits ?? 0 : byTasks
        if let floor { fraction = max(fraction, floor) }
        if running > 0 || pending > 0 || hasUncountedTasks || ownWork != .done || sums.undone > 0 {
            fraction = min(fraction, 1.0.nextDown)  // work runs, waits, may come, or was left undone
        }
        fraction = min(max(fraction, 0), 1)

        if shownUnit != latest?.unit { unitsEstimator = WaitAlertRateEstimator() }
        if shownUnit != nil, unitsDone != latest?.unitsDone || latest?.unit != shownUnit {
            unitsEstimator.record(completed: Double(unitsDone), at: now)
        }
        if fraction != latest?.progress.fraction { fractionEstimator.record(completed: fraction, at: now) }
        let units = shownUnit.map { unit in
            WaitAlertProgress(
                completed: Self.clamped(unitsDone), total: basis == .units ? unitsTotal.map(Self.clamped) : nil,
                unit: unit)
        }
        let progress = WaitAlertGroupProgress(
            basis: basis, fraction: fraction, units: units, tasks: tasks, finishedTasks: sums.finished,
            pendingTasks: pending, hasUncountedTasks: hasUncountedTasks)
        latest = Latest(
            progress: progress, unitsTotal: basis == .units ? unitsTotal : nil, ownTotal: own?.total,
            unit: shownUnit, unitsDone: shownUnit == nil ? nil : unitsDone,
            reachableUnits: unitsTotal.map { $0 - sum.undone },
            reachableFraction: 1 - Double(sums.undoneMillionths) / 1_000_000 / Double(tasks))
    }

    /// The unit every part with units and the group's own progress share, if they share one.
    private func sharedUnit() -> WaitAlertProgressUnit? {
        var unit = own?.unit
        for candidate in sums.units.keys {
            guard unit == nil || unit == candidate else { return nil }
            unit = candidate
        }
        return unit
    }

    /// The group's progress as of the last update, with its rate and time left at `now`; without
    /// them once the group has `ended`.
    func progress(at now: Duration, ended: Bool) -> WaitAlertGroupProgress? {
        guard var progress = latest?.progress else { return nil }
        guard !ended, progress.fraction < 1 else { return progress }
        // The time left is the time to what the work still running can reach: work a failed task
        // left undone stays in the whole, but nobody is doing it.
        if progress.units != nil {
            let reachable = progress.units?.total == nil ? nil : latest?.reachableUnits.map(Double.init)
            let byUnits = unitsEstimator.estimate(total: reachable, at: now)
            progress.units?.rate = byUnits.rate
            if progress.basis == .units {
                progress.units?.remaining = byUnits.remaining
                progress.remaining = byUnits.remaining
            }
        }
        if progress.basis == .tasks {
            progress.remaining = fractionEstimator.estimate(total: latest?.reachableFraction ?? 1, at: now).remaining
        }
        return progress
    }

    /// When the group's progress would next say `stalled`, if nothing moves before.
    var stallsAt: Duration? {
        guard let latest else { return nil }
        return latest.progress.basis == .units ? unitsEstimator.stallsAt : fractionEstimator.stallsAt
    }

    private static func fraction(_ done: Int128, of total: Int128) -> Double {
        guard total > 0 else { return 0 }
        return min(max(Double(done) / Double(total), 0), 1)
    }

    private static func clamped(_ value: Int128) -> Int {
        Int(min(max(value, 0), Int128(Int.max)))
    }
}

extension GroupProgressTally.Part {
    /// The part of a child task that looks like `snapshot`: its group's progress if it is a group
    /// that shows one, else its own.
    init(of snapshot: WaitAlertSnapshot, claimsPlannedStep: Bool) {
        isRunning = snapshot.outcome == nil
        switch snapshot.outcome {
        case .success, .warning, .info: succeeded = true  // the work was done, with a word to say
        default: undone = snapshot.outcome?.leavesWorkUndone ?? false
        }
        self.claimsPlannedStep = claimsPlannedStep
        if let group = snapshot.groupProgress {
            units = group.units.map { units in
                GroupProgressTally.Units(
                    completed: units.completed, total: group.basis == .units ? units.total : nil, unit: units.unit
                ).normalized
            }
            fraction = group.fraction
            tasks = max(group.tasks, 1)
        } else if let progress = snapshot.progress {
            units =
                GroupProgressTally.Units(
                    completed: progress.completed, total: progress.total, unit: progress.unit
                ).normalized
        }
    }
}

extension WaitAlertOutcome {
    /// Whether an alert that ended so left some of its work undone: a failure, a cancellation or
    /// a timeout. (A success, a warning or information did it all; a skip or a dismissal left
    /// nothing to do.)
    var leavesWorkUndone: Bool {
        switch self {
        case .failure, .cancelled, .timedOut: true
        case .success, .warning, .info, .skipped, .dismissed: false
        }
    }
}

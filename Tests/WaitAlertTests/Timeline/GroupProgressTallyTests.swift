import Testing

@testable import WaitAlert

/// A group's progress as a pure computation: units when the size of all the work is known in one
/// unit, tasks otherwise; below 1 while anything runs or waits, the group's own work too, and once
/// work was left undone; never back unless work is added; combined with a total the group
/// declared.
@Suite("Group progress")
struct GroupProgressTallyTests {
    typealias Tally = GroupProgressTally
    typealias Part = GroupProgressTally.Part

    static func running(_ completed: Int, of total: Int?, _ unit: WaitAlertProgressUnit = .bytes) -> Part {
        Part(isRunning: true, units: .init(completed: completed, total: total, unit: unit))
    }

    /// A part that ended: with success, with its work `undone` (a failure), or neither (a skip).
    static func ended(
        _ completed: Int, of total: Int?, succeeded: Bool = true, undone: Bool = false,
        _ unit: WaitAlertProgressUnit = .bytes
    ) -> Part {
        Part(
            isRunning: false, succeeded: succeeded, undone: undone,
            units: .init(completed: completed, total: total, unit: unit))
    }

    /// A tally of `parts` (in order, each a new child task) and `planned` steps, updated at `at`
    /// with the group's own work standing as `ownWork` says.
    static func tally(
        _ parts: [Part], planned: Int = 0, own: Tally.Units? = nil, at: Duration = .seconds(1),
        ownWork: Tally.OwnWork = .running
    ) -> (Tally, [WaitAlertID]) {
        var tally = Tally()
        let ids = parts.map { _ in WaitAlertID.next() }
        for (id, part) in zip(ids, parts) { tally.set(id, part) }
        tally.planned = planned
        tally.own = own
        tally.update(at: at, ownWork: ownWork)
        return (tally, ids)
    }

    static func progress(_ tally: Tally, at: Duration = .seconds(1)) throws -> WaitAlertGroupProgress {
        try #require(tally.progress(at: at, ended: false))
    }

    /// 58 downloads done, 42 waiting their turn: 58 %, never the 100 % of the rows begun.
    @Test func tasksWaitingTheirTurnCountAsTasksNotDone() throws {
        let done = (0..<58).map { _ in Self.ended(3_600_000, of: 3_600_000) }
        let group = try Self.progress(Self.tally(done, planned: 42).0)
        #expect(group.basis == .tasks)
        #expect(abs(group.fraction - 0.58) < 1e-9, "\(group.fraction)")
        #expect(group.units == WaitAlertProgress(completed: 208_800_000, total: nil, unit: .bytes))
        #expect((group.tasks, group.finishedTasks, group.pendingTasks, group.runningTasks) == (100, 58, 42, 0))
        #expect(ProgressText.summary(ProgressText.figures(group)) == "58% (58/100 tasks, 208.8 MB)")
    }

    /// Tasks waiting for a slot count as planned steps do; tasks that may come beyond those
    /// counted leave the size of the whole unknown: the counts, no percentage, no time left.
    @Test func tasksOfAGroupOfUnknownSizeAreCountedAlone() throws {
        var (tally, _) = Self.tally([Self.ended(10, of: 10), Self.running(5, of: 10)])
        tally.waiting = 6
        tally.update(at: .seconds(2))
        let counted = try Self.progress(tally, at: .seconds(2))
        #expect((counted.tasks, counted.pendingTasks, counted.basis) == (8, 6, .tasks), "\(counted)")
        #expect(ProgressText.summary(ProgressText.figures(counted)) == "18% (1/8 tasks, 15 B)")
        tally.hasUncountedTasks = true
        tally.update(at: .seconds(3))
        let unsized = try Self.progress(tally, at: .seconds(3))
        #expect(unsized.hasUncountedTasks && unsized.tasks == 8 && unsized.fraction < 1)
        #expect(ProgressText.summary(ProgressText.figures(unsized)) == "1/8+ tasks, 15 B")
    }

    /// A part whose child task is gone is no longer kept, and still counted.
    @Test func partsOfTasksGoneStayCounted() throws {
        var (tally, ids) = Self.tally([Self.ended(10, of: 10), Self.ended(10, of: 10), Self.running(5, of: 10)])
        ids.forEach { tally.retire($0) }
        tally.update(at: .seconds(2))
        let group = try Self.progress(tally, at: .seconds(2))
        #expect((group.tasks, group.finishedTasks, group.runningTasks) == (3, 2, 1), "\(group)")
        #expect(group.units == WaitAlertProgress(completed: 25, total: 30, unit: .bytes), "\(group)")
        tally.set(ids[2], Self.ended(10, of: 10))
        tally.update(at: .seconds(3))
        let done = try #require(tally.progress(at: .seconds(3), ended: true))
        #expect((done.tasks, done.finishedTasks, done.units?.completed) == (3, 3, 30), "the running part stayed")
    }

    @Test func everySizeKnownInOneUnitCountsUnits() throws {
        let parts = [Self.running(40, of: 100), Self.running(10, of: 50), Self.running(0, of: 10)]
        let group = try Self.progress(Self.tally(parts).0)
        #expect(group.basis == .units && group.fraction == 50.0 / 160)
        #expect(group.units == WaitAlertProgress(completed: 50, total: 160, unit: .bytes))
        #expect(group.runningTasks == 3)
    }

    @Test func aRowWithoutATotalCountsAsATaskNotDoneYet() throws {
        let group = try Self.progress(Self.tally([Self.running(50, of: 100), Self.running(30, of: nil)]).0)
        #expect(group.basis == .tasks && group.fraction == 0.25)
        #expect(group.units == WaitAlertProgress(completed: 80, total: nil, unit: .bytes), "the units done so far")
        let unsized = try Self.progress(Self.tally([Self.running(50, of: 100), Part(isRunning: true)]).0)
        #expect(unsized.basis == .tasks && unsized.fraction == 0.25, "a row that reported nothing yet")
    }

    @Test func differentUnitsCountTasks() throws {
        let group = try Self.progress(
            Self.tally([Self.running(1, of: 2, .named("files")), Self.running(25, of: 100)]).0)
        #expect(group.basis == .tasks && group.fraction == 0.375 && group.units == nil)
    }

    /// A success did all its work; a failure left its remaining work undone, which stays in the
    /// whole; a skip left nothing to do; a task that ended without progress is done and weighs
    /// nothing in units.
    @Test func finishedRows() throws {
        let parts = [
            Self.ended(5, of: 10), Self.ended(5, of: 10, succeeded: false, undone: true),
            Self.ended(5, of: 10, succeeded: false), Self.running(0, of: 10), Part(isRunning: false),
        ]
        let group = try Self.progress(Self.tally(parts).0)
        #expect(group.basis == .units && group.units?.completed == 20 && group.units?.total == 35)
        #expect(group.finishedTasks == 4)
    }

    /// Counting tasks, a failed task counts as far as it went, a skipped one whole; a group with
    /// a failed task never reaches 1, even once everything ended.
    @Test func aFailedTaskKeepsTheGroupShortOfWhole() throws {
        let failed = Part(isRunning: false, undone: true, fraction: 0.5)
        let skipped = Part(isRunning: false)
        let succeeded = Part(isRunning: false, succeeded: true, fraction: 1)
        let group = try Self.progress(Self.tally([succeeded, failed, skipped], ownWork: .done).0)
        #expect(group.basis == .tasks && group.fraction == 2.5 / 3 && group.finishedTasks == 3)
        let whole = try Self.progress(Self.tally([succeeded, skipped], ownWork: .done).0)
        #expect(whole.fraction == 1)
        let undoneOwn = try Self.progress(Self.tally([succeeded, skipped], ownWork: .undone).0)
        #expect(undoneOwn.fraction < 1, "the group's own work failed")
    }

    @Test func neverFullWhileATaskRunsOrWaits() throws {
        let (running, ids) = Self.tally([Self.running(10, of: 10), Self.ended(10, of: 10)])
        #expect(try Self.progress(running).fraction < 1)
        #expect(ProgressText.percent(ProgressText.figures(try Self.progress(running))) == "99%")
        var tally = running
        tally.set(ids[0], Self.ended(10, of: 10))
        tally.update(at: .seconds(2))
        #expect(try Self.progress(tally, at: .seconds(2)).fraction < 1, "the group's own work runs")
        tally.update(at: .seconds(2), ownWork: .done)
        #expect(try Self.progress(tally, at: .seconds(2)).fraction == 1)
        tally.planned = 1
        tally.update(at: .seconds(3), ownWork: .done)
        #expect(try Self.progress(tally, at: .seconds(3)).fraction < 1, "a planned step waits")
    }

    /// A step that begins in place of a planned one adds no work; counting units once every size
    /// is known waits until it does not move the fraction back; a task that starts over does not
    /// move it back either; a new task may.
    @Test func neverBackUnlessWorkIsAdded() throws {
        var (tally, ids) = Self.tally([Self.ended(10, of: 10), Self.running(5, of: 100)], planned: 1)
        var shown = try Self.progress(tally).fraction
        #expect(abs(shown - 1.05 / 3) < 1e-6)
        let third = WaitAlertID.next()
        var steps: [(WaitAlertID, Part)] = [(third, Self.running(0, of: 1000))]
        steps += (1...10).map { (ids[1], Self.running(10 * $0, of: 100)) }
        steps += (1...9).map { (third, Self.running(100 * $0, of: 1000)) }
        steps += [(ids[1], Self.ended(100, of: 100)), (third, Self.running(1000, of: 1000))]
        var bases: [WaitAlertGroupProgress.Basis] = []
        for (index, (id, part)) in steps.enumerated() {
            tally.set(id, part)
            if id == third, index == 0 { tally.planned = 0 }
            tally.update(at: .seconds(2 + index))
            let group = try Self.progress(tally, at: .seconds(2 + index))
            #expect(group.fraction >= shown, "step \(index): \(group.fraction) after \(shown)")
            #expect(group.tasks == 3)
            shown = group.fraction
            bases.append(group.basis)
        }
        #expect(bases.first == .tasks, "every size is known, but units would move the bar back")
        #expect(bases.last == .units, "once units caught up: \(bases)")
        tally.set(ids[1], Self.running(0, of: 100))  // starts over
        tally.update(at: .seconds(40))
        #expect(try Self.progress(tally, at: .seconds(40)).fraction >= shown)
        tally.set(WaitAlertID.next(), Self.running(0, of: 5000))
        tally.update(at: .seconds(41))
        let added = try Self.progress(tally, at: .seconds(41))
        #expect(added.fraction < shown && added.tasks == 4, "work was added")
    }

    /// A total the group declared is the whole: its child tasks' units count toward it, tasks
    /// waiting their turn included; child tasks in another unit cannot, and its own count shows.
    @Test func aDeclaredTotalCombinesWithTheChildTasks() throws {
        let parts = (0..<8).map { _ in Self.running(3, of: 6, .count) }
        let own = Tally.Units(completed: 0, total: 600, unit: .count)
        let group = try Self.progress(Self.tally(parts, planned: 92, own: own).0)
        #expect(group.basis == .units && group.units?.completed == 24 && group.units?.total == 600)
        #expect(group.fraction == 0.04)
        let grown = try Self.progress(Self.tally(parts, own: Tally.Units(completed: 10, total: 20, unit: .count)).0)
        #expect(grown.units?.completed == 34 && grown.units?.total == 58, "a declared total grows to what is known")
        let other = Tally.Units(completed: 150, total: 600, unit: .named("files"))
        let byOwn = try Self.progress(Self.tally([Self.running(5, of: 10)], own: other).0)
        #expect(byOwn.basis == .units && byOwn.fraction == 0.25)
        #expect(byOwn.units == WaitAlertProgress(completed: 150, total: 600, unit: .named("files")))
    }

    @Test func nothingToShowWithoutProgressOrWithoutChildTasks() {
        #expect(
            Self.tally([Part(isRunning: true), Part(isRunning: false)], planned: 3).0.progress(
                at: .seconds(1), ended: false) == nil)
        #expect(
            Self.tally([], own: .init(completed: 1, total: 2, unit: .count)).0.progress(at: .seconds(1), ended: false)
                == nil)
    }

    /// Totals no sum of `Int` can hold: the count saturates, the fraction stays right.
    @Test func extremeTotalsDoNotOverflow() throws {
        let group = try Self.progress(Self.tally([Self.running(.max, of: .max), Self.running(1, of: 1)]).0)
        #expect(group.units?.total == .max && group.units?.completed == .max)
        #expect(group.fraction < 1 && group.fraction > 0.99)
        let ended = try Self.progress(
            Self.tally([Self.ended(.max, of: .max), Self.ended(.max, of: .max)], ownWork: .done).0)
        #expect(ended.fraction == 1)
    }

    /// The group's rate and time left come from the units it counts; in tasks, from its fraction.
    @Test func rateAndTimeLeft() throws {
        var (tally, ids) = Self.tally([Self.running(0, of: 1000), Self.running(0, of: 1000)], at: .zero)
        for second in 1...5 {
            tally.set(ids[0], Self.running(second * 50, of: 1000))
            tally.set(ids[1], Self.running(second * 50, of: 1000))
            tally.update(at: .seconds(second))
        }
        let group = try Self.progress(tally, at: .seconds(5))
        #expect(group.units?.rate == 100)
        #expect(group.remaining == .about(.seconds(15)) && group.units?.remaining == group.remaining)
        #expect(tally.progress(at: .seconds(5), ended: true)?.remaining == .unknown, "not once ended")
    }
}

extension GroupProgressTallyTests {
    /// A child that ended with a warning or information did its work, as a success did; a failure
    /// or a cancellation left the rest undone.
    @Test(arguments: [
        (WaitAlertOutcome.success(nil), true), (.warning("3 warnings"), true), (.info("nothing to do"), true),
        (.failure("broken"), false), (.cancelled, false), (.timedOut, false), (.skipped(nil), false),
        (.dismissed, false),
    ])
    func anEndingSaysWhetherTheWorkWasDone(_ outcome: WaitAlertOutcome, done: Bool) {
        let snapshot = WaitAlertSnapshot(
            phase: .lingering, text: "Upload", outcome: outcome, progress: WaitAlertProgress(completed: 50, total: 100))
        let part = Part(of: snapshot, claimsPlannedStep: false)
        #expect(part.succeeded == done)
        #expect(part.undone == [.failure("broken"), .cancelled, .timedOut].contains(outcome), "work left to do")
    }
}

/// What waits its turn under an alert, as its snapshot carries it: the steps planned that have not
/// shown yet — the first of them by title, all of them counted — and the child tasks waiting for
/// a slot under a concurrency limit, counted (their titles are made when they start), and
/// whether more may come than are counted (a group over a sequence whose end is not reached yet).
///
/// Its size does not grow with the work waiting: ten thousand planned steps are
/// ``WaitAlertSnapshot/listedPlannedSteps`` titles and a count.
struct PendingWork: Hashable, Sendable {
    /// The titles of the first planned steps, in order.
    var listedSteps: [String] = []
    /// The planned steps, listed or not.
    var plannedSteps = 0
    /// The child tasks waiting for a slot.
    var waitingTasks = 0
    /// Whether more child tasks may come than are counted.
    var hasUncountedTasks = false

    /// Everything counted as waiting: planned steps and waiting tasks.
    var count: Int { max(plannedSteps, listedSteps.count) + max(waitingTasks, 0) }

    /// What is counted and not listed by title.
    var unlisted: Int { count - listedSteps.count }

    var isEmpty: Bool { self == PendingWork() }

    /// Planned steps alone, every one listed by title.
    static func titled(_ steps: [String]) -> PendingWork {
        PendingWork(listedSteps: steps, plannedSteps: steps.count)
    }
}

/// How far a group — an alert with child tasks — has gone: its own work and its child tasks'
/// together, as every renderer shows it in the group's header.
///
/// A group counts in the units of its work (bytes, files) when it knows the size of all of it in
/// one unit: every child task has reported a total in that unit and no planned step waits its
/// turn — or the alert itself declared the whole with
/// ``WaitAlertReporter/progress(completed:total:unit:)``, and its child tasks' units count
/// toward it. (An alert that reports a count of its own without a total leaves the whole
/// unknown.) Otherwise it counts tasks: each child task is one, as far as its own bar while it
/// runs, nothing while it waits its turn or runs without a total, whole once it has ended with
/// its work done (a success, a warning, information) or with nothing left to do (a skip).
///
/// A child task that failed, was cancelled or timed out counts as far as it went: the work it
/// left undone stays in the whole. So the fraction of a run that did not do all its work never
/// reaches 1. It is below 1 while the alert's own work or any child task runs or waits its turn,
/// and never goes back unless work is added: a child task begins, a step is planned, or a total
/// grows.
///
/// ```swift
/// if let group = snapshot.groupProgress {
///     ProgressView(value: group.fraction)
///     Text("\(group.finishedTasks) of \(group.tasks) done")
/// }
/// ```
public struct WaitAlertGroupProgress: Sendable, Hashable {
    /// What a group's fraction counts.
    public enum Basis: Sendable, Hashable {
        /// The units of the group's work: ``WaitAlertGroupProgress/units`` has the total.
        case units
        /// Child tasks, each one whole; ``WaitAlertGroupProgress/units``, if any, has the units
        /// done so far but no total.
        case tasks
    }

    /// What ``fraction`` counts.
    public var basis: Basis
    /// The part done, 0 … 1: below 1 while the alert's work or a child task runs or waits its
    /// turn, and once any of them ended with its work undone.
    public var fraction: Double
    /// The units done — and in all, on a ``Basis/units`` basis — with their rate, when the group's
    /// work counts in one unit; `nil` when its child tasks count in different units, or in none.
    public var units: WaitAlertProgress?
    /// The time left for the whole group: to what the work still running can reach (work a
    /// child task left undone is not counted in it).
    public var remaining: WaitAlertRateEstimator.Remaining
    /// Child tasks in all: those begun and those waiting their turn (planned steps, tasks waiting
    /// for a slot under a concurrency limit); with ``hasUncountedTasks``, those counted so far.
    public var tasks: Int
    /// Child tasks that have ended, whatever their outcome.
    public var finishedTasks: Int
    /// Planned steps waiting their turn (tasks waiting under a concurrency limit among them).
    public var pendingTasks: Int
    /// Whether more child tasks may come than ``tasks`` counts: a group over a sequence whose
    /// end is not reached yet. Counting tasks, its ``fraction`` is then only of the tasks known,
    /// and a renderer shows the counts alone.
    public var hasUncountedTasks: Bool

    /// Child tasks begun and not ended yet.
    public var runningTasks: Int { max(tasks - finishedTasks - pendingTasks, 0) }

    /// Makes a group's progress (for renderers' tests and previews).
    public init(
        basis: Basis, fraction: Double, units: WaitAlertProgress? = nil,
        remaining: WaitAlertRateEstimator.Remaining = .unknown, tasks: Int, finishedTasks: Int = 0,
        pendingTasks: Int = 0, hasUncountedTasks: Bool = false
    ) {
        self.basis = basis
        self.fraction = fraction
        self.units = units
        self.remaining = remaining
        self.tasks = tasks
        self.finishedTasks = finishedTasks
        self.pendingTasks = pendingTasks
        self.hasUncountedTasks = hasUncountedTasks
    }
}

/// How far work has gone, as its reporter says: a count, a total when known, and what they count.
/// The one value the progress path carries, from the reporter's mailbox through the timeline and
/// a group's tally to the snapshot (``WaitAlertProgress``, its public form, adds the rate and time
/// left).
@usableFromInline
struct ReportedProgress: Sendable, Hashable {
    @usableFromInline var completed: Int
    @usableFromInline var total: Int?
    @usableFromInline var unit: WaitAlertProgressUnit

    /// Progress as reported, unchecked (a mailbox adds to it; ``normalized`` makes it sensible).
    @usableFromInline
    init(completed: Int, total: Int?, unit: WaitAlertProgressUnit) {
        self.completed = completed
        self.total = total
        self.unit = unit
    }

    /// Made sensible: a count below zero is zero, a total of zero or less is unknown, and a total
    /// below the count grows to it (the work did at least that much).
    var normalized: ReportedProgress {
        let completed = max(completed, 0)
        return ReportedProgress(
            completed: completed, total: total.flatMap { $0 > 0 ? max($0, completed) : nil }, unit: unit)
    }
}

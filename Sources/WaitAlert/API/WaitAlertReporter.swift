/// Reports progress to a running wait alert, from any task or thread, at any rate.
///
/// A reporter is a cheap `Sendable` value: copy it into child tasks freely. Calls take effect in
/// the order they were made. Texts are coalesced — the latest wins and each shown text stays
/// readable — while log lines are printed above the alert, every one, in order. Calls made after
/// the work has ended are ignored.
///
/// ```swift
/// try await withWaitAlert("Importing…") { alert in
///     for file in files {
///         alert.update("Importing \(file.name)…")
///         try await importFile(file)
///         alert.log("imported \(file.name)")
///     }
/// }
/// ```
public struct WaitAlertReporter: Sendable {
    @usableFromInline let mailbox: ReportMailbox
    /// The alert this reporter reports to, and where it shows: the parent of its child tasks.
    let parent: AlertParent?

    /// Replaces the alert's text. Bursts are coalesced: the latest text wins.
    @inlinable
    public func update(_ text: String) {
        mailbox.update(text)
    }

    /// Says how far the work has gone: `completed` of `total` units (`nil` when the total is not
    /// known yet), counted in `unit` (the last unit given when `nil`; a plain count at first).
    /// As cheap as ``update(_:)``; the alert shows a bar, the count, the rate and the time left.
    ///
    /// Any value is safe: a count below zero shows as zero, a total of zero or less as unknown,
    /// and a total below the count grows to it.
    ///
    /// ```swift
    /// try await withWaitAlert("Downloading") { alert in
    ///     alert.progress(completed: 0, total: size, unit: .bytes)
    ///     for try await chunk in chunks {
    ///         alert.advance(by: chunk.count)
    ///     }
    /// }
    /// ```
    @inlinable
    public func progress(completed: Int, total: Int?, unit: WaitAlertProgressUnit? = nil) {
        mailbox.progress(completed: completed, total: total, unit: unit)
    }

    /// Adds `units` to the count done, and `totalBy` to the total (work that finds more to do as
    /// it goes). Both hold at `Int.max` (or `Int.min`) instead of wrapping around.
    ///
    /// Cheap in a hot loop, from any number of threads: a count alone (`totalBy` zero) costs a
    /// couple of nanoseconds, kept by the calling thread and added to the alert when its display
    /// can use it (once a frame) and when it ends, so the count it ends with is exact.
    @inlinable
    public func advance(by units: Int = 1, totalBy: Int = 0) {
        mailbox.advance(by: units, growingTotalBy: totalBy)
    }

    /// Stops showing progress: the alert spins without a bar until progress is reported again.
    public func progressUnknown() {
        mailbox.indeterminate()
    }

    /// Marks the work as failing while it goes on — a test failed and the run continues — or, with
    /// `false`, no longer (``WaitAlertSnapshot/isFailing``). A terminal row says `· failing` and
    /// the terminal's taskbar progress shows its error state; plain lines say `Testing: failing`;
    /// the event stream carries a `failing` event. The alert's outcome is still what the work
    /// returns or throws; once it has one, the mark is gone.
    ///
    /// ```swift
    /// try await withWaitAlert("Testing") { tests in
    ///     for (index, test) in suite.enumerated() {
    ///         if try await !test.run() { tests.markFailing() }
    ///         tests.progress(completed: index + 1, total: suite.count)
    ///     }
    /// }
    /// ```
    public func markFailing(_ failing: Bool = true) {
        mailbox.failing(failing)
    }

    /// Prints `line` above the alert. Never coalesced, dropped or reordered.
    ///
    /// A log line goes where the alerts are drawn: with the default presenter, to standard error —
    /// above the alerts on a terminal, as a plain line when standard error is a pipe or a file —
    /// so it stays apart from the program's results on standard output. The last log lines of a
    /// child task that failed are printed again when its group ends. To print a result, use
    /// ``WaitAlertPresenter/print(_:to:)``.
    ///
    /// Lines wait in memory until the main actor prints them. When more than
    /// ``logBacklogLimit`` bytes are waiting — the terminal or pipe cannot keep up — `log` waits
    /// for them to be taken, as a write to a full pipe does; on the main actor, which cannot wait
    /// for itself, it prints them on the spot.
    @inlinable
    public func log(_ line: String) {
        mailbox.log(line)
    }

    /// Ends the alert as skipped instead of done when the work returns: `↷ Testing: skipped (no
    /// test target)`. The work still returns its value (or throws: a failure wins over a skip).
    ///
    /// ```swift
    /// try await build.step("Testing") { step in
    ///     guard hasTests else { return step.skip("no test target") }
    ///     try await runTests()
    /// }
    /// ```
    public func skip(_ reason: String? = nil) {
        mailbox.endInstead(.skipped(reason))
    }

    /// Ends the alert with a warning instead of done when the work returns: `⚠ Migrated with 3
    /// warnings (4.5s)`. The work still returns its value (or throws: a failure wins).
    ///
    /// ```swift
    /// try await withWaitAlert("Migrating…") { alert in
    ///     let warnings = try await migrate()
    ///     if warnings > 0 { alert.warn("Migrated with \(warnings) warnings") }
    /// }
    /// ```
    public func warn(_ text: String) {
        mailbox.endInstead(.warning(text))
    }

    /// Ends the alert with information instead of done when the work returns: `ℹ Nothing to do`.
    /// The work still returns its value (or throws: a failure wins).
    public func inform(_ text: String) {
        mailbox.endInstead(.info(text))
    }

    /// The most bytes of log lines (each counted with 64 bytes of overhead) that wait for the main
    /// actor before ``log(_:)`` waits too: 2 MiB. A flood of log lines never holds more than about
    /// twice this much: the lines waiting, and the lines being printed.
    public static let logBacklogLimit = ReportMailbox.logBacklogLimit
}

/// An alert and its presenter, where child tasks of the alert show.
struct AlertParent: Sendable {
    let presenter: WaitAlertPresenter
    let session: AlertSession

    @MainActor
    func plan(_ steps: [String]) { presenter.plan(steps, under: session) }

    @MainActor
    func skipStep(_ title: String, reason: String?) { presenter.skipStep(title, reason: reason, under: session) }

    /// Counts `change` more child tasks waiting for a slot (fewer, when negative), and `uncounted`
    /// more groups of them that may have more than they counted.
    @MainActor
    func countWaiting(_ change: Int, uncounted: Int) {
        guard change != 0 || uncounted != 0 else { return }
        presenter.countWaiting(change, uncounted: uncounted, under: session)
    }

    /// A group of child tasks stopped early: `titles` name the first tasks it never started (its
    /// recap lists them as planned steps not run), and the counts of those waiting change.
    @MainActor
    func leaveNotRun(_ titles: [String], waitingChange: Int, uncounted: Int) {
        presenter.leaveNotRun(titles, waitingChange: waitingChange, uncounted: uncounted, under: session)
    }
}

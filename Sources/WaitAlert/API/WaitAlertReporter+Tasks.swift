import Synchronization

extension WaitAlertReporter {
    /// Runs `operation` as a child task of this alert: a row of its own under the alert, with every
    /// guarantee a wait alert has (grace, minimum display, coalesced texts, a final message).
    ///
    /// The value, an error and cancellation flow as they do through `withWaitAlert`; call it from
    /// child tasks of a task group to run many at once. Child tasks nest: a task's own reporter
    /// starts tasks one level deeper.
    ///
    /// ```swift
    /// try await withWaitAlert("Building") { build in
    ///     try await build.step("Resolving packages") { _ in try await resolve() }
    ///     try await withThrowingTaskGroup(of: Void.self) { group in
    ///         for target in targets {
    ///             group.addTask {
    ///                 try await build.task("Compiling \(target)") { _ in try await compile(target) }
    ///             }
    ///         }
    ///         try await group.waitForAll()
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - title: the row's first text.
    ///   - success: the final text on success, made from the value; `nil` shows the title.
    ///   - failure: the final text on failure, made from the error; `nil` shows the title and the
    ///     error's description.
    ///   - retention: what a terminal region does with the row once the task has ended: a record
    ///     line above the region once its final message has been read (the default), kept until
    ///     the group ends, or gone without a trace (failures still leave their record line).
    ///   - isolation: the caller's actor, where the work starts; filled in by the compiler.
    ///   - operation: the work, given a reporter for its own row.
    /// - Returns: what `operation` returned.
    /// - Throws: what `operation` threw.
    @discardableResult
    public func task<Value: Sendable>(
        _ title: String,
        success: ((Value) -> String)? = nil,
        failure: ((any Error) -> String)? = nil,
        retention: WaitAlertRowRetention = .record,
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext operation: sending @escaping @isolated(any) (WaitAlertReporter) async throws -> Value
    ) async throws -> Value {
        try await task(
            title, success: success, failure: failure, retention: retention, cancellation: WorkCancellation(),
            isolation: isolation, operation: operation)
    }

    /// ``task(_:success:failure:retention:isolation:operation:)`` whose work `cancellation`
    /// cancels (a group's failing sibling does, at once).
    func task<Value: Sendable>(
        _ title: String,
        success: ((Value) -> String)?,
        failure: ((any Error) -> String)?,
        retention: WaitAlertRowRetention,
        cancellation: WorkCancellation,
        isolation: isolated (any Actor)?,
        operation: sending @escaping @isolated(any) (WaitAlertReporter) async throws -> Value
    ) async throws -> Value {
        let mailbox = ReportMailbox()
        let (presenter, session) = await beginChild(
            title, mailbox: mailbox, cancellation: cancellation, retention: retention)
        let reporter = WaitAlertReporter(mailbox: mailbox, parent: AlertParent(presenter: presenter, session: session))
        return try await runAlert(
            title, success: success, failure: failure, presenter: presenter, session: session, mailbox: mailbox,
            reporter: reporter, cancellation: cancellation, isolation: isolation, operation: operation)
    }

    /// A child task of a group `tasks(for:)` made: its row, and `operation` run in the caller's
    /// task, which exists for this work alone (cancelling the work cancels it). Once the row has
    /// ended, rethrows what `operation` threw, or throws ``WaitAlertTimeoutError`` when the
    /// timing's timeout ended the row first.
    ///
    /// The lean sibling of `task`: no task of its own, no cancellation handler, and not generic
    /// (the value stays with the caller), so its frame is small and has no parts sized at run
    /// time. With the group task's own frames it fits the task's first allocation slab, which
    /// keeps ten thousand rows small.
    ///
    /// It takes the place of no planned step, whatever its title; one that `leftWaiting` was
    /// counted among the tasks waiting for a slot, and is counted as begun instead.
    private func row(
        _ title: String, retention: WaitAlertRowRetention, cancellation: WorkCancellation, leftWaiting: Bool,
        operation: (WaitAlertReporter) async throws -> Void
    ) async throws {
        let mailbox = ReportMailbox()
        let (presenter, session) = await beginChild(
            title, mailbox: mailbox, cancellation: cancellation, retention: retention, claimsPlannedStep: false,
            leavesWaiting: leftWaiting)
        let reporter = WaitAlertReporter(mailbox: mailbox, parent: AlertParent(presenter: presenter, session: session))
        cancellation.enter()
        var failure: (any Error)?
        do { try await operation(reporter) } catch { failure = error }
        let endedAt = session.clock.now()
        cancellation.leave()
        let outcome = failure.map { WaitAlertOutcome($0, title: title, failure: nil) } ?? .success(nil)
        try await finishAlert(session, of: presenter, mailbox: mailbox, outcome: outcome, error: failure, at: endedAt)
        if let failure { throw failure }
    }

    /// Runs `operation` as the next step of this alert: a child task (see
    /// ``task(_:success:failure:retention:isolation:operation:)``) meant to run one after another.
    /// A step planned with ``plan(_:)`` under the same title takes the place of its pending row.
    @discardableResult
    public func step<Value: Sendable>(
        _ title: String,
        success: ((Value) -> String)? = nil,
        failure: ((any Error) -> String)? = nil,
        retention: WaitAlertRowRetention = .record,
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext operation: sending @escaping @isolated(any) (WaitAlertReporter) async throws -> Value
    ) async throws -> Value {
        try await task(
            title, success: success, failure: failure, retention: retention, isolation: isolation, operation: operation)
    }

    /// Shows `steps` as pending rows under this alert, so the user sees what is coming; each gives
    /// way to the child task of the same title once it shows. Steps that never run are listed as
    /// not run when the alert ends.
    ///
    /// Thousands of steps cost a count: the region shows as many as it has lines for and counts
    /// the rest on its last line (`… 9991 pending`), the header counts them all, and a step leaves
    /// the plan in the same time however many are planned.
    ///
    /// ```swift
    /// try await withWaitAlert("Deploying") { deploy in
    ///     await deploy.plan(["Building", "Uploading", "Restarting"])
    ///     try await deploy.step("Building") { _ in try await build() }
    ///     try await deploy.step("Uploading") { _ in try await upload() }
    ///     try await deploy.step("Restarting") { _ in try await restart() }
    /// }
    /// ```
    public func plan(_ steps: [String]) async {
        guard let parent else { return }
        await parent.plan(steps)
    }

    /// Ends the planned step `title` as skipped without running it: `↷ Testing: skipped (no test
    /// target)`.
    public func skipStep(_ title: String, reason: String? = nil) async {
        guard let parent else { return }
        await parent.skipStep(title, reason: reason)
    }

    /// Begins a child alert of this reporter's alert on its presenter (or, for a reporter without
    /// one, a top-level alert on the current presenter).
    ///
    /// Never inlined: its values (a session being made, a timeline, snapshots) would become part
    /// of the async frame of every row that awaits it, and a row's frames would outgrow the first
    /// allocation slab of its task.
    @MainActor
    @inline(never)
    private func beginChild(
        _ title: String, mailbox: ReportMailbox, cancellation: WorkCancellation, retention: WaitAlertRowRetention,
        claimsPlannedStep: Bool? = nil, leavesWaiting: Bool = false
    ) -> (WaitAlertPresenter, AlertSession) {
        let presenter = parent?.presenter ?? .current
        let session =
            if let parent {
                presenter.begin(
                    title, mailbox: mailbox, parent: parent.session, retention: retention,
                    claimsPlannedStep: claimsPlannedStep, leavesWaiting: leavesWaiting)
            } else {
                presenter.beginTopLevel(title, timing: nil, mailbox: mailbox)
            }
        session.attach(cancel: cancellation.cancel)
        cancellation.whenRequested(mailbox.cancelling)
        return (presenter, session)
    }

    /// Runs `operation` for every element at once (at most `maxConcurrency` at a time), each as a
    /// child task of this alert titled by `title`, and returns the values in the elements' order.
    ///
    /// The elements are taken from the sequence as slots free up: a lazy sequence of a million
    /// elements is never held whole, and `title` makes a task's title as it starts. The tasks
    /// waiting their turn are counted, not listed: the group's header counts them
    /// (`Hashing · 120/16000`), and a terminal region shows the running rows and, on its last
    /// line, how many wait (`… 15876 pending`). The size of the group is known at once for a
    /// random-access collection (an array, a range); for another sequence, the group counts what
    /// it knows (its `underestimatedCount`, then each task as it starts) and says that more may
    /// come (`Hashing · 120/124+`) until the sequence ends.
    ///
    /// With ``WaitAlertFailurePolicy/failFast`` the first failure cancels the others (structured
    /// cancellation) and is rethrown; with ``WaitAlertFailurePolicy/keepGoing`` every task runs to
    /// its end and the failures are thrown together as ``WaitAlertTaskFailures``. A group that
    /// stops early leaves one line for the tasks that never started (`○ 96 tasks not run:
    /// Compiling M4, Compiling M5, Compiling M6 and 93 more`), naming the first few.
    ///
    /// ```swift
    /// let objects = try await build.tasks(for: targets, policy: .keepGoing, maxConcurrency: 8) { target in
    ///     "Compiling \(target)"
    /// } operation: { target, row in
    ///     try await compile(target)
    /// }
    /// ```
    ///
    /// - Throws: the first failure (fail fast), ``WaitAlertTaskFailures`` (keep going), or
    ///   `CancellationError` when the calling task is cancelled.
    public func tasks<Elements: Sequence, Value: Sendable>(
        for elements: Elements,
        policy: WaitAlertFailurePolicy = .failFast,
        maxConcurrency: Int? = nil,
        retention: WaitAlertRowRetention = .record,
        isolation: isolated (any Actor)? = #isolation,
        title: (Elements.Element) -> String,
        operation: @escaping @Sendable (Elements.Element, WaitAlertReporter) async throws -> Value
    ) async throws -> [Value] where Elements.Element: Sendable {
        var turns = ElementTurns(elements)
        let limit = max(maxConcurrency ?? .max, 1)
        if turns.counted > 0 || turns.isUncounted {
            await parent?.countWaiting(turns.counted, uncounted: turns.isUncounted ? 1 : 0)
        }
        // What every task shares, in one object: each task's closure holds little of its own.
        let siblings = SiblingWork(reporter: self, retention: retention, failsFast: policy == .failFast)
        // Each task's result, in the elements' order (a failure is a `FailedTask`, with its title).
        var results: [Result<Value, any Error>?] = []
        results.reserveCapacity(turns.counted)
        do {
            try await withThrowingTaskGroup(of: (Int, Result<Value, any Error>).self) { group in
                var running = 0
                // Starts the next task, if a slot is free and an element is left. Once the group
                // is cancelled (a failure under fail fast, the caller's cancellation, Ctrl-C), no
                // task starts: those left are counted as not run.
                func addTask() -> Bool {
                    guard running < limit, !Task.isCancelled, let (element, counted) = turns.next() else {
                        return false
                    }
                    let (index, title) = (results.count, title(element))
                    results.append(nil)
                    running += 1
                    group.addTask {
                        let work = siblings.begin(index)
                        defer { siblings.end(index) }
                        var value: Value?
                        do {
                            try await siblings.reporter.row(
                                title, retention: siblings.retention, cancellation: work, leftWaiting: counted
                            ) { row in
                                do {
                                    value = try await operation(element, row)
                                } catch {
                                    // Fail fast from the failing work itself: the siblings' work
                                    // is cancelled at once, even while the group's owner waits
                                    // for a thread or its actor.
                                    if siblings.failsFast { siblings.cancelAll(because: error) }
                                    throw error
                                }
                            }
                        } catch {
                            return (index, .failure(FailedTask(title: title, error: error)))
                        }
                        guard let value else { preconditionFailure("the work returned") }
                        return (index, .success(value))
                    }
                    return true
                }
                func fillSlots() async {
                    while addTask() {}
                    // The sequence has ended: what it was counted for and did not hold, and
                    // the more it might have held, are no longer waiting.
                    if let (uncounted, unfilled) = turns.takeEnd() {
                        await parent?.countWaiting(-unfilled, uncounted: uncounted ? -1 : 0)
                    }
                }
                await fillSlots()
                while let (index, result) = try await group.next() {
                    running -= 1
                    results[index] = result
                    if case .failure(let failure) = result, policy == .failFast {
                        group.cancelAll()
                        throw siblings.failure ?? (failure as? FailedTask)?.error ?? failure
                    }
                    await fillSlots()
                }
            }
        } catch {
            await leaveNotRun(&turns, title: title)
            throw error
        }
        await leaveNotRun(&turns, title: title)
        try Task.checkCancellation()
        let failures = results.compactMap { result -> WaitAlertTaskFailures.Failure? in
            guard case .failure(let failure as FailedTask)? = result else { return nil }
            return WaitAlertTaskFailures.Failure(title: failure.title, error: failure.error)
        }
        if !failures.isEmpty { throw WaitAlertTaskFailures(failures: failures) }
        return results.map { result in
            guard case .success(let value)? = result else { preconditionFailure("every task ended") }
            return value
        }
    }

    /// A group that stopped before its sequence ended: the elements it did not take are counted
    /// as not run, the first few by title (taken from the sequence now), for its recap.
    private func leaveNotRun<Elements: Sequence>(
        _ turns: inout ElementTurns<Elements>, title: (Elements.Element) -> String,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        guard let notRun = turns.takeNotRun(naming: GroupRecap.notRunListed + 1, title: title) else { return }
        await parent?.leaveNotRun(
            notRun.titles, waitingChange: notRun.waitingChange, uncounted: notRun.uncountedChange)
    }
}

/// A task of a group that failed: its title and what it threw.
private struct FailedTask: Error {
    var title: String
    var error: any Error
}

/// The work of a group's running tasks, so that a task failing under fail fast cancels its
/// siblings itself; and what every task of the group shares.
private final class SiblingWork: Sendable {
    /// The reporter of the alert the tasks are rows of.
    let reporter: WaitAlertReporter
    /// What a terminal region does with a row once its task has ended.
    let retention: WaitAlertRowRetention
    /// Whether the first failure cancels the other tasks.
    let failsFast: Bool

    init(reporter: WaitAlertReporter, retention: WaitAlertRowRetention, failsFast: Bool) {
        self.reporter = reporter
        self.retention = retention
        self.failsFast = failsFast
    }

    private let state = Mutex<(cancelled: Bool, running: [Int: WorkCancellation], failure: (any Error)?)>(
        (false, [:], nil))

    /// The failure that cancelled the siblings: what the group rethrows, even when a sibling's
    /// `CancellationError` reaches the group's owner first.
    var failure: (any Error)? { state.withLock { $0.failure } }

    /// The work of task `index`, starting now: cancelled at once if a sibling has failed.
    func begin(_ index: Int) -> WorkCancellation {
        let work = WorkCancellation()
        let cancelled = state.withLock { state in
            if !state.cancelled { state.running[index] = work }
            return state.cancelled
        }
        if cancelled { work.cancel() }
        return work
    }

    func end(_ index: Int) {
        _ = state.withLock { $0.running.removeValue(forKey: index) }
    }

    /// Cancels the work of every running task, and of any that starts from now on, because of
    /// `failure` (the first one is kept).
    func cancelAll(because failure: any Error) {
        let running = state.withLock { state in
            state.cancelled = true
            if state.failure == nil { state.failure = failure }
            return Array(state.running.values)
        }
        running.forEach { $0.cancel() }
    }
}

/// What a group of child tasks does when one of them fails.
public enum WaitAlertFailurePolicy: Sendable, Hashable {
    /// The first failure cancels the other tasks and is rethrown.
    case failFast
    /// Every task runs to its end; the failures are thrown together as ``WaitAlertTaskFailures``.
    case keepGoing
}

/// The failures of a group of child tasks that kept going: each task's title and error.
public struct WaitAlertTaskFailures: Error, Sendable, CustomStringConvertible {
    /// One failed task.
    public struct Failure: Sendable {
        /// The task's title.
        public var title: String
        /// What the task threw.
        public var error: any Error

        /// Makes a failure.
        public init(title: String, error: any Error) {
            self.title = title
            self.error = error
        }
    }

    /// The failures, in the order the tasks were given.
    public var failures: [Failure]

    /// Makes the failures of a group.
    public init(failures: [Failure]) {
        self.failures = failures
    }

    /// One line of bounded length, whatever the number of failures (each failed task's row has
    /// already shown its own error): up to three failures with their errors —
    /// "2 tasks failed: Compiling A (exit code 1); Compiling B (exit code 2)" — and beyond, the
    /// first three titles and a count — "69 tasks failed: a.txt, b.txt, c.txt and 66 more". An
    /// error's description counts with its first line, at most 120 characters, and so does a
    /// title.
    public var description: String {
        let count = "\(failures.count) task\(failures.count == 1 ? "" : "s") failed"
        guard !failures.isEmpty else { return count }
        func name(_ failure: Failure) -> String { Self.bounded(WaitAlertOutcome.name(fromTitle: failure.title)) }
        if failures.count <= Self.namedInFull {
            return count + ": "
                + failures.map { "\(name($0)) (\(Self.bounded(String(describing: $0.error))))" }
                .joined(separator: "; ")
        }
        let named = failures.prefix(Self.namedInFull).map(name).joined(separator: ", ")
        return count + ": " + named + " and \(failures.count - Self.namedInFull) more"
    }

    /// How many failures the description names.
    static let namedInFull = 3
    /// The most characters of one title or error the description keeps.
    static let longestPart = 120

    /// The first line of `text`, cut to ``longestPart`` characters; `…` where something was left out.
    static func bounded(_ text: String) -> String {
        let firstLine = text.prefix { !$0.isNewline }
        let cut = firstLine.prefix(longestPart)
        return cut.count < text.count ? cut + "…" : String(cut)
    }
}

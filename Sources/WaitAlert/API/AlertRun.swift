import Synchronization

/// Runs `operation` under an alert that has begun (a top-level alert or a child task), given
/// `reporter`, and ends the alert with the work's outcome: the shared body of `withWaitAlert` and
/// of a reporter's child tasks.
func runAlert<Value: Sendable, Reporter: Sendable>(
    _ title: String,
    success: ((Value) -> String)?,
    failure: ((any Error) -> String)?,
    presenter: WaitAlertPresenter,
    session: AlertSession,
    mailbox: ReportMailbox,
    reporter: Reporter,
    cancellation: WorkCancellation,
    isolation: isolated (any Actor)?,
    operation: sending @escaping @isolated(any) (Reporter) async throws -> Value
) async throws -> Value {
    // The work leaves its result and the instant it ended in `finished`, so work that ended
    // while starting needs no await, and its end is placed on the timeline where it happened.
    let finished = FinishedWork<Value>(clock: session.clock)
    let executor = session.workExecutor
    // `operation` was sent here and goes, once, to the work's task created below; the cancellation
    // handler's closure only carries it there.
    nonisolated(unsafe) let operation = operation
    await withTaskCancellationHandler {
        let work: Task<Void, Never>
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            // Starts on the caller's actor at once; work that never suspends is done when this returns.
            work = Task.immediate(executorPreference: executor) { [isolation] in
                _ = isolation  // captured so the closure, and the work, run on the caller's actor
                cancellation.enter()
                defer { cancellation.leave() }
                do { finished.succeed(try await operation(reporter)) } catch { finished.fail(error) }
            }
        } else {
            work = Task(executorPreference: executor) { [isolation] in
                _ = isolation  // captured so the closure, and the work, run on the caller's actor
                cancellation.enter()
                defer { cancellation.leave() }
                do { finished.succeed(try await operation(reporter)) } catch { finished.fail(error) }
            }
        }
        if !finished.hasEnded { await work.value }
    } onCancel: {
        cancellation.cancel()
    }
    let ending = finished.ending
    // The work always records its ending; none would count as cancelled.
    let error: (any Error)? = if let ending { ending.failure } else { CancellationError() }
    let outcome =
        if let error { WaitAlertOutcome(error, title: title, failure: failure) } else {
            WaitAlertOutcome.success(success.map { $0(finished.value) })
        }
    try await finishAlert(session, of: presenter, mailbox: mailbox, outcome: outcome, error: error, at: ending?.endedAt)
    if let error { throw error }
    return finished.value
}

/// Ends an alert whose work has ended with `outcome` (`error` when it threw), at `endedAt` when
/// known: the shared, non-generic tail of `runAlert` and of the rows of `tasks(for:)`. Throws
/// ``WaitAlertTimeoutError`` when the timing's timeout ended the alert first.
///
/// On the main actor, where the alert ends: work on the main actor reaches it with no hop (a
/// nonisolated async function would hop to the global executor and back, which costs a fast
/// task most of its time), and its frame stays small for the rows of a group.
@MainActor
func finishAlert(
    _ session: AlertSession, of presenter: WaitAlertPresenter, mailbox: ReportMailbox, outcome: WaitAlertOutcome,
    error: (any Error)?, at endedAt: Duration?
) async throws {
    var outcome = outcome
    if error == nil, let ending = mailbox.ending { outcome = ending }
    if case .failure = outcome {
        for line in mailbox.failureReport { mailbox.log(line) }
    }
    // What child processes reported under the alert is shown before it ends.
    if ChildProcessReports.isServing.load(ordering: .relaxed) { await ChildProcessReports.settle(session) }
    let timedOut = presenter.end(session, with: outcome, at: endedAt)
    let shown = !presenter.renderers.isEmpty
    let signal = TerminalSession.process.cancellingSignal
    if timedOut {
        if shown { ShownErrors.record(WaitAlertTimeoutError(), signal: 0) }
        throw WaitAlertTimeoutError()
    }
    if shown, let error { ShownErrors.record(error, signal: signal) }
}

/// How the work ended, once it has: when, and what it threw (`nil` when it returned its value).
private struct WorkEnding: Sendable {
    var endedAt: Duration
    var failure: (any Error)?
}

/// The result of the work and when it ended, left where `withWaitAlert` can read it without
/// awaiting.
///
/// Generic only in the value's own slot. Unspecialized generic code (`withWaitAlert` called from
/// another module) looks up the type of a generic aggregate — a `Result` of the value, an
/// optional of it, a mutex of either — at run time on each use, which cost a task that returns
/// at once a tenth of its time.
private final class FinishedWork<Value: Sendable>: @unchecked Sendable {
    private let clock: AlertClock
    /// Set once, when the work ends; a value is in `slot` from before it is set.
    private let ended = Mutex<WorkEnding?>(nil)
    private let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    init(clock: AlertClock) { self.clock = clock }

    deinit {
        if let ending = ended.withLock({ $0 }), ending.failure == nil { slot.deinitialize(count: 1) }
        slot.deallocate()
    }

    /// How the work ended, once it has.
    var ending: WorkEnding? { ended.withLock { $0 } }

    var hasEnded: Bool { ended.withLock { $0 != nil } }

    /// The value the work returned; only once ``ending`` says it did.
    var value: Value { slot.pointee }

    func succeed(_ value: Value) {
        let now = clock.now()
        slot.initialize(to: value)
        ended.withLock { $0 = WorkEnding(endedAt: now, failure: nil) }
    }

    func fail(_ error: any Error) {
        let now = clock.now()
        ended.withLock { $0 = WorkEnding(endedAt: now, failure: error) }
    }
}

/// Thrown by `withWaitAlert` when the timing's timeout elapsed before the work ended.
public struct WaitAlertTimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
    public init() {}
    public var description: String { "The work timed out." }
}

extension WaitAlertOutcome {
    /// The outcome of work that threw `error`: cancellation is never dressed up as a failure, and
    /// a failure says which alert failed unless `failure` makes its own text.
    init(_ error: any Error, title: String, failure: ((any Error) -> String)?) {
        if error is CancellationError {
            self = .cancelled
        } else if let failure {
            self = .failure(failure(error))
        } else {
            let name = Self.name(fromTitle: title)
            self = .failure(name.isEmpty ? String(describing: error) : "\(name): \(error)")
        }
    }
}

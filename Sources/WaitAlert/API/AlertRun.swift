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
                do { finished.store(.success(try await operation(reporter))) } catch {
                    finished.store(.failure(error))
                }
            }
        } else {
            work = Task(executorPreference: executor) { [isolation] in
                _ = isolation  // captured so the closure, and the work, run on the caller's actor
                cancellation.enter()
                defer { cancellation.leave() }
                do { finished.store(.success(try await operation(reporter))) } catch {
                    finished.store(.failure(error))
                }
            }
        }
        if !finished.hasEnded { await work.value }
    } onCancel: {
        cancellation.cancel()
    }
    let ended = finished.ended
    let result = ended?.result ?? .failure(CancellationError())
    let outcome = WaitAlertOutcome(result, title: title, success: success, failure: failure)
    try await finishAlert(
        session, of: presenter, mailbox: mailbox, outcome: outcome, error: result.failure, at: ended?.endedAt)
    return try result.get()
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
        for line in mailbox.failureReport.withLock({ $0 }) { mailbox.log(line) }
    }
    // What child processes reported under the alert is shown before it ends.
    if ChildProcessReports.isServing.load(ordering: .relaxed) { await ChildProcessReports.settle(session) }
    let timedOut = presenter.end(session, with: outcome, at: endedAt)
    let shown = !presenter.renderers.isEmpty
    let signal = ProcessGroupGuard.cancellingSignal.load(ordering: .sequentiallyConsistent)
    if timedOut {
        if shown { ShownErrors.record(WaitAlertTimeoutError(), signal: 0) }
        throw WaitAlertTimeoutError()
    }
    if shown, let error { ShownErrors.record(error, signal: signal) }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

/// The result of the work and when it ended, left where `withWaitAlert` can read it without
/// awaiting.
private final class FinishedWork<Value: Sendable>: Sendable {
    private let clock: AlertClock
    /// A struct rather than a tuple: generic code looks a tuple's type up at run time on every use.
    struct Ended {
        var result: Result<Value, any Error>
        var endedAt: Duration
    }
    private let stored = Mutex<Ended?>(nil)

    init(clock: AlertClock) { self.clock = clock }

    /// The work's result and when it ended, once it has.
    var ended: Ended? { stored.withLock { $0 } }

    var hasEnded: Bool { stored.withLock { $0 != nil } }

    func store(_ result: Result<Value, any Error>) {
        let now = clock.now()
        stored.withLock { $0 = Ended(result: result, endedAt: now) }
    }
}

/// Thrown by `withWaitAlert` when the timing's timeout elapsed before the work ended.
public struct WaitAlertTimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
    public init() {}
    public var description: String { "The work timed out." }
}

extension WaitAlertOutcome {
    /// The outcome of a finished piece of work: cancellation is never dressed up as a failure, and
    /// a failure says which alert failed unless `failure` makes its own text.
    init<Value>(
        _ result: Result<Value, any Error>, title: String, success: ((Value) -> String)?,
        failure: ((any Error) -> String)?
    ) {
        switch result {
        case .success(let value):
            self = .success(success?(value))
        case .failure(let error) where error is CancellationError:
            self = .cancelled
        case .failure(let error):
            if let failure {
                self = .failure(failure(error))
                return
            }
            let name = Self.name(fromTitle: title)
            self = .failure(name.isEmpty ? String(describing: error) : "\(name): \(error)")
        }
    }
}

import Dispatch
import Synchronization

/// A task executor that runs every job on the main dispatch queue, one at a time, in the order
/// they came: work under a test bed runs serially with the main actor, so each step of a test is
/// reproducible.
///
/// It counts the jobs it ran, so the test bed can tell when everything enqueued has run.
final class MainQueueExecutor: TaskExecutor, Sendable {
    private let counts = Atomic<Int>(0)

    /// How many jobs ran so far.
    var jobsRun: Int { counts.load(ordering: .acquiring) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            self.counts.add(1, ordering: .releasing)
        }
    }
}

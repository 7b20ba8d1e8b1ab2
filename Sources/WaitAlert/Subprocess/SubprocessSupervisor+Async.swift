import Dispatch

extension SubprocessSupervisor {
    /// Supervises `process` on a thread of its own until it has ended and its output is read.
    /// Cancelling the task stops the command (``Subprocess/stop(_:)``) with the signal that
    /// cancelled the work through the terminal guard — `SIGINT` after a Ctrl-C — or `SIGTERM` (a
    /// timeout, a failed sibling task): its whole group, killed if it has not ended
    /// ``Subprocess/grace`` later.
    package static func supervise(
        _ process: Subprocess, settings: Settings, reporting: SubprocessReporting
    ) async -> SubprocessOutcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue(label: "WaitAlert subprocess \(process.pid)").async {
                    var supervisor = SubprocessSupervisor(process, settings: settings, reporting: reporting)
                    continuation.resume(returning: supervisor.run())
                }
            }
        } onCancel: {
            process.stop(ProcessGroupGuard.lastCancellingSignal ?? Signal.terminate)
        }
    }
}

/// A command run under an alert with
/// ``WaitAlertReporter/run(_:output:environment:workingDirectory:keeping:)`` failed: it exited
/// with a status other than 0, a signal ended it, it could not be started, or it wrote more than
/// its collected output may hold.
///
/// Its ``description`` is what the alert's final line says after the title:
/// `✖ Archiving: tar exited with status 2`. The command's last lines print above that line when
/// the alert ends with the error, and are in ``lastLines``.
///
/// ```swift
/// do {
///     try await alert.run("make", "test")
/// } catch let error as WaitAlertCommandError where error.reason == .exited(2) {
///     alert.warn("Some tests failed")
/// }
/// ```
public struct WaitAlertCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the command failed.
    public enum Reason: Sendable, Hashable {
        /// It exited with this status, not 0.
        case exited(Int32)
        /// This signal ended it (`SIGKILL` is 9, `SIGSEGV` 11).
        case signaled(Int32)
        /// It could not be started: the system's error number (`ENOENT` when no such program is
        /// found in `PATH`, `EACCES` when it is not executable).
        case notStarted(errno: Int32)
        /// It wrote more than this many bytes to a collected standard output, and was stopped.
        case outputOverLimit(Int)
    }

    /// The command and its arguments, as given to `run`.
    public var command: [String]
    public var reason: Reason
    /// The last lines it showed, oldest first.
    public var lastLines: [String]
    /// Where it was to run, when `run` was told (`workingDirectory:`).
    public var workingDirectory: String?

    public init(command: [String], reason: Reason, lastLines: [String] = [], workingDirectory: String? = nil) {
        self.command = command
        self.reason = reason
        self.lastLines = lastLines
        self.workingDirectory = workingDirectory
    }

    /// `tar exited with status 2`, `tar was ended by SIGKILL`, `cannot run nosuch: No such file or
    /// directory` (`cannot run make in /nowhere: …` when told where), `cat wrote more than
    /// 16777216 bytes`.
    public var description: String {
        let name = command.first ?? ""
        switch reason {
        case .exited(let status):
            return "\(name) exited with status \(status)"
        case .signaled(let signal):
            return "\(name) was ended by \(Platform.signalName(signal))"
        case .notStarted(let code):
            let place = workingDirectory.map { " in \($0)" } ?? ""
            return "cannot run \(name)\(place): \(Platform.errorDescription(code))"
        case .outputOverLimit(let limit):
            return "\(name) wrote more than \(limit) bytes"
        }
    }
}

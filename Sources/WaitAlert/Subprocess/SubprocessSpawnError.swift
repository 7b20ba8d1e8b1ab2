/// A command could not be started: which step failed, and the system's error number.
package struct SubprocessSpawnError: Error, Sendable, CustomStringConvertible {
    /// `posix_spawn` (the command itself: not found, not executable), or what was being made for
    /// it (`pipe`, `open a pseudo-terminal`).
    package let step: String
    package let code: Int32

    package init(step: String, code: Int32) {
        self.step = step
        self.code = code
    }

    /// The system's text for ``code``: `No such file or directory`.
    package var reason: String { Platform.errorDescription(code) }

    package var description: String { step == "posix_spawn" ? reason : "\(step): \(reason)" }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command could not be started: which step failed, and the system's error number.
struct SpawnError: Error, CustomStringConvertible {
    let step: String
    let code: Int32

    /// The system's text for ``code``: `No such file or directory`.
    var reason: String { String(cString: strerror(code)) }

    var description: String { step == "posix_spawn" ? reason : "\(step): \(reason)" }
}

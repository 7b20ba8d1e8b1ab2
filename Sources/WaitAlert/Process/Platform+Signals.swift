#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals and the system's error numbers, named: the words the layers above use instead of the
/// C library's constants.
extension Platform {
    /// `SIGTERM`: asks a process to end.
    package static var terminateSignal: Int32 { SIGTERM }

    /// Whether `signal` stopped a process for using its terminal from the background (`SIGTTIN`,
    /// `SIGTTOU`): a password prompt, most often.
    package static func isTerminalStop(_ signal: Int32) -> Bool { signal == SIGTTIN || signal == SIGTTOU }

    /// `SIGINT`, or `signal 42` for one without a usual name.
    package static func signalName(_ signal: Int32) -> String {
        let names: [(Int32, String)] = [
            (SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP"),
            (SIGABRT, "SIGABRT"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"), (SIGKILL, "SIGKILL"), (SIGUSR1, "SIGUSR1"),
            (SIGSEGV, "SIGSEGV"), (SIGUSR2, "SIGUSR2"), (SIGPIPE, "SIGPIPE"), (SIGALRM, "SIGALRM"),
            (SIGTERM, "SIGTERM"), (SIGXCPU, "SIGXCPU"), (SIGXFSZ, "SIGXFSZ"), (SIGSYS, "SIGSYS"),
            (SIGSTOP, "SIGSTOP"), (SIGTSTP, "SIGTSTP"), (SIGTTIN, "SIGTTIN"), (SIGTTOU, "SIGTTOU"),
            (SIGCONT, "SIGCONT"), (SIGCHLD, "SIGCHLD"), (SIGWINCH, "SIGWINCH"), (SIGURG, "SIGURG"),
            (SIGPROF, "SIGPROF"), (SIGVTALRM, "SIGVTALRM"),
        ]
        return names.first { $0.0 == signal }?.1 ?? "signal \(signal)"
    }

    /// The system's text for the error number `code`: `No such file or directory`.
    package static func errorDescription(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The calling thread, as a number (never 0). Async-signal-safe.
    @inline(__always)
    package static func currentThread() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}

import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals WaitAlert sends, handles or looks for, by name: the words the layers above use
/// instead of the C library's constants.
package enum Signal {
    /// `SIGINT`: Ctrl-C.
    package static var interrupt: Int32 { SIGINT }
    /// `SIGTERM`: asks a process to end.
    package static var terminate: Int32 { SIGTERM }
    /// `SIGHUP`: the terminal hung up.
    package static var hangUp: Int32 { SIGHUP }
    /// `SIGQUIT`: Ctrl-\.
    package static var quit: Int32 { SIGQUIT }
    /// `SIGKILL`: ends a process; it cannot be caught.
    package static var kill: Int32 { SIGKILL }
    /// `SIGSTOP`: stops a process; it cannot be caught.
    package static var stop: Int32 { SIGSTOP }
    /// `SIGTSTP`: Ctrl-Z.
    package static var terminalStop: Int32 { SIGTSTP }
    /// `SIGCONT`: a stopped process continues.
    package static var `continue`: Int32 { SIGCONT }
    /// `SIGWINCH`: the terminal's window changed size.
    package static var windowChanged: Int32 { SIGWINCH }
    /// `SIGCHLD`: a child process ended or stopped.
    package static var child: Int32 { SIGCHLD }
    /// `SIGPIPE`: a write to a pipe nobody reads.
    package static var brokenPipe: Int32 { SIGPIPE }
    /// `SIGTTIN`, `SIGTTOU`: a background process used its terminal.
    package static var backgroundRead: Int32 { SIGTTIN }
    package static var backgroundWrite: Int32 { SIGTTOU }

    /// The signals of a crash.
    static let crashes: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// The signals besides `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` whose default action ends
    /// the program (terminate, or dump core), and which are not a crash (``crashes``): a write to
    /// a closed pipe (`SIGPIPE`, `prog | head -1`), `kill -USR1`, a timer, a resource limit, the
    /// real-time signals.
    static let endingByDefault: [Int32] = {
        #if os(Linux)
            let named = [
                SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT,
                SIGSYS,
            ]
            // The C library keeps the first real-time signals for itself; the rest end a program.
            return named + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
        #else
            return [SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS, SIGEMT]
        #endif
    }()
}

/// Signals and the system's error numbers, named: the words the layers above use instead of the
/// C library's constants.
extension Platform {
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

    // MARK: - A write to a closed pipe

    /// Runs `write` (`true` when it completed) so that a write to a closed pipe is an `EPIPE`
    /// error for this write only and never ends the program: on Linux with `SIGPIPE` blocked on
    /// this thread, and a `SIGPIPE` it raised consumed, looked for only when the write failed (a
    /// write that succeeds costs two mask changes and no more); on Apple platforms `descriptor` is
    /// told not to raise it at all.
    package static func withoutBrokenPipeSignal(on descriptor: Int32, _ write: () -> Bool) -> Bool {
        #if os(Linux)
            var pipeOnly = sigset_t()
            sigemptyset(&pipeOnly)
            sigaddset(&pipeOnly, SIGPIPE)
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
            let complete = write()
            if !complete, sigismember(&previous, SIGPIPE) == 0 { consumeBrokenPipeSignal() }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            return complete
        #else
            _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
            return write()
        #endif
    }

    /// Takes a `SIGPIPE` pending on this thread (raised by a write to a closed pipe while the
    /// signal is blocked) so it is never delivered. Nothing to do on Apple platforms.
    package static func consumeBrokenPipeSignal() {
        #if os(Linux)
            var pipeOnly = sigset_t()
            sigemptyset(&pipeOnly)
            sigaddset(&pipeOnly, SIGPIPE)
            var pending = sigset_t()
            guard sigpending(&pending) == 0, sigismember(&pending, SIGPIPE) == 1 else { return }
            var noWait = timespec()
            _ = sigtimedwait(&pipeOnly, nil, &noWait)
        #endif
    }

    /// Blocks `SIGPIPE` on the calling thread until `body` returns (on Linux; a no-op elsewhere,
    /// where each write's descriptor is told not to raise it): a thread that writes many times
    /// (the spinner's frame loop) changes its signal mask once, not once a write.
    package static func withBrokenPipeSignalBlocked(_ body: () -> Void) {
        #if os(Linux)
            var pipeOnly = sigset_t()
            sigemptyset(&pipeOnly)
            sigaddset(&pipeOnly, SIGPIPE)
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
            body()
            consumeBrokenPipeSignal()
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        #else
            body()
        #endif
    }

    /// Calls `step` on `queue` (a serial queue: a thread of its own while it runs) again after
    /// each pause it returns — at most `longestPause` at once, so that a shorter step or a stop
    /// is taken within it — until it returns `nil`; `SIGPIPE` stays blocked on that thread
    /// meanwhile (``withBrokenPipeSignalBlocked(_:)``). One wake-up a step: a plain timed sleep,
    /// which costs less than a semaphore's timed wait.
    static func repeatOnThread(
        of queue: DispatchQueue, pausingAtMost longestPause: Duration, _ step: @escaping @Sendable () -> Duration?
    ) {
        queue.async {
            withBrokenPipeSignalBlocked {
                while let pause = step() { sleep(for: min(pause, longestPause)) }
            }
        }
    }
}

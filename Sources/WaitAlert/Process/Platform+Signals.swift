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
    /// `SIGTSTP`: Ctrl-Z.
    package static var terminalStop: Int32 { SIGTSTP }
    /// `SIGCONT`: a stopped process continues.
    package static var `continue`: Int32 { SIGCONT }
    /// `SIGWINCH`: the terminal's window changed size.
    package static var windowChanged: Int32 { SIGWINCH }

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

    #if os(Linux)
        /// A signal set of `SIGPIPE` alone.
        private static var brokenPipeOnly: sigset_t {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGPIPE)
            return set
        }
    #endif

    /// Runs `write` (`true` when it completed) so that a write to a closed pipe is an `EPIPE`
    /// error for this write only and never ends the program: on Linux with `SIGPIPE` blocked on
    /// this thread, and a `SIGPIPE` it raised consumed, looked for only when the write failed (a
    /// write that succeeds costs two mask changes and no more); on Apple platforms `descriptor` is
    /// told not to raise it at all.
    package static func withoutBrokenPipeSignal(on descriptor: Int32, _ write: () -> Bool) -> Bool {
        #if os(Linux)
            var pipeOnly = brokenPipeOnly
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
            var pipeOnly = brokenPipeOnly
            var pending = sigset_t()
            guard sigpending(&pending) == 0, sigismember(&pending, SIGPIPE) == 1 else { return }
            var noWait = timespec()
            _ = sigtimedwait(&pipeOnly, nil, &noWait)
        #endif
    }

    /// Runs `body` with the signals blocked on the calling thread but a crash's
    /// (``Signal/crashes``) and `SIGTTIN` and `SIGTTOU` (whose default stops a background job
    /// that touches the terminal, running no code): no handler interrupts it there — a signal sent
    /// to the process is taken by another thread, or waits until `body` returns. Async-signal-safe.
    static func withHandlersHeld<Result>(_ body: () -> Result) -> Result {
        var blocked = sigset_t()
        sigfillset(&blocked)
        // Named one by one: a handler calls this, and builds no array.
        sigdelset(&blocked, SIGSEGV)
        sigdelset(&blocked, SIGBUS)
        sigdelset(&blocked, SIGILL)
        sigdelset(&blocked, SIGFPE)
        sigdelset(&blocked, SIGABRT)
        sigdelset(&blocked, SIGTRAP)
        sigdelset(&blocked, SIGTTIN)
        sigdelset(&blocked, SIGTTOU)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return body()
    }

    /// Blocks `SIGPIPE` on the calling thread until `body` returns (on Linux; a no-op elsewhere,
    /// where each write's descriptor is told not to raise it): a thread that writes many times
    /// (the spinner's frame loop) changes its signal mask once, not once a write.
    package static func withBrokenPipeSignalBlocked(_ body: () -> Void) {
        #if os(Linux)
            var pipeOnly = brokenPipeOnly
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

/// What a signal does — its disposition, as `sigaction` keeps it: read, saved, compared and put
/// back by the signal handlers of the terminal layer without naming the C library. A plain value:
/// a handler copies and installs one without allocating, and memory allocated for several before
/// any handler runs holds them in place.
struct SignalAction {
    private var raw = sigaction()

    /// The system's default action (`SIG_DFL`), no signal blocked while it runs.
    static var systemDefault: SignalAction {
        var action = SignalAction()
        sigemptyset(&action.raw.sa_mask)
        return action
    }

    /// The signal ignored (`SIG_IGN`).
    static var ignored: SignalAction { handled(by: SIG_IGN) }

    /// Calls `handler` with the signal's number; system calls it interrupts restart.
    static func calling(_ handler: @convention(c) (Int32) -> Void) -> SignalAction {
        var action = handled(by: handler)
        action.raw.sa_flags = SA_RESTART
        return action
    }

    /// The action whose plain handler (`sa_handler`) is `handler`, nothing blocked meanwhile.
    private static func handled(by handler: @convention(c) (Int32) -> Void) -> SignalAction {
        var action = systemDefault
        #if canImport(Darwin)
            action.raw.__sigaction_u.__sa_handler = handler
        #else
            action.raw.__sigaction_handler.sa_handler = handler
        #endif
        return action
    }

    /// Calls `handler` on a crash, on the alternate signal stack when there is one, with the
    /// signal's number and what the system says of it (for ``Platform/wasSent(_:)``).
    static func callingOnCrash(
        _ handler: @convention(c) (Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    ) -> SignalAction {
        var action = systemDefault
        #if canImport(Darwin)
            action.raw.__sigaction_u.__sa_sigaction = unsafeBitCast(
                handler, to: type(of: action.raw.__sigaction_u.__sa_sigaction))
        #else
            action.raw.__sigaction_handler.sa_sigaction = unsafeBitCast(
                handler, to: type(of: action.raw.__sigaction_handler.sa_sigaction))
        #endif
        action.raw.sa_flags = SA_SIGINFO | SA_ONSTACK
        return action
    }

    /// The handler as a number: 0 for the default action, 1 for ignoring the signal, else the
    /// handler's address. Async-signal-safe.
    var handlerAddress: Int {
        #if canImport(Darwin)
            unsafeBitCast(raw.__sigaction_u.__sa_handler, to: Int.self)
        #else
            unsafeBitCast(raw.__sigaction_handler.sa_handler, to: Int.self)
        #endif
    }

    /// Whether the signal does what the system does by default.
    var isSystemDefault: Bool { handlerAddress == 0 && raw.sa_flags & SA_SIGINFO == 0 }

    /// Whether the signal is ignored.
    var isIgnored: Bool { handlerAddress == 1 }

    /// What `signal` does now, written into `slot`; `false` when the system would not say.
    /// Async-signal-safe.
    static func current(of signal: Int32, into slot: UnsafeMutablePointer<SignalAction>) -> Bool {
        sigaction(signal, nil, &slot.pointee.raw) == 0
    }

    /// What `signal` does now, or `nil` when the system would not say.
    static func current(of signal: Int32) -> SignalAction? {
        var action = SignalAction()
        return sigaction(signal, nil, &action.raw) == 0 ? action : nil
    }

    /// Makes `signal` do what `action` points to; `false` when the system refused.
    /// Async-signal-safe.
    @discardableResult
    static func install(_ action: UnsafePointer<SignalAction>, for signal: Int32) -> Bool {
        UnsafeRawPointer(action).withMemoryRebound(to: sigaction.self, capacity: 1) { sigaction(signal, $0, nil) == 0 }
    }

    /// Makes `signal` do this; `false` when the system refused. Async-signal-safe.
    @discardableResult
    func install(for signal: Int32) -> Bool {
        var action = raw
        return sigaction(signal, &action, nil) == 0
    }
}

extension Platform {
    /// Whether the signal a crash handler was called for was sent (`kill`, `raise`, `abort()`)
    /// rather than caused by a fault, from what the system said of it. Async-signal-safe.
    static func wasSent(_ info: UnsafeMutableRawPointer?) -> Bool {
        (info?.assumingMemoryBound(to: siginfo_t.self).pointee.si_code ?? 0) <= 0
    }

    /// Raises `signal` on the calling thread. Async-signal-safe.
    package static func raise(_ signal: Int32) { _ = systemRaise(signal) }

    /// Sends `signal` to this whole process. Async-signal-safe.
    package static func signalThisProcess(_ signal: Int32) { _ = kill(getpid(), signal) }

    /// Ends the process at once with `status`, running no exit handler. Async-signal-safe.
    package static func exitAtOnce(_ status: Int32) -> Never { _exit(status) }

    /// The calling thread's `errno`, which a signal handler saves and puts back.
    package static var errorNumber: Int32 {
        get { errno }
        set { errno = newValue }
    }

    /// The terminal settings saved and put back by the guard (`termios`).
    typealias TerminalSettings = termios
}

private func systemRaise(_ signal: Int32) -> Int32 { raise(signal) }

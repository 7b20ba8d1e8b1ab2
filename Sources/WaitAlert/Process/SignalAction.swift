#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    static var ignored: SignalAction {
        var action = systemDefault
        #if canImport(Darwin)
            action.raw.__sigaction_u.__sa_handler = SIG_IGN
        #else
            action.raw.__sigaction_handler.sa_handler = SIG_IGN
        #endif
        return action
    }

    /// Calls `handler` with the signal's number; system calls it interrupts restart.
    static func calling(_ handler: @convention(c) (Int32) -> Void) -> SignalAction {
        var action = systemDefault
        #if canImport(Darwin)
            action.raw.__sigaction_u.__sa_handler = handler
        #else
            action.raw.__sigaction_handler.sa_handler = handler
        #endif
        action.raw.sa_flags = SA_RESTART
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

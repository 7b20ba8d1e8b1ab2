import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard error as a ``WaitAlertTerminal``.
///
/// Interactive when standard error is a terminal and `TERM` is set and not `dumb`. Writes retry
/// after `EINTR` and partial writes; after any other error (a closed pipe, `EPIPE`) the device is
/// marked broken and every later write returns `false` without touching the descriptor.
public final class WaitAlertStandardError: WaitAlertTerminal {
    /// The process's standard error.
    public static let shared = WaitAlertStandardError(descriptor: STDERR_FILENO)

    /// The file descriptor written to.
    public let descriptor: Int32
    private let broken = Atomic<Bool>(false)

    /// Wraps `descriptor` (standard error by default).
    public init(descriptor: Int32 = 2) {
        self.descriptor = descriptor
    }

    /// Whether `terminal` writes to this process's standard error (descriptor 2): only then does
    /// an overlay catch signals, capture output, serve child processes or reach a parent alert.
    /// The one test of it.
    package static func isProcessStandardError(_ terminal: any WaitAlertTerminal) -> Bool {
        (terminal as? WaitAlertStandardError)?.descriptor == STDERR_FILENO
    }

    /// Whether the descriptor is a terminal device, whatever `TERM` says.
    package var isTerminalDevice: Bool { isatty(target) == 1 }

    public var isInteractive: Bool {
        guard isatty(target) == 1 else { return false }
        guard let term = Platform.environment("TERM") else { return false }
        return !term.isEmpty && term != "dumb"
    }

    public var columns: Int? {
        var size = winsize()
        guard ioctl(target, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public var rows: Int? {
        var size = winsize()
        guard ioctl(target, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// Whether this process's group is the terminal's foreground process group; `true` also when
    /// standard error is not the process's controlling terminal (no job control applies).
    public var isForeground: Bool {
        Platform.isForeground(target)
    }

    /// The descriptor that reaches the terminal: while the overlay captures the program's output,
    /// standard error is a pseudo-terminal and the real one is a duplicate (``OutputRelay``).
    private var target: Int32 { OutputRelay.real(descriptor) }

    /// Writes `bytes`; `false` once the descriptor is broken. Once a signal handler has ended
    /// the program abruptly (a crash, a forced exit), nothing more is written and the write
    /// counts as done: the terminal has been restored for what ends the program.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        write(bytes, brokenPipeSignalBlocked: false)
    }

    /// ``write(_:)`` from a thread that keeps `SIGPIPE` blocked while it runs (the spinner's
    /// frame loop): the signal mask is left as it is, one system call a write.
    package func write(_ bytes: [UInt8], brokenPipeSignalBlocked: Bool) -> Bool {
        guard !broken.load(ordering: .relaxed) else { return false }
        guard !TerminalSession.shared.ended.load(ordering: .sequentiallyConsistent) else { return true }
        let write = { bytes.withUnsafeBytes { Platform.writeAll($0, to: self.target) } }
        let complete: Bool
        #if os(Linux)
            if brokenPipeSignalBlocked {
                complete = write()
                if !complete { Self.consumeBrokenPipeSignal() }
            } else {
                complete = withoutBrokenPipeSignal(write)
            }
        #else
            complete = withoutBrokenPipeSignal(write)
        #endif
        if !complete { broken.store(true, ordering: .relaxed) }
        return complete
    }

    /// Runs `body` so that a write to a closed pipe is an `EPIPE` error for this write only and
    /// never ends the program: on Linux with `SIGPIPE` blocked on this thread and a `SIGPIPE` it
    /// raised consumed; on Apple platforms the descriptor is told not to raise it at all.
    private func withoutBrokenPipeSignal(_ body: () -> Bool) -> Bool {
        #if os(Linux)
            Self.blockingBrokenPipeSignal(body)
        #else
            _ = fcntl(target, F_SETNOSIGPIPE, 1)
            return body()
        #endif
    }

    #if os(Linux)
        /// Runs `body` (a write: `true` when complete) with `SIGPIPE` blocked on this thread. A
        /// write raises `SIGPIPE` only when it fails with `EPIPE`: only then is the signal looked
        /// for and consumed, so a write that succeeds costs two mask changes and no more.
        private static func blockingBrokenPipeSignal(_ body: () -> Bool) -> Bool {
            var pipeOnly = sigset_t()
            sigemptyset(&pipeOnly)
            sigaddset(&pipeOnly, SIGPIPE)
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
            let complete = body()
            if !complete, sigismember(&previous, SIGPIPE) == 0 { consumeBrokenPipeSignal() }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            return complete
        }

        /// Takes a `SIGPIPE` pending on this thread (raised by a write to a closed pipe while the
        /// signal is blocked) so it is never delivered.
        static func consumeBrokenPipeSignal() {
            var pipeOnly = sigset_t()
            sigemptyset(&pipeOnly)
            sigaddset(&pipeOnly, SIGPIPE)
            var pending = sigset_t()
            guard sigpending(&pending) == 0, sigismember(&pending, SIGPIPE) == 1 else { return }
            var noWait = timespec()
            _ = sigtimedwait(&pipeOnly, nil, &noWait)
        }

        /// Blocks `SIGPIPE` on the calling thread until `body` returns: writes inside it pass
        /// `brokenPipeSignalBlocked: true`.
        package static func withBrokenPipeSignalBlocked(_ body: () -> Void) {
            var pipeOnly = sigset_t()
            sigemptyset(&pipeOnly)
            sigaddset(&pipeOnly, SIGPIPE)
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
            body()
            consumeBrokenPipeSignal()
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
    #else
        package static func withBrokenPipeSignalBlocked(_ body: () -> Void) { body() }
    #endif

}

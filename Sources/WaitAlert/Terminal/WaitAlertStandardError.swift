import Synchronization

/// The process's standard error as a ``WaitAlertTerminal``.
///
/// Interactive when standard error is a terminal and `TERM` is set and not `dumb`. Writes retry
/// after `EINTR` and partial writes; after any other error (a closed pipe, `EPIPE`) the device is
/// marked broken and every later write returns `false` without touching the descriptor.
public final class WaitAlertStandardError: WaitAlertTerminal {
    /// The process's standard error.
    public static let shared = WaitAlertStandardError(descriptor: Platform.standardError)

    /// The file descriptor written to.
    public let descriptor: Int32
    private let broken = Atomic<Bool>(false)
    private let readerGone = Atomic<Bool>(false)

    /// Whether a write found no reader left (`EPIPE`): the program reading this output — a pipe's
    /// other end, an ssh session that ended — went away.
    package var readerWentAway: Bool { readerGone.load(ordering: .relaxed) }

    /// Wraps `descriptor` (standard error by default).
    public init(descriptor: Int32 = 2) {
        self.descriptor = descriptor
    }

    /// Whether `terminal` writes to this process's standard error (descriptor 2): only then does
    /// an overlay catch signals, capture output, serve child processes or reach a parent alert.
    /// The one test of it.
    package static func isProcessStandardError(_ terminal: any WaitAlertTerminal) -> Bool {
        (terminal as? WaitAlertStandardError)?.descriptor == Platform.standardError
    }

    /// Whether the descriptor is a terminal device, whatever `TERM` says.
    package var isTerminalDevice: Bool { Platform.isTerminal(target) }

    public var isInteractive: Bool {
        guard Platform.isTerminal(target) else { return false }
        guard let term = Platform.environment("TERM") else { return false }
        return !term.isEmpty && term != "dumb"
    }

    public var columns: Int? {
        Platform.windowSize(of: target).map { Int($0.columns) }
    }

    public var rows: Int? {
        guard let rows = Platform.windowSize(of: target)?.rows, rows > 0 else { return nil }
        return Int(rows)
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
        guard !TerminalState.shared.ended.load(ordering: .sequentiallyConsistent) else { return true }
        var readerWentAway = false
        let write = {
            let done = bytes.withUnsafeBytes { Platform.writeAll($0, to: self.target) }
            if !done { readerWentAway = Platform.lastErrorIsBrokenPipe }
            return done
        }
        let complete: Bool
        #if os(Linux)
            if brokenPipeSignalBlocked {
                complete = write()
                if !complete { Platform.consumeBrokenPipeSignal() }
            } else {
                complete = Platform.withoutBrokenPipeSignal(on: target, write)
            }
        #else
            complete = Platform.withoutBrokenPipeSignal(on: target, write)
        #endif
        if !complete { broken.store(true, ordering: .relaxed) }
        if readerWentAway { readerGone.store(true, ordering: .relaxed) }
        return complete
    }
}

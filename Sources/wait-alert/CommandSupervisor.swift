import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches the running command on a thread of its own: copies what it writes (passed through
/// unchanged, or cut into lines for the alert), follows the window size, kills the group when an
/// interruption's grace period ends, and reaps the command.
///
/// Memory stays bounded: one read buffer, the unfinished line of each channel, and the last
/// ``Settings/tail`` lines.
struct CommandSupervisor {
    struct Settings: Sendable {
        /// Show the latest line as the alert's text.
        var showsStatus: Bool
        /// Print every display line above the alert as it comes.
        var streamsLines: Bool
        /// How many of the last lines to keep.
        var tail: Int

        /// Whether display output is cut into lines at all.
        var usesLines: Bool { showsStatus || streamsLines || tail > 0 }
    }

    /// How long output may stay quiet after the command exited before the rest is given up: its
    /// background processes may hold the output open.
    static let drainQuietMilliseconds: Int32 = 100
    /// How long output is read at most after the command exited (not counting time spent waiting
    /// for a slow reader to take what was read).
    static let drainLimit = Duration.seconds(2)

    private struct Channel {
        var descriptor: Int32
        /// `wait-alert`'s descriptor the bytes are copied to; `nil` for display output, the only
        /// output cut into lines.
        let passesThroughTo: Int32?
        /// For a pseudo-terminal: `wait-alert`'s terminal whose window size it follows.
        let sizeSource: Int32?
        var windowSize: (columns: UInt16, rows: UInt16)?
        var lines = OutputLines()
        /// The `OSC 9;4` progress the command writes to the terminal.
        var progress = ProgressSequences()
        /// Whether its last `OSC 9;4` was the error state.
        var failing = false
    }

    private let pid: pid_t
    private let settings: Settings
    private let reporter: WaitAlertReporter
    private var channels: [Channel]
    private var tail: LastLines
    private var status: String?
    private let start = ContinuousClock.now
    /// When the command exited, moved on by the time spent waiting for streamed lines to be taken.
    private var exitedAt: ContinuousClock.Instant?
    private var lastSizeCheck = ContinuousClock.now
    private var toldOfStop = false

    init(_ child: ChildProcess, settings: Settings, reporter: WaitAlertReporter) {
        pid = child.pid
        self.settings = settings
        self.reporter = reporter
        channels = child.outputs.map { output in
            let sizeSource = output.channel.sizeSource
            return Channel(
                descriptor: output.descriptor, passesThroughTo: output.channel.passesThroughTo, sizeSource: sizeSource,
                windowSize: sizeSource.flatMap(Platform.windowSize(of:)))
        }
        tail = LastLines(capacity: settings.tail)
    }

    /// Runs until the command has ended and its output is read; returns how it ended and the
    /// last lines it wrote.
    mutating func run() -> (CommandTermination, [String]) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var termination: CommandTermination?
        while true {
            let open = channels.indices.filter { channels[$0].descriptor >= 0 }
            if let exitedAt, open.isEmpty || ContinuousClock.now - exitedAt >= Self.drainLimit { break }
            var requests = open.map { pollfd(fd: channels[$0].descriptor, events: Int16(POLLIN), revents: 0) }
            // Once the command has exited, a wait as long as the quiet period that finds nothing
            // to read ends the run.
            let ready = poll(&requests, nfds_t(requests.count), exitedAt == nil ? 20 : Self.drainQuietMilliseconds)
            if ready == 0, exitedAt != nil { break }
            if ready > 0 {
                for (index, request) in zip(open, requests) where request.revents != 0 {
                    read(channel: index, into: &buffer)
                }
            }
            showPartialLine()
            if termination == nil, let ended = reapIfEnded() {
                termination = ended
                exitedAt = ContinuousClock.now
            }
            if termination == nil {
                SignalForwarder.killIfGraceElapsed()
                SignalForwarder.continueIfStopWasDiscarded()
                followWindowSize()
                noticeStop()
            }
        }
        for index in channels.indices {
            take(channels[index].lines.finish())
            if channels[index].descriptor >= 0 { close(channels[index].descriptor) }
        }
        return (termination ?? .exited(0), tail.lines)
    }

    // MARK: - Output

    private mutating func read(channel index: Int, into buffer: inout [UInt8]) {
        let descriptor = channels[index].descriptor
        let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            let bytes = buffer[..<count]
            if let target = channels[index].passesThroughTo {
                // Not for the alert's terminal: copied, never shown nor kept.
                if !notCountingWaits({ Self.writeAll(bytes, to: target) }) {
                    // The reader went away (`EPIPE`): so does this end, and the command gets SIGPIPE.
                    closeChannel(index)
                }
            } else {
                // Display output: its taskbar progress becomes the alert's (the sequence itself is
                // never shown), its lines the status, the stream and the tail.
                for report in channels[index].progress.feed(bytes) {
                    switch report {
                    case .percent(let percent): reporter.progress(completed: percent, total: 100)
                    case .unknown: reporter.progressUnknown()
                    case .failing(let percent):
                        if let percent { reporter.progress(completed: percent, total: 100) }
                    }
                    let failing = if case .failing = report { true } else { false }
                    if failing != channels[index].failing {
                        channels[index].failing = failing
                        reporter.markFailing(failing)
                    }
                }
                if settings.usesLines { take(channels[index].lines.feed(bytes, at: elapsed)) }
            }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            // End of a pipe; `EIO`: the pseudo-terminal's slave is closed everywhere.
            closeChannel(index)
        }
    }

    private mutating func closeChannel(_ index: Int) {
        guard channels[index].descriptor >= 0 else { return }
        close(channels[index].descriptor)
        channels[index].descriptor = -1
    }

    /// Complete lines of display output: kept for the tail, streamed, shown as the status.
    private mutating func take(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        for line in lines {
            tail.append(line)
            if settings.streamsLines { log(line) }
        }
        if let last = lines.last(where: Self.isVisible) { show(last) }
    }

    /// Streams `line`.
    private mutating func log(_ line: String) {
        let reporter = reporter
        notCountingWaits { reporter.log(line) }
    }

    /// Runs `body`, which may wait for a slow reader (a full pipe, streamed lines not taken yet);
    /// after the command exited, that wait does not count against ``drainLimit``.
    private mutating func notCountingWaits<Result>(_ body: () -> Result) -> Result {
        guard let exitedAt else { return body() }
        let start = ContinuousClock.now
        defer { self.exitedAt = exitedAt + (ContinuousClock.now - start) }
        return body()
    }

    /// A line still being written (a progress bar redrawn with `\r`) becomes the status too, once
    /// it has stood for a moment.
    private mutating func showPartialLine() {
        let now = elapsed
        for channel in channels {
            if let partial = channel.lines.partial(at: now), Self.isVisible(partial) { show(partial) }
        }
    }

    private mutating func show(_ line: String) {
        guard settings.showsStatus, line != status else { return }
        status = line
        reporter.update(line)
    }

    private static func isVisible(_ line: String) -> Bool {
        line.unicodeScalars.contains { !$0.properties.isWhitespace && $0.value >= 0x20 && $0.value != 0x7F }
    }

    private var elapsed: Duration { ContinuousClock.now - start }

    /// Writes all of `bytes` to `descriptor`, waiting while it is full; `false` when it is closed
    /// or broken.
    private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Bool {
        Platform.writeAll(bytes, to: descriptor, patience: -1)
    }

    // MARK: - The process

    /// Reaps the command if it has ended. Before reaping, while the leader is a zombie and its
    /// group id cannot be reused, an interrupted command's background processes are killed.
    private func reapIfEnded() -> CommandTermination? {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        guard result == 0, info.si_signo == SIGCHLD else { return nil }
        SignalForwarder.killStragglersIfInterrupted()
        ProcessGroupGuard.unregister()
        SignalForwarder.reaped()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return CommandTermination(waitStatus: status)
    }

    /// Says so, once, when the command stopped at the terminal: in a process group of its own it is
    /// not in the terminal's foreground, so reading the terminal (`SIGTTIN`) or changing its modes
    /// (`SIGTTOU`) stops it. A stop that follows `wait-alert`'s own (Ctrl-Z) is no news.
    private mutating func noticeStop() {
        guard !toldOfStop else { return }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WSTOPPED | WNOHANG) == 0, info.si_signo == SIGCHLD else { return }
        #if canImport(Darwin)
            let signal = info.si_status
        #else
            let signal = info._sifields._sigchld.si_status
        #endif
        guard signal == SIGTTIN || signal == SIGTTOU else { return }
        toldOfStop = true
        reporter.log(Self.stopHint)
    }

    static let stopHint = "wait-alert: the command stopped (to read the terminal?); use < file. Ctrl-C ends it"

    /// Gives each pseudo-terminal the new size of the terminal it stands for, and tells the command
    /// (`SIGWINCH`). Checked every 100 ms: the overlay's terminal guard owns `SIGWINCH`.
    private mutating func followWindowSize() {
        guard ContinuousClock.now - lastSizeCheck >= .milliseconds(100) else { return }
        lastSizeCheck = ContinuousClock.now
        var changed = false
        for index in channels.indices where channels[index].descriptor >= 0 {
            guard let source = channels[index].sizeSource, let size = Platform.windowSize(of: source) else {
                continue
            }
            if let current = channels[index].windowSize, current == size { continue }
            channels[index].windowSize = size
            Platform.setWindowSize(size, of: channels[index].descriptor)
            changed = true
        }
        if changed { _ = killpg(pid, SIGWINCH) }
    }
}

/// `read(2)`, named apart from ``CommandSupervisor``'s own `read(channel:into:)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

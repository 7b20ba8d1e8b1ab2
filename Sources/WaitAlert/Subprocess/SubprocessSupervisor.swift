/// What the supervisor shows of a command, as an alert's reporter would: the closures it is handed
/// (the supervisor knows nothing above it).
package struct SubprocessReporting: Sendable {
    /// Sets the alert's text.
    package var update: @Sendable (String) -> Void
    /// Prints a line above the alert.
    package var log: @Sendable (String) -> Void
    /// Sets the alert's progress: `completed` of `total`.
    package var progress: @Sendable (_ completed: Int, _ total: Int) -> Void
    /// Takes the alert's progress away.
    package var progressUnknown: @Sendable () -> Void
    /// Marks the alert failing, or no longer.
    package var markFailing: @Sendable (Bool) -> Void
    /// Says what keeps the command from going on.
    package var attention: @Sendable (SubprocessAttention) -> Void
    /// Takes a line the command wrote that begins as a WaitAlert event does (`{"v":`): whether it
    /// was one (it is then neither shown nor passed on). Display output and output passed through
    /// from its standard error are read for events; `nil`: none is taken.
    package var event: (@Sendable (String) -> Bool)?

    package init(
        update: @escaping @Sendable (String) -> Void, log: @escaping @Sendable (String) -> Void,
        progress: @escaping @Sendable (_ completed: Int, _ total: Int) -> Void,
        progressUnknown: @escaping @Sendable () -> Void, markFailing: @escaping @Sendable (Bool) -> Void,
        attention: @escaping @Sendable (SubprocessAttention) -> Void, event: (@Sendable (String) -> Bool)? = nil
    ) {
        self.event = event
        self.update = update
        self.log = log
        self.progress = progress
        self.progressUnknown = progressUnknown
        self.markFailing = markFailing
        self.attention = attention
    }
}

/// What keeps a command from going on.
package enum SubprocessAttention: Equatable, Sendable {
    /// It stopped, by this signal: `SIGTTIN` or `SIGTTOU` when it reads the terminal or changes its
    /// modes (it is not in the terminal's foreground), `SIGSTOP` when it stops itself or is
    /// stopped. Not a Ctrl-Z passed on to it with the program.
    case stopped(Int32)
    /// It turned line editing off on its terminal (a pseudo-terminal) and has written nothing
    /// since: a full-screen program or a pager waiting for keys it cannot get there.
    case wantsTerminal
}

/// How a supervised command ended.
package struct SubprocessOutcome: Sendable {
    package var termination: SubprocessTermination
    /// The signal first sent to stop it, if any (``Subprocess/interruption``).
    package var interruption: Int32?
    /// The last lines of its display output, oldest first.
    package var tail: [String]
    /// What a ``SubprocessChannel/Use/collect(limit:)`` channel kept.
    package var collected: [UInt8]
    /// Whether the collected output went past its limit (the command was then stopped).
    package var overflowed: Bool
}

/// Watches a running command on a thread of its own: copies what it writes (passed through
/// unchanged, kept, or cut into lines for the alert), follows the window size, says when it
/// stopped or wants the terminal, kills the group when a stop's grace period ends, and reaps it.
/// Output that background processes of the command still hold once it has ended is handed to a
/// process of its own (``SubprocessHandOff``), so they keep a working output.
///
/// Memory stays bounded: one read buffer, the unfinished line of each channel, the last
/// ``Settings/tail`` lines, and what a collecting channel keeps up to its limit.
package struct SubprocessSupervisor {
    package struct Settings: Sendable {
        /// Show the latest line as the alert's text.
        package var showsStatus: Bool
        /// Print every display line above the alert as it comes.
        package var streamsLines: Bool
        /// How many of the last lines to keep.
        package var tail: Int

        package init(showsStatus: Bool, streamsLines: Bool, tail: Int) {
            self.showsStatus = showsStatus
            self.streamsLines = streamsLines
            self.tail = tail
        }

        /// Whether display output is cut into lines at all.
        var usesLines: Bool { showsStatus || streamsLines || tail > 0 }
    }

    /// How long output may stay quiet after the command exited before the rest is handed off: its
    /// background processes may hold the output open.
    static let drainQuietMilliseconds: Int32 = 100
    /// How long output is read at most after the command exited (not counting time spent waiting
    /// for a slow reader to take what was read).
    static let drainLimit = Duration.seconds(2)
    /// How long a command waits with line editing off and nothing written before it is said to
    /// want the terminal.
    static let rawModeQuiet = Duration.seconds(1)
    /// The longest wait in `poll` while the command runs: how late a stop, an exit with the output
    /// held open, or the end of a grace period is noticed.
    static let checkMilliseconds: Int32 = 50

    struct Channel {
        var descriptor: Int32
        let channel: SubprocessChannel
        var windowSize: (columns: UInt16, rows: UInt16)?
        var lines = OutputLines()
        /// The `OSC 9;4` progress the command writes to the terminal.
        var progress = ProgressSequences()
        /// Whether its last `OSC 9;4` was the error state.
        var failing = false
        /// When line editing was first seen off, while it stays off and nothing is written.
        var rawSince: Duration?
        var lastOutputAt = Duration.zero
        /// The event lines taken out of output passed through from standard error.
        var events = EventLineFilter()
    }

    let process: Subprocess
    let settings: Settings
    let reporting: SubprocessReporting
    var channels: [Channel]
    var tail: LastLines
    var status: String?
    var collected: [UInt8] = []
    var overflowed = false
    let start = Platform.monotonicNow()
    /// When the command exited, moved on by the time spent waiting for streamed lines to be taken.
    var exitedAt: Duration?
    var lastSizeCheck = Platform.monotonicNow()
    /// ``ProcessGroupGuard/stopsPassedOn`` when last checked: a stop after a Ctrl-Z passed on is
    /// no news.
    var stopsPassedOn = TerminalState.shared.stopsPassedOn.load(ordering: .sequentiallyConsistent)
    var toldOfRawMode = false

    package init(_ process: Subprocess, settings: Settings, reporting: SubprocessReporting) {
        self.process = process
        self.settings = settings
        self.reporting = reporting
        channels = process.outputs.map { output in
            Channel(
                descriptor: output.descriptor, channel: output.channel,
                windowSize: output.channel.terminal.flatMap(Platform.windowSize(of:)))
        }
        tail = LastLines(capacity: settings.tail)
    }

    /// Runs until the command has ended and its output is read; returns how it ended.
    package mutating func run() -> SubprocessOutcome {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var ended: (termination: SubprocessTermination, interruption: Int32?)?
        while true {
            let open = channels.indices.filter { channels[$0].descriptor >= 0 }
            if let exitedAt, open.isEmpty || Platform.monotonicNow() - exitedAt >= Self.drainLimit { break }
            // Once the command has exited, a wait as long as the quiet period that finds nothing
            // to read ends the run.
            let timeout = exitedAt == nil ? Self.checkMilliseconds : Self.drainQuietMilliseconds
            let ready = Platform.waitForInput(open.map { channels[$0].descriptor }, milliseconds: timeout)
            if ready == nil, exitedAt != nil { break }
            for (index, isReady) in zip(open, ready ?? []) where isReady {
                read(channel: index, into: &buffer)
            }
            showPartialLine()
            if ended == nil, let reaped = process.reapIfEnded() {
                ended = reaped
                exitedAt = Platform.monotonicNow()
            }
            if ended == nil {
                process.killIfGraceElapsed()
                ProcessGroupGuard.continueIfStopWasDiscarded()
                noticeStop()
                if Platform.monotonicNow() - lastSizeCheck >= .milliseconds(100) {
                    lastSizeCheck = Platform.monotonicNow()
                    followWindowSize()
                    noticeRawMode()
                }
            }
        }
        for index in channels.indices { take(channels[index].lines.finish()) }
        handOffHeldChannels()
        return SubprocessOutcome(
            termination: ended?.termination ?? .exited(0), interruption: ended?.interruption, tail: tail.lines,
            collected: collected, overflowed: overflowed)
    }

    var elapsed: Duration { Platform.monotonicNow() - start }

    // MARK: - The process

    /// Says so when the command stopped — reading the terminal (`SIGTTIN`), changing its modes
    /// (`SIGTTOU`), stopping itself (`SIGSTOP`) — unless the stop was a Ctrl-Z passed on to it.
    mutating func noticeStop() {
        guard let signal = process.stopSinceLastAsked() else { return }
        let passedOn = TerminalState.shared.stopsPassedOn.load(ordering: .sequentiallyConsistent)
        defer { stopsPassedOn = passedOn }
        if signal == Signal.terminalStop, passedOn != stopsPassedOn { return }
        reporting.attention(.stopped(signal))
    }

    /// Says so, once, when the command turned line editing off on its pseudo-terminal and has
    /// written nothing for ``rawModeQuiet``: a pager or a full-screen program (`less`, `top`,
    /// `vi`) waiting for keys, which reach the real terminal instead.
    mutating func noticeRawMode() {
        guard !toldOfRawMode else { return }
        let now = elapsed
        for index in channels.indices where channels[index].descriptor >= 0 && channels[index].channel.terminal != nil {
            guard Platform.readsLines(channels[index].descriptor) == false else {
                channels[index].rawSince = nil
                continue
            }
            let since = max(channels[index].rawSince ?? now, channels[index].lastOutputAt)
            channels[index].rawSince = since
            if now - since >= Self.rawModeQuiet {
                toldOfRawMode = true
                reporting.attention(.wantsTerminal)
                return
            }
        }
    }

    /// Gives each pseudo-terminal the new size of the terminal it stands for, and tells the command
    /// (`SIGWINCH`). Checked every 100 ms: the overlay's terminal guard owns `SIGWINCH`.
    mutating func followWindowSize() {
        var changed = false
        for index in channels.indices where channels[index].descriptor >= 0 {
            guard let source = channels[index].channel.terminal, let size = Platform.windowSize(of: source) else {
                continue
            }
            if let current = channels[index].windowSize, current == size { continue }
            channels[index].windowSize = size
            Platform.setWindowSize(size, of: channels[index].descriptor)
            changed = true
        }
        if changed { Platform.signal(group: process.pid, Signal.windowChanged) }
    }
}

extension WaitAlertReporter {
    /// Runs a command under this alert: its output lines are the alert's text as they come, its
    /// last lines are kept, and it is stopped — its whole process group — when the work is
    /// cancelled.
    ///
    /// ```swift
    /// try await withWaitAlert("Archiving", success: "Wrote \(archive)") { alert in
    ///     try await alert.run("tar", "-c", "-v", "-f", archive, "-C", folder, ".")
    /// }
    /// ```
    ///
    /// The same as ``run(_:output:environment:workingDirectory:keeping:)`` with the command's
    /// words as arguments.
    @discardableResult
    public func run(
        _ executable: String, _ arguments: String..., output: WaitAlertCommandOutput = .shown,
        environment: [String: String] = [:], workingDirectory: String? = nil, keeping tail: Int = 10
    ) async throws -> WaitAlertCommandResult {
        try await run(
            [executable] + arguments, output: output, environment: environment, workingDirectory: workingDirectory,
            keeping: tail)
    }

    /// Runs a command under this alert: its output lines are the alert's text as they come, its
    /// last lines are kept, and it is stopped — its whole process group — when the work is
    /// cancelled. Returns once it has ended; throws when it failed.
    ///
    /// ```swift
    /// let version = try await withWaitAlert("Building") { alert in
    ///     try await alert.run(["swift", "build", "-c", "release"])
    ///     return try await alert.run(["git", "describe", "--tags"], output: .collected).standardOutput
    /// }
    /// ```
    ///
    /// - **Output**: what the command writes to standard error — and to standard output unless it
    ///   is collected (``WaitAlertCommandOutput``) — is cut into lines as a terminal would show
    ///   them: the latest line is the alert's text (a line that shows nothing leaves the text as
    ///   it was), a line still being written — a progress bar redrawn with `\r` — shows after a
    ///   tenth of a second, and the last `keeping` lines are kept. When standard error is a
    ///   terminal the command writes to a pseudo-terminal of its size, so it keeps its colours,
    ///   line buffering and progress bars (`git clone` shows its progress only on a terminal);
    ///   otherwise to a pipe. Its taskbar progress (`OSC 9;4`, as cargo writes) is the alert's.
    ///   Nothing it writes reaches the program's own output; background processes it leaves
    ///   running keep a working output, copied to standard error.
    /// - **Input**: `/dev/null`. It runs in a process group of its own, not in the terminal's
    ///   foreground: a command that reads the terminal itself (a password prompt) stops, and a
    ///   pager or full-screen program waits for keys it cannot get; a log line says so, and Ctrl-C
    ///   ends it. A program built on WaitAlert reports its alerts as rows of this one, and its
    ///   questions are asked here, on this program's terminal.
    /// - **Failure**: a status other than 0, or a signal that ended it, throws
    ///   ``WaitAlertCommandError`` with its last lines; when the alert ends with it, they are
    ///   printed above the final line (`✖ Testing: make exited with status 2`).
    /// - **Cancellation** — Ctrl-C, the alert's timeout, a sibling task that failed under
    ///   ``WaitAlertFailurePolicy/failFast`` — sends the command's whole process group the signal that
    ///   cancelled the work (`SIGINT` after Ctrl-C, `SIGTERM` otherwise), and `SIGKILL` if it has
    ///   not ended 3 seconds later; `run` then throws `CancellationError`, and no process of the
    ///   group is left behind. Ctrl-Z stops the group with the program, `fg` and `bg` continue it.
    ///   A program ended by a signal no overlay handles (its output piped, so no Ctrl-C is
    ///   caught) passes the signal on to the group first, as a shell's job would get it.
    ///
    /// - Parameters:
    ///   - command: the program (looked up in `PATH` unless it holds a `/`) and its arguments,
    ///     passed as they are, with no shell in between.
    ///   - output: whether standard output is shown (the default) or collected.
    ///   - environment: variables added to the program's environment for the command (one
    ///     named there replaces the program's).
    ///   - workingDirectory: where the command runs; the program's current directory when `nil`.
    ///   - tail: how many of the last lines to keep (0 for none).
    /// - Returns: the collected standard output and the last lines.
    /// - Throws: ``WaitAlertCommandError`` when the command failed or could not be started,
    ///   `CancellationError` when the work was cancelled (also before the command started).
    @discardableResult
    public func run(
        _ command: [String], output: WaitAlertCommandOutput = .shown, environment: [String: String] = [:],
        workingDirectory: String? = nil, keeping tail: Int = 10
    ) async throws -> WaitAlertCommandResult {
        try Task.checkCancellation()
        let terminal: Int32? = Platform.isTerminal(Platform.standardError) ? Platform.standardError : nil
        let channels =
            switch output.kind {
            case .shown:
                [SubprocessChannel(descriptors: [1, 2], terminal: terminal, use: .display)]
            case .collected(let limit):
                [
                    SubprocessChannel(descriptors: [1], terminal: nil, use: .collect(limit: limit)),
                    SubprocessChannel(descriptors: [2], terminal: terminal, use: .display),
                ]
            }
        let process: Subprocess
        do {
            process = try Subprocess.spawn(
                command, channels: channels, standardInput: .null,
                // A program built on WaitAlert reports under this alert, and asks its questions here.
                environment: childProcessEnvironment.merging(environment) { $1 },
                workingDirectory: workingDirectory)
        } catch {
            throw WaitAlertCommandError(
                command: command, reason: .notStarted(errno: error.code), workingDirectory: workingDirectory)
        }
        let events = await commandEvents()
        var reporting = reporting(for: command, pid: process.pid)
        if let events { reporting.event = { @Sendable line in events.take(line) } }
        let outcome = await SubprocessSupervisor.supervise(
            process, settings: .init(showsStatus: true, streamsLines: false, tail: max(tail, 0)),
            reporting: reporting)
        await events?.finish()
        if Task.isCancelled { throw CancellationError() }
        let reason: WaitAlertCommandError.Reason? =
            switch outcome.termination {
            case _ where outcome.overflowed:
                if case .collected(let limit) = output.kind { .outputOverLimit(limit) } else { nil }
            case .exited(0): nil
            case .exited(let status): .exited(status)
            case .signaled(let signal): .signaled(signal)
            }
        guard let reason else {
            mailbox.failureReport = []
            return WaitAlertCommandResult(standardOutputBytes: outcome.collected, lastLines: outcome.tail)
        }
        // Printed above the final line if the alert fails, as the lines of `follow(lines:)` are.
        mailbox.failureReport = outcome.tail
        throw WaitAlertCommandError(command: command, reason: reason, lastLines: outcome.tail)
    }

    /// Where the WaitAlert events a command prints go: rows of this alert (``CommandEvents``);
    /// `nil` for a reporter of no alert.
    @MainActor
    package func commandEvents() -> CommandEvents? {
        guard let parent else { return nil }
        return CommandEvents(presenter: parent.presenter, target: parent.session)
    }

    /// What the supervisor of `command` (process `pid`) shows, through this reporter.
    private func reporting(for command: [String], pid: Int32) -> SubprocessReporting {
        let name = command.first ?? ""
        return SubprocessReporting(
            update: update, log: log, progress: { progress(completed: $0, total: $1) },
            progressUnknown: progressUnknown, markFailing: markFailing,
            attention: { attention in
                switch attention {
                case .stopped(let signal) where Platform.isTerminalStop(signal):
                    log(
                        "\(name) stopped to use the terminal (a password prompt?), which it cannot under an alert; Ctrl-C ends it"
                    )
                case .stopped(let signal):
                    let signal = Platform.signalName(signal)
                    log("\(name) stopped (\(signal)); kill -CONT \(pid) continues it, Ctrl-C ends it")
                case .wantsTerminal:
                    log(
                        "\(name) waits for keys (a pager or a full-screen program?), which it cannot get under an alert; Ctrl-C ends it"
                    )
                }
            })
    }
}

import Dispatch
import Synchronization
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of `wait-alert`: starts the command, shows the alert while it runs, and returns the
/// exit status.
@MainActor
enum CommandRun {
    /// What the final line says of a command that `SIGPIPE` ended while `wait-alert`'s standard
    /// output is a pipe: the reader of its output went away.
    static let readerGone = "killed by SIGPIPE: the reader of its output went away"

    /// Runs the command as `options` say; `closed` are the standard descriptors `wait-alert` was
    /// started without.
    static func run(_ options: CommandLineOptions, closed: Set<Int32>) async -> Int32 {
        let mode = options.progress ?? TerminalOverlay.Mode.environment
        let interactive = mode.drawsInteractively(on: WaitAlertStandardError.shared)
        WaitAlertPresenter.shared = WaitAlertPresenter(
            // wait-alert writes nothing of its own while the alert shows: no output to catch.
            renderers: [
                TerminalOverlay(integration: .init(capturesOutput: false, cancelsOnTermination: true), mode: mode)
            ],
            timing: .terminal)
        // A closed standard output is noticed as `EPIPE`; the command gets SIGPIPE at its default.
        var ignore = sigaction()
        #if canImport(Glibc) || canImport(Musl)
            ignore.__sigaction_handler.sa_handler = SIG_IGN
        #else
            ignore.__sigaction_u.__sa_handler = SIG_IGN
        #endif
        sigemptyset(&ignore.sa_mask)
        _ = sigaction(SIGPIPE, &ignore, nil)
        // Without an overlay catching them, Ctrl-C, SIGTERM, SIGHUP and SIGQUIT are passed on to
        // the command, and wait-alert waits for it to end.
        ProcessGroupGuard.setInterruption(.passesOn)
        // Before the command starts: it reports into the alert through WAIT_ALERT_SOCKET.
        WaitAlertPresenter.shared.exportSocketToChildProcesses()

        let error = destination(of: STDERR_FILENO, closed: closed)
        var alertTerminal: UInt64?
        if interactive, case .terminal(let device) = error { alertTerminal = device }
        var plan = OutputPlan.make(
            standardOutput: destination(of: STDOUT_FILENO, closed: closed), standardError: error,
            alertTerminal: alertTerminal)
        // In a CI service's log the command's lines fold in the alert's group.
        let folds = (mode == .github || mode == .gitlab) && !interactive && !closed.contains(STDERR_FILENO)
        if folds {
            plan = plan.foldedIntoTheLog(
                standardOutputIsTheLog: !closed.contains(STDOUT_FILENO)
                    && Platform.isSameFile(STDOUT_FILENO, STDERR_FILENO))
        }
        let child: Subprocess
        do {
            child = try Subprocess.spawn(options.command, channels: plan.channels.map(\.subprocessChannel))
        } catch {
            printError("wait-alert: cannot run '\(options.command[0])': \(error)")
            return CommandTermination.cannotRun
        }

        let settings = SubprocessSupervisor.Settings(
            showsStatus: options.status == .lastLine && interactive,
            streamsLines: (options.showOutput == .always && interactive) || folds,
            tail: interactive && options.showOutput == .onFailure ? options.tail : 0)
        let ended = Mutex<SubprocessOutcome?>(nil)
        let success = options.effectiveSuccess.map { text in { (_: Void) in text } }
        do {
            try await withWaitAlert(options.effectiveTitle, success: success, timeout: options.timeout) { alert in
                // WaitAlert events the command prints (a program run with WAIT_ALERT_PROGRESS=json,
                // here or on another machine) are rows of this alert.
                let events = alert.commandEvents()
                var reporting = reporting(alert, pid: child.pid)
                if let events { reporting.event = { @Sendable line in events.take(line) } }
                let outcome = await SubprocessSupervisor.supervise(child, settings: settings, reporting: reporting)
                events?.finish()
                ended.withLock { $0 = outcome }
                // Interrupted, or it ended with 130 after the user cancelled one of its questions
                // here (Escape or Ctrl-C at a question it asked through the socket).
                let questionCancelled =
                    outcome.termination == .exited(128 + SIGINT) && ProcessGroupGuard.lastCancellingSignal == SIGINT
                if outcome.interruption != nil || questionCancelled { throw CancellationError() }
                guard outcome.termination.succeeded else {
                    // Stopped writing to a pipe whose reader went away (`wait-alert -- cmd | head`),
                    // as a shell stops it: news, not a failure. The exit status stays 141. (A pipe
                    // or socket of its own closing, with the output elsewhere, is a failure.)
                    if outcome.termination == .signaled(SIGPIPE), Self.outputIsAPipe {
                        alert.warn("\(options.effectiveTitle): \(Self.readerGone)")
                        return
                    }
                    outcome.tail.forEach(alert.log)
                    throw CommandFailure(termination: outcome.termination)
                }
            }
        } catch is WaitAlertTimeoutError {
            return CommandTermination.timedOut
        } catch {
            // The command failed or was interrupted: its termination says how.
        }
        let outcome = ended.withLock { $0 }
        let termination = outcome?.termination ?? .exited(1)
        return termination.exitStatus(interruptedBy: outcome?.interruption)
    }

    /// What the supervisor shows, through `alert`; what `wait-alert` says when the command
    /// (process `pid`) cannot go on.
    nonisolated private static func reporting(_ alert: WaitAlertReporter, pid: Int32) -> SubprocessReporting {
        SubprocessReporting(
            update: alert.update, log: alert.log, progress: { alert.progress(completed: $0, total: $1) },
            progressUnknown: alert.progressUnknown, markFailing: alert.markFailing,
            attention: { alert.log(hint(for: $0, pid: pid)) })
    }

    /// What `wait-alert` says when the command stopped or waits for keys.
    nonisolated static func hint(for attention: SubprocessAttention, pid: Int32) -> String {
        switch attention {
        case .stopped(let signal) where Platform.isTerminalStop(signal):
            return "wait-alert: the command stopped (to read the terminal?); use < file. Ctrl-C ends it"
        case .stopped(let signal):
            let name = Platform.signalName(signal)
            return "wait-alert: the command stopped (\(name)); if it needs the terminal, run it without wait-alert. "
                + "kill -CONT \(pid) continues it, Ctrl-C ends it"
        case .wantsTerminal:
            return "wait-alert: the command waits for keys (a pager or a full-screen program?), which reach "
                + "wait-alert's terminal, not its own; run it without wait-alert. Ctrl-C ends it"
        }
    }

    /// Whether `wait-alert`'s standard output is a pipe or a socket.
    nonisolated private static var outputIsAPipe: Bool {
        var status = stat()
        guard fstat(Platform.standardOutput, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFSOCK
    }

    /// Where `wait-alert`'s `descriptor` leads.
    private static func destination(of descriptor: Int32, closed: Set<Int32>) -> OutputPlan.Destination {
        if closed.contains(descriptor) { return .closed }
        guard isatty(descriptor) == 1, let device = Platform.terminalDevice(of: descriptor) else { return .other }
        return .terminal(device: device)
    }

    /// The device of the terminal `descriptor` is open on. `/dev/tty` is a device of its own to
    /// `fstat`; on Linux `TIOCGDEV` names the terminal behind it, so `> /dev/tty` is the same
    /// terminal as the one standard error is open on by name.
    private static func printError(_ message: String) {
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

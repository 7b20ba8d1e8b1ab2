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
    /// Runs the command as `options` say; `closed` are the standard descriptors `wait-alert` was
    /// started without.
    static func run(_ options: CommandLineOptions, closed: Set<Int32>) async -> Int32 {
        let mode = options.progress ?? TerminalOverlay.Mode.environment
        let interactive =
            switch mode {
            case .auto: WaitAlertStandardError.shared.isInteractive
            case .tty: WaitAlertStandardError.shared.isTerminalDevice
            case .plain, .json, .off, .accessible: false
            }
        WaitAlertPresenter.shared = WaitAlertPresenter(
            // wait-alert writes nothing of its own while the alert shows: no output to catch.
            renderers: [
                TerminalOverlay(integration: .init(capturesOutput: false, cancelsOnTermination: true), mode: mode)
            ],
            timing: .terminal)
        SignalForwarder.install()
        // Before the command starts: it reports into the alert through WAIT_ALERT_SOCKET.
        WaitAlertPresenter.shared.exportSocketToChildProcesses()

        let error = destination(of: STDERR_FILENO, closed: closed)
        var alertTerminal: UInt64?
        if interactive, case .terminal(let device) = error { alertTerminal = device }
        let plan = OutputPlan.make(
            standardOutput: destination(of: STDOUT_FILENO, closed: closed), standardError: error,
            alertTerminal: alertTerminal)
        let child: ChildProcess
        SignalForwarder.starting()
        do {
            child = try ChildProcess.spawn(options.command, plan: plan)
        } catch {
            SignalForwarder.notStarted()
            printError("wait-alert: cannot run '\(options.command[0])': \(error)")
            return CommandTermination.cannotRun
        }
        ProcessGroupGuard.register(child.pid)
        SignalForwarder.started(group: child.pid)

        let settings = CommandSupervisor.Settings(
            showsStatus: options.status == .lastLine && interactive,
            streamsLines: options.showOutput == .always && interactive,
            tail: interactive && options.showOutput == .onFailure ? options.tail : 0)
        let ended = Mutex<CommandTermination?>(nil)
        let success = options.effectiveSuccess.map { text in { (_: Void) in text } }
        do {
            try await withWaitAlert(options.effectiveTitle, success: success, timeout: options.timeout) { alert in
                let (termination, tail) = await supervise(child, settings: settings, reporter: alert)
                ended.withLock { $0 = termination }
                if SignalForwarder.interruption != nil { throw CancellationError() }
                guard termination.succeeded else {
                    tail.forEach(alert.log)
                    throw CommandFailure(termination: termination)
                }
            }
        } catch is WaitAlertTimeoutError {
            return CommandTermination.timedOut
        } catch {
            // The command failed or was interrupted: its termination says how.
        }
        let termination = ended.withLock { $0 } ?? .exited(1)
        return termination.exitStatus(interruptedBy: SignalForwarder.interruption)
    }

    /// Runs the supervisor on a thread of its own until the command has ended; a cancelled work
    /// (Ctrl-C or `SIGTERM` under the overlay, or the timeout) passes the signal on to it.
    nonisolated private static func supervise(
        _ child: ChildProcess, settings: CommandSupervisor.Settings, reporter: WaitAlertReporter
    ) async -> (CommandTermination, [String]) {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue(label: "wait-alert.supervisor").async {
                    var supervisor = CommandSupervisor(child, settings: settings, reporter: reporter)
                    continuation.resume(returning: supervisor.run())
                }
            }
        } onCancel: {
            SignalForwarder.forward(ProcessGroupGuard.lastCancellingSignal ?? SIGTERM)
        }
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

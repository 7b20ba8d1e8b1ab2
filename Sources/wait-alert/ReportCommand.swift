import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert report`: a shell script's reports into the alert it runs under
/// (`WAIT_ALERT_SOCKET`, exported by the program showing the alert, such as `wait-alert` itself).
///
/// `--text`, `--progress` (with `--unit`), `--log` and `--failing` go to the alert the script
/// runs under;
/// `--task TITLE -- COMMAND…` shows a child task around a command, ended by how the command ends,
/// and exits with the command's status. Outside any alert nothing is reported, the command still
/// runs, and the status is the same: scripts run unchanged anywhere.
enum ReportCommand {
    /// What to report, in the order given.
    struct Options: Equatable {
        enum Report: Equatable {
            case text(String)
            case progress(completed: Int, total: Int?)
            case log(String)
            case failing(Bool)
        }
        var reports: [Report] = []
        var unit: String?
        var task: String?
        var command: [String] = []
    }

    static let usage = """
        usage: wait-alert report [--text TEXT] [--progress N[/TOTAL]] [--unit UNIT] [--log LINE]...
                                 [--failing yes|no] [--task TITLE -- COMMAND [ARG...]]

        Reports into the alert this script runs under (wait-alert -- ./script.sh): a new text,
        progress (UNIT: count, bytes, binaryBytes or a name such as files), log lines, that the
        work is failing while it goes on (or no longer), or a child task around COMMAND.
        Outside any alert it reports nothing; COMMAND still runs.

        Exit status: 0, or COMMAND's (128+n when signal n ended it; 127 when it cannot be
        started); 2 for invalid arguments.
        """

    /// Reads the arguments after `report`: the options, or what is wrong with them.
    static func parse(_ arguments: [String]) -> Result<Options, ReportError> {
        var options = Options()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .failure(.help) }
            if argument == "--" {
                options.command = Array(arguments[index...])
                break
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard ["--text", "--progress", "--unit", "--log", "--failing", "--task"].contains(name) else {
                return .failure(.invalid("unknown report option '\(name)'"))
            }
            if value == nil {
                guard index < arguments.endIndex else { return .failure(.invalid("option '\(name)' needs a value")) }
                value = arguments[index]
                index += 1
            }
            let text = value ?? ""
            switch name {
            case "--text": options.reports.append(.text(text))
            case "--log": options.reports.append(.log(text))
            case "--unit": options.unit = text
            case "--task": options.task = text
            case "--failing":
                guard text == "yes" || text == "no" else {
                    return .failure(.invalid("invalid --failing '\(text)' (expected yes or no)"))
                }
                options.reports.append(.failing(text == "yes"))
            default:
                guard let progress = progress(text) else {
                    return .failure(.invalid("invalid --progress '\(text)' (expected N or N/TOTAL, such as 40/100)"))
                }
                options.reports.append(.progress(completed: progress.completed, total: progress.total))
            }
        }
        if options.task != nil, options.command.isEmpty {
            return .failure(.invalid("--task needs a command after '--'"))
        }
        if options.task == nil, !options.command.isEmpty {
            return .failure(.invalid("a command after '--' needs --task"))
        }
        return .success(options)
    }

    /// `N` or `N/TOTAL`, both whole numbers from 0.
    private static func progress(_ text: String) -> (completed: Int, total: Int?)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let completed = Int(parts[0]), completed >= 0 else { return nil }
        guard parts.count == 2 else { return (completed, nil) }
        guard let total = Int(parts[1]), total >= 0 else { return nil }
        return (completed, total)
    }

    enum ReportError: Error, Equatable {
        case help
        case invalid(String)
    }

    /// The lines `options` send, before a task's command runs (its `start`, with id 1, last).
    static func lines(_ options: Options) -> [String] {
        let unit = WaitAlertEvent.unit(named: options.unit)
        var lines = options.reports.map { report -> String in
            let kind: WaitAlertEvent.Kind =
                switch report {
                case .text(let text): .text(text)
                case .log(let line): .log(line)
                case .progress(let completed, let total): .progress(completed: completed, total: total, unit: unit)
                case .failing(let failing): .failing(failing)
                }
            return WaitAlertEvent(kind, alert: nil, time: .zero).jsonLine
        }
        if let task = options.task {
            lines.append(WaitAlertEvent(.start(title: task), alert: taskID, time: .zero).jsonLine)
        }
        return lines
    }

    /// The id of the task `--task` shows, within the connection.
    static let taskID = WaitAlertID(rawValue: 1)

    /// The `end` line of the task, from how its command ended.
    static func endLine(title: String, _ termination: CommandTermination) -> String {
        let name = WaitAlertOutcome.name(fromTitle: title)
        let outcome: WaitAlertOutcome =
            switch termination {
            case .exited(0): .success(nil)
            case .signaled(SIGINT), .signaled(SIGTERM), .signaled(SIGHUP): .cancelled
            default: .failure("\(name): \(termination)")
            }
        let text = outcome.finalText(title: title, workDuration: .zero)
        return WaitAlertEvent(.end(outcome: outcome, text: text, elapsed: .zero), alert: taskID, time: .zero).jsonLine
    }

    /// Runs `wait-alert report` with `arguments`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(.help):
            print(usage)
            return 0
        case .failure(.invalid(let problem)):
            let message = "wait-alert: \(problem)\nTry 'wait-alert report --help' for more information.\n"
            _ = Platform.writeAll(Array(message.utf8), to: STDERR_FILENO)
            return 2
        }
        let parent = EventSocket.connectToParent(patience: 2000)
        defer { if let parent { close(parent) } }
        if let parent {
            let bytes = lines(options).map { $0 + "\n" }.joined()
            _ = EventSocket.send(Array(bytes.utf8), on: parent)
        }
        guard let title = options.task else { return 0 }
        let termination = runCommand(options.command)
        if let parent, let termination {
            _ = EventSocket.send(Array((endLine(title: title, termination) + "\n").utf8), on: parent)
        }
        guard let termination else { return CommandTermination.cannotRun }
        return termination.exitStatus()
    }

    /// Runs `command` in this process group with this environment, and waits for it; `nil` when
    /// it cannot be started (the reason is printed). Ctrl-C reaches the command, which decides;
    /// this process waits for it to say how it ended.
    private static func runCommand(_ command: [String]) -> CommandTermination? {
        var ignore = sigaction()
        #if canImport(Glibc) || canImport(Musl)
            ignore.__sigaction_handler.sa_handler = SIG_IGN
        #else
            ignore.__sigaction_u.__sa_handler = SIG_IGN
        #endif
        var savedInterrupt = sigaction()
        var savedQuit = sigaction()
        _ = sigaction(SIGINT, &ignore, &savedInterrupt)
        _ = sigaction(SIGQUIT, &ignore, &savedQuit)
        defer {
            _ = sigaction(SIGINT, &savedInterrupt, nil)
            _ = sigaction(SIGQUIT, &savedQuit, nil)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        _ = posix_spawnattr_setsigdefault(&attributes, &defaults)
        _ = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #if canImport(Darwin)
            let environment = _NSGetEnviron().pointee
        #else
            let environment = environ
        #endif
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], nil, &attributes, argv, environment)
        guard result == 0 else {
            let message = "wait-alert: cannot run '\(command[0])': \(String(cString: strerror(result)))\n"
            _ = Platform.writeAll(Array(message.utf8), to: STDERR_FILENO)
            return nil
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return CommandTermination(waitStatus: status)
    }
}

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
/// runs under (the row `WAIT_ALERT_PARENT` names);
/// `--task TITLE -- COMMAND…` shows a child task around a command — `wait-alert --title TITLE --
/// COMMAND…` reporting into that alert: the command's output is the task's status and, when it
/// fails, its tail; the task ends as the command does, and `report` exits with the command's
/// status. The command reports under the task. Outside any alert nothing is reported, the command
/// still runs as it is, and the status is the same: scripts run unchanged anywhere.
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
        work is failing while it goes on (or no longer), or a child task around COMMAND, as
        wait-alert --title TITLE -- COMMAND would show it there: its output is the task's
        status, and its last lines show when it fails. Tasks started side by side (&) are
        siblings; what COMMAND reports goes to its task. Outside any alert it reports nothing;
        COMMAND still runs as it is.

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
                    return .failure(
                        .invalid(
                            "invalid --progress '\(text)' (expected N or N/TOTAL, such as 40/100, "
                                + "whole numbers up to \(WaitAlertEvent.largestNumber))"))
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

    /// `N` or `N/TOTAL`, both whole numbers from 0 to the largest the event stream carries.
    private static func progress(_ text: String) -> (completed: Int, total: Int?)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let range = 0...WaitAlertEvent.largestNumber
        guard (1...2).contains(parts.count), let completed = Int(parts[0]), range.contains(completed) else {
            return nil
        }
        guard parts.count == 2 else { return (completed, nil) }
        guard let total = Int(parts[1]), range.contains(total) else { return nil }
        return (completed, total)
    }

    enum ReportError: Error, Equatable {
        case help
        case invalid(String)
    }

    /// The lines `options` send, before a task's command runs.
    static func lines(_ options: Options) -> [String] {
        let unit = WaitAlertEvent.unit(named: options.unit)
        return options.reports.map { report -> String in
            let kind: WaitAlertEvent.Kind =
                switch report {
                case .text(let text): .text(text)
                case .log(let line): .log(line)
                case .progress(let completed, let total): .progress(completed: completed, total: total, unit: unit)
                case .failing(let failing): .failing(failing)
                }
            return WaitAlertEvent(kind, alert: nil, time: .zero).jsonLine
        }
    }

    /// Runs `wait-alert report` with `arguments`; returns the exit status. `closed` are the
    /// standard descriptors it was started without.
    @MainActor
    static func run(_ arguments: [String], closed: Set<Int32>) async -> Int32 {
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
        var parent = EventSocket.connectToParent()
        if let parent, !options.reports.isEmpty {
            parent.write(Array(lines(options).map { $0 + "\n" }.joined().utf8))
        }
        guard let title = options.task else { return 0 }
        guard parent != nil else {
            guard let termination = runCommand(options.command) else { return CommandTermination.cannotRun }
            return termination.exitStatus()
        }
        parent = nil  // the task's own alert attaches on a connection of its own
        return await CommandRun.run(CommandLineOptions(title: title, command: options.command), closed: closed)
    }

    /// Runs `command` in this process group with this environment, and waits for it; `nil` when
    /// it cannot be started (the reason is printed). Ctrl-C reaches the command, which decides;
    /// this process waits for it to say how it ended. (Outside any alert.)
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

import WaitAlert

/// What `wait-alert` was asked to do, read from its arguments. Pure: no I/O.
struct CommandLineOptions: Equatable, Sendable {
    /// What the status line of the alert shows while the command runs.
    enum Status: String, Equatable, Sendable {
        /// The command's latest output line.
        case lastLine = "last-line"
        /// The title only.
        case none
    }

    /// When the command's display output (what would have reached a terminal) is shown.
    enum ShowOutput: String, Equatable, Sendable {
        /// Every line, above the alert, as it comes.
        case always
        /// The last ``CommandLineOptions/tail`` lines, above the final line, when the command fails.
        case onFailure = "on-failure"
        /// Never: only the final line.
        case never
    }

    /// The result of reading the arguments.
    enum Parsed: Equatable, Sendable {
        /// Run the command.
        case run(CommandLineOptions)
        /// Print the usage on standard output and exit with 0.
        case help
        /// Print the version on standard output and exit with 0.
        case version
        /// Print `message` and a hint to `--help` on standard error and exit with 2.
        case invalid(String)
    }

    var title: String?
    var success: String?
    var status = Status.lastLine
    var showOutput = ShowOutput.onFailure
    var tail = 10
    var timeout: Duration?
    /// `--progress`: what the alert writes; `nil` for what `WAIT_ALERT_PROGRESS` says.
    var progress: TerminalOverlay.Mode?
    /// The command and its arguments; never empty.
    var command: [String] = []

    /// The alert's title: `--title`, or the command line when there is none or it would show
    /// nothing (empty, blank, or only control characters and escape sequences).
    var effectiveTitle: String {
        if let title, Self.showsSomething(title) { return title }
        return ShellQuoting.commandLine(command)
    }

    /// The final text on success: `--success`, or `nil` (the title) when there is none or it would
    /// show nothing.
    var effectiveSuccess: String? {
        success.flatMap { Self.showsSomething($0) ? $0 : nil }
    }

    /// Whether `text` leaves anything visible once sanitized as the alert sanitizes its texts.
    private static func showsSomething(_ text: String) -> Bool {
        TextSanitizer.line(text).contains { !$0.isWhitespace }
    }

    /// Reads `arguments` (without the program's name).
    ///
    /// Options come before the command; `--` ends them, and so does the first word that does not
    /// start with `-`. Each option takes its value as the next argument or after `=`
    /// (`--tail=5`). A repeated option keeps its last value. `--help` and `--version` answer
    /// as soon as they are met among the options.
    static func parse(_ arguments: [String]) -> Parsed {
        var options = CommandLineOptions()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" { break }
            if !argument.hasPrefix("-") || argument == "-" {
                index -= 1
                break
            }
            if argument == "--help" || argument == "-h" { return .help }
            if argument == "--version" { return .version }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard Self.valueOptions.contains(name) else { return .invalid("unknown option '\(name)'") }
            if value == nil {
                guard index < arguments.endIndex else { return .invalid("option '\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            if let problem = options.apply(name, value ?? "") { return .invalid(problem) }
        }
        options.command = Array(arguments[index...])
        guard let program = options.command.first else { return .invalid("no command given") }
        guard !program.isEmpty else { return .invalid("the command is an empty string") }
        return .run(options)
    }

    private static let valueOptions: Set = [
        "--title", "--success", "--status", "--show-output", "--tail", "--timeout", "--progress",
    ]

    /// Sets the option `name` to `value`; returns what is wrong with the value, if anything.
    private mutating func apply(_ name: String, _ value: String) -> String? {
        switch name {
        case "--title":
            title = value
        case "--success":
            success = value
        case "--status":
            guard let status = Status(rawValue: value) else {
                return "invalid --status '\(value)' (expected last-line or none)"
            }
            self.status = status
        case "--show-output":
            guard let show = ShowOutput(rawValue: value) else {
                return "invalid --show-output '\(value)' (expected always, on-failure or never)"
            }
            showOutput = show
        case "--tail":
            guard let lines = Int(value), lines >= 0, lines <= 100_000 else {
                return "invalid --tail '\(value)' (expected a number of lines from 0 to 100000)"
            }
            tail = lines
        case "--progress":
            guard let mode = TerminalOverlay.Mode(value) else {
                let names = TerminalOverlay.Mode.allCases.map(\.rawValue).joined(separator: ", ")
                return "invalid --progress '\(value)' (expected \(names))"
            }
            progress = mode
        default:  // --timeout
            switch DurationArgument.read(value) {
            case .success(let duration):
                timeout = duration
            case .failure(.tooLong):
                return "invalid --timeout '\(value)' (the longest is \(DurationArgument.longestText))"
            case .failure(.notADuration):
                return "invalid --timeout '\(value)' (expected a positive duration such as 500ms, 30s, 2m or 1h)"
            }
        }
        return nil
    }
}

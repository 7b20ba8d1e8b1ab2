import Synchronization

extension TerminalOverlay {
    /// What the overlay writes: the `WAIT_ALERT_PROGRESS` convention (BuildKit's `--progress`).
    ///
    /// A mode is named by its raw value (`auto`, `tty`, `plain`, `json`, `off`, `accessible`);
    /// ``init(_:)`` reads a name in any case, as `WAIT_ALERT_PROGRESS` is read, so a
    /// command-line option can take the same values:
    ///
    /// ```swift
    /// TerminalOverlay.Mode("JSON")  // .json
    /// TerminalOverlay.Mode("fancy")  // nil
    /// ```
    public enum Mode: String, Sendable, Hashable, CaseIterable, LosslessStringConvertible {
        /// The interactive overlay on an interactive terminal, plain lines anywhere else (a pipe, a
        /// file, `TERM=dumb`).
        case auto
        /// The interactive overlay whenever the output is a terminal, even with `TERM=dumb`; plain
        /// lines when it is not one.
        case tty
        /// Plain lines, even on an interactive terminal.
        case plain
        /// The event stream, one line of JSON per event (``EventStreamRenderer``): no drawing.
        case json
        /// Nothing but the final lines of failures and timeouts.
        case off
        /// For screen readers and people who turn motion off: lines only, never an animation or a
        /// cursor movement, even on an interactive terminal. The title once; a new text at most
        /// every 3 seconds (the latest wins); progress at 25, 50, 75 and 100 %; a line after 30
        /// seconds of silence saying what still runs; child tasks as a line when they start and
        /// one when they end; final lines, coloured unless `NO_COLOR` says otherwise; questions
        /// asked as plain lines, answered with a line (a number for a choice, `y` or `n`).
        case accessible
        /// For an AI coding agent reading the output, which pays for every byte: no escape
        /// sequence, no colour, no spinner, no progress — each failure with its last log lines,
        /// warnings, each top-level alert's final line and how its child tasks ended, after one
        /// first line saying how to get everything. A question takes its answer from standard input
        /// when it is a file, or a pipe with something in it within a second, and otherwise fails at once (``WaitAlertPromptError/cannotAsk(prompt:reason:)``)
        /// instead of waiting. Chosen by ``environment`` when an agent's variable is set
        /// (``agentVariables``).
        case agent
        /// Plain lines for a GitHub Actions log (chosen by ``environment`` when `GITHUB_ACTIONS` is
        /// `true`): each top-level alert's lines folded in a `::group::` (never nested), its failure
        /// and its last log lines after the group, where they are not hidden, failures and
        /// warnings as `::error` and `::warning` annotations, and a Markdown table of the tasks,
        /// their outcomes and times appended to the file `GITHUB_STEP_SUMMARY` names.
        case github
        /// Plain lines for a GitLab CI log (chosen by ``environment`` when `GITLAB_CI` is `true`):
        /// each top-level alert's lines in a collapsed `section_start`/`section_end` section, its
        /// failure and last log lines after it.
        case gitlab

        /// The mode named `description`, in any case (`json`, `JSON`), or `nil` when it names
        /// none.
        public init?(_ description: String) {
            self.init(rawValue: description.lowercased())
        }

        /// The mode's name, its raw value: `json`.
        public var description: String { rawValue }

        /// Whether this mode draws the interactive overlay on `terminal`: the one place that
        /// decides it, for the overlay and for `wait-alert`'s own choices.
        package func drawsInteractively(on terminal: any WaitAlertTerminal) -> Bool {
            switch self {
            case .auto: terminal.isInteractive
            case .tty:
                terminal.isInteractive || (terminal as? WaitAlertStandardError)?.isTerminalDevice == true
            case .plain, .json, .off, .accessible, .agent, .github, .gitlab: false
            }
        }

        /// The variables AI coding agents set in the commands they run (Claude Code, Codex,
        /// Gemini CLI, Cursor, opencode, Cline): any of them set, to anything but empty, `0` or
        /// `false`, makes ``environment`` choose ``agent``.
        public static let agentVariables = [
            "CLAUDECODE", "CODEX_SANDBOX", "GEMINI_CLI", "CURSOR_AGENT", "OPENCODE", "CLINE_ACTIVE",
        ]

        /// The variables ``environment`` reads.
        package static let variables =
            ["WAIT_ALERT_PROGRESS", "ACCESSIBLE", "GITHUB_ACTIONS", "GITLAB_CI"] + agentVariables

        /// The first agent variable set in `variables`, if any.
        package static func agentVariable(in variables: [String: String]) -> String? {
            agentVariables.first { name in
                guard let value = variables[name] else { return false }
                return !value.isEmpty && value != "0" && value.lowercased() != "false"
            }
        }

        /// The mode the environment asks for, the first of:
        ///
        /// 1. `WAIT_ALERT_PROGRESS`, when it names a mode other than `auto`;
        /// 2. ``accessible`` when `ACCESSIBLE` is set (to anything but `0`);
        /// 3. ``auto`` when `WAIT_ALERT_PROGRESS` is `auto` (whoever set it wants the usual display);
        /// 4. ``agent`` when an AI agent's variable is set (``agentVariables``);
        /// 5. ``github`` when `GITHUB_ACTIONS` is `true`, ``gitlab`` when `GITLAB_CI` is `true`;
        /// 6. ``auto``.
        ///
        /// A `WAIT_ALERT_PROGRESS` that names no mode is reported once on standard error and left
        /// out.
        public static var environment: Mode {
            let chosen = chosen(by: environmentVariables(variables))
            if let unknown = chosen.unknown { reportUnknown(unknown) }
            return chosen.mode
        }

        /// The mode `variables` ask for, and a `WAIT_ALERT_PROGRESS` value that names none.
        package static func chosen(by variables: [String: String]) -> (mode: Mode, unknown: String?) {
            let value = variables["WAIT_ALERT_PROGRESS"] ?? ""
            let named = Mode(value)
            if let named, named != .auto { return (named, nil) }
            let unknown = value.isEmpty || named != nil ? nil : value
            let accessible = variables["ACCESSIBLE"].map { !$0.isEmpty && $0 != "0" } ?? false
            if accessible { return (.accessible, unknown) }
            if named == .auto { return (.auto, nil) }
            if agentVariable(in: variables) != nil { return (.agent, unknown) }
            if variables["GITHUB_ACTIONS"] == "true" { return (.github, unknown) }
            if variables["GITLAB_CI"] == "true" { return (.gitlab, unknown) }
            return (.auto, unknown)
        }

        private static let reported = Atomic<Bool>(false)

        private static func reportUnknown(_ value: String) {
            guard !reported.exchange(true, ordering: .relaxed) else { return }
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            let message =
                "wait-alert: WAIT_ALERT_PROGRESS=\(TextSanitizer.line(value)) is not one of \(names); using auto\n"
            _ = TerminalSession.process.standardError.write(Array(message.utf8))
        }
    }
}

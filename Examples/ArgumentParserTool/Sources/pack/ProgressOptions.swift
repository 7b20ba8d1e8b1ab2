import ArgumentParser
import WaitAlert

/// `--progress MODE` and `-q/--quiet`: how a command shows its wait alerts. Add the group to a
/// command with `@OptionGroup`, and install it first thing in `run()`.
///
/// `--progress` takes the modes `WAIT_ALERT_PROGRESS` takes, and wins over it; `-q` is
/// `--progress off`, nothing but the final lines of failures and timeouts; without either, the
/// variable decides (`auto` when it is not set).
struct ProgressOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How to show progress (default: WAIT_ALERT_PROGRESS, else auto).", valueName: "mode"))
    var progress: ProgressMode?

    @Flag(name: .shortAndLong, help: "Show nothing but failures (--progress off).")
    var quiet = false

    func validate() throws {
        if quiet, let progress, progress.mode != .off {
            throw ValidationError("--quiet shows failures only; it cannot be used with --progress \(progress.mode).")
        }
    }

    /// The mode asked for: `-q`, else `--progress`, else `WAIT_ALERT_PROGRESS`.
    var mode: TerminalOverlay.Mode {
        quiet ? .off : progress?.mode ?? .environment
    }

    /// Makes the shared presenter a terminal overlay in ``mode``, before any alert shows.
    @MainActor
    func install() {
        WaitAlertPresenter.shared = WaitAlertPresenter(renderers: [TerminalOverlay(mode: mode)], timing: .terminal)
    }
}

/// A value of `--progress`: a mode read by its name in any case (`TerminalOverlay.Mode(_:)`),
/// completed by the shell, and listed in `--help` with what it shows.
struct ProgressMode: ExpressibleByArgument {
    var mode: TerminalOverlay.Mode

    init?(argument: String) {
        guard let mode = TerminalOverlay.Mode(argument) else { return nil }
        self.mode = mode
    }

    var defaultValueDescription: String { mode.description }

    static var allValueStrings: [String] { TerminalOverlay.Mode.allCases.map(\.description) }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    static var allValueDescriptions: [String: String] {
        [
            "auto": "A spinner on a terminal, plain lines elsewhere.",
            "tty": "The spinner on any terminal, even with TERM=dumb.",
            "plain": "Plain lines, even on a terminal.",
            "json": "The event stream: one JSON object per line.",
            "off": "Nothing but failures.",
            "accessible": "Lines without motion, for screen readers (also ACCESSIBLE=1).",
            "agent": "Failures and final lines only, for AI agents (chosen when one runs the tool).",
            "github": "Lines in GitHub Actions groups, with annotations (when GITHUB_ACTIONS=true).",
            "gitlab": "Lines in GitLab CI sections (when GITLAB_CI=true).",
        ]
    }
}

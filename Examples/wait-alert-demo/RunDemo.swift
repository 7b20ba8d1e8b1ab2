import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert-demo run`: shell commands run under a wait alert with `WaitAlertReporter.run`:
/// their output lines as the alert's text (a line rewritten with `\r` too), a failure's last
/// lines above its final line, Ctrl-C and a timeout stopping each command's whole process group.
///
///     swift run wait-alert-demo run                   a build-like script: lines, then a
///                                                     progress line rewritten with \r
///     swift run wait-alert-demo run 'make test'       any shell command line (sh -c)
///     swift run wait-alert-demo run CMD1 CMD2 ...     each a child task of one alert; the first
///                                                     failure cancels the others
///     swift run wait-alert-demo run --keep-going ...  every command runs to its end
///     swift run wait-alert-demo run --timeout 2 ...   the commands are stopped after 2 seconds
///     swift run wait-alert-demo run --collect CMD     the command's standard output is kept,
///                                                     and printed once the alert has ended
///
/// Exit status: 0 when every command succeeded; 1 when one failed; 130 after Ctrl-C; 124 after
/// the timeout (`WaitAlertExit.status(for:)`).
enum RunDemo {
    static let usage = "wait-alert-demo run [--timeout SECONDS] [--collect] [--keep-going] [COMMAND...]"

    /// What runs without a command: compiling lines, then a link step's progress on one line.
    static let buildScript = """
        for module in Lexer Parser Checker Emitter; do echo "Compiling $module.swift"; sleep 0.6; done
        for percent in 10 25 40 55 70 85 100; do printf '\\rLinking %d%%' "$percent"; sleep 0.3; done
        printf '\\n'; echo 'Linked demo'
        """

    struct Options {
        var timeout: Duration?
        var collects = false
        var keepsGoing = false
        var commands: [String] = []
    }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.first, argument.hasPrefix("--") {
            rest = rest.dropFirst()
            switch argument {
            case "--collect": options.collects = true
            case "--keep-going": options.keepsGoing = true
            case "--timeout":
                guard let value = rest.first.flatMap(Double.init), value > 0, value < 1e6 else { return nil }
                options.timeout = .milliseconds(Int64(value * 1000))
                rest = rest.dropFirst()
            case "--": break
            default: return nil
            }
            if argument == "--" { break }
        }
        options.commands = Array(rest)
        return options
    }

    @MainActor static func runAndExit(_ arguments: [String]) async -> Never {
        await runModeAndExit(arguments, usage: usage, parse: parse, run: run)
    }

    @MainActor static func run(_ options: Options) async throws {
        let commands = options.commands.isEmpty ? [buildScript] : options.commands
        if commands.count == 1 {
            let title = options.commands.isEmpty ? "Building demo" : commands[0]
            let output: WaitAlertCommandOutput = options.collects ? .collected : .shown
            let result = try await withWaitAlert(title, timeout: options.timeout) { alert in
                try await alert.run("sh", "-c", commands[0], output: output)
            }
            print(result.standardOutput, terminator: "")
        } else {
            try await withWaitAlert("Running \(commands.count) commands", timeout: options.timeout) { alert in
                _ = try await alert.tasks(for: commands, policy: options.keepsGoing ? .keepGoing : .failFast) {
                    command in
                    command
                } operation: { command, row in
                    try await row.run("sh", "-c", command)
                }
            }
        }
    }
}

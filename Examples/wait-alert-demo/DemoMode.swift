import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a mode of the demo (`tasks`, `progress`) and exits: the usage line when its options are
/// not understood (status 2, or 0 for `--help`); otherwise 0 when the work succeeded, and after
/// an error the status `WaitAlertExit` gives, as a command-line tool does: 130 when Ctrl-C
/// cancelled the work or a question, 124 after a timeout, 1 when it failed.
@MainActor func runModeAndExit<Options>(
    _ arguments: [String], usage: String, parse: ([String]) -> Options?,
    run: @MainActor (Options) async throws -> Void
) async -> Never {
    guard let options = parse(arguments) else {
        print("usage: \(usage)")
        exit(arguments.contains("--help") ? 0 : 2)
    }
    do {
        try await run(options)
        exit(0)
    } catch {
        exit(WaitAlertExit.status(for: error) ?? 1)
    }
}

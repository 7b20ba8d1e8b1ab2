#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a mode of the demo (`tasks`, `progress`) and exits: the usage line when its options are
/// not understood (status 2, or 0 for `--help`); otherwise 0 when the work succeeded, 130 when
/// Ctrl-C cancelled it, 1 when it failed.
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
    } catch is CancellationError {
        exit(130)
    } catch {
        exit(1)
    }
}

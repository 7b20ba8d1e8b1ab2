// wait-alert: any shell command under a wait alert.
//
//     wait-alert [--title TEXT] [--success TEXT] [--status last-line|none]
//                [--show-output always|on-failure|never] [--tail N] [--timeout DURATION] -- COMMAND [ARG...]
//
// See Usage.swift for the options and exit statuses.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// First, before anything opens a descriptor that could take the number of a closed one.
let closedDescriptors = StandardDescriptors.reserveClosed()

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "report" {
    exit(await ReportCommand.run(Array(CommandLine.arguments.dropFirst(2)), closed: closedDescriptors))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "replay" {
    exit(await ReplayCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}

switch CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
    print(Usage.text)
    exit(0)
case .version:
    print(Version.line)
    exit(0)
case .invalid(let message):
    _ = Array(Usage.invalid(message).utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
case .run(let options):
    exit(await CommandRun.run(options, closed: closedDescriptors))
}

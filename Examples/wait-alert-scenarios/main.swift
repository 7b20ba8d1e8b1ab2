// Real programs built on WaitAlert, run by the scenario suite (Tests/WaitAlertEndToEndTests) under
// a pseudo-terminal, piped, and with Ctrl-C and Ctrl-Z in the middle:
//
//     wait-alert-scenarios hash [--jobs N | --threads N] [--quiet] [--delay MS] PATH...
//                 hashes every file under PATH in child tasks, with byte progress; prints each
//                 file's hash (Hasher.swift)
//     wait-alert-scenarios backup PATH [--to DIR]
//                 runs `wait-alert-scenarios archive PATH` as a child process under its alert:
//                 the child asks before archiving with tar, and its questions show here
//                 (Backup.swift)
//     wait-alert-scenarios fetch [--fail]
//                 runs a shell script under its alert with alert.run: its lines are the text,
//                 Ctrl-C stops its whole process group (Fetch.swift)
//
// Examples/deploy/deploy.sh is the shell side: a deploy script with hosts restarted side by side
// under `wait-alert`.
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: wait-alert-scenarios hash [--jobs N | --threads N] [--quiet] [--delay MS] PATH...
           wait-alert-scenarios backup PATH [--to DIR]
           wait-alert-scenarios archive PATH [--to DIR]
           wait-alert-scenarios fetch [--fail]
    """

/// Runs `body`, then exits as a command-line tool does: 0, 130 after Ctrl-C (or a cancelled
/// question), 1 after an error.
@MainActor func runAndExit(_ body: @MainActor () async throws -> Void) async -> Never {
    do {
        try await body()
        exit(0)
    } catch {
        exit(WaitAlertExit.status(for: error) ?? 1)
    }
}

switch arguments.first {
case "hash":
    guard let options = Hasher.Options(Array(arguments.dropFirst())) else {
        print(usage)
        exit(2)
    }
    await runAndExit { try await Hasher.run(options) }
case "backup" where arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--to"):
    await runAndExit { try await Backup.run(path: arguments[1], to: arguments.count == 4 ? arguments[3] : "/tmp") }
case "archive" where arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--to"):
    await runAndExit { try await Backup.archive(path: arguments[1], to: arguments.count == 4 ? arguments[3] : "/tmp") }
case "fetch" where arguments.count == 1 || arguments.dropFirst() == ["--fail"]:
    await runAndExit { try await Fetch.run(failing: arguments.count == 2) }
default:
    print(usage)
    exit(arguments.contains("--help") ? 0 : 2)
}

import Dispatch
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert-scenarios backup PATH [--to DIR]`: one tool run under another. The parent runs
/// `wait-alert-scenarios archive PATH` as a child process under its alert; the child's alert is a
/// row of the parent's, and the child asks — `Archive N files?`, `Archive name:` — before it runs
/// `tar`. The parent owns the terminal, so the questions show there, and the answers typed go to
/// the child.
enum Backup {
    struct Failure: Error, CustomStringConvertible {
        var what: String
        var status: Int32
        var description: String { "\(what) ended with status \(status)" }
    }

    @MainActor static func run(path: String, to directory: String) async throws {
        try await withWaitAlert("Backing up \(path)", success: "Backed up \(path)") { _ in
            let status = await spawn([CommandLine.arguments[0], "archive", path, "--to", directory])
            if status == 130 { throw CancellationError() }  // Escape or Ctrl-C at its question
            if status != 0 { throw Failure(what: "the archiver", status: status) }
        }
    }

    @MainActor static func archive(path: String, to directory: String) async throws {
        let files = FileTree.files(under: path)
        let name = try await withWaitAlert("Archiving \(path)") { alert -> String? in
            guard try await confirm("Archive \(files.count) files?", default: true) else {
                alert.inform("Nothing archived")
                return nil
            }
            let name = try await askText(
                "Archive name:", default: "backup", validate: { $0.contains("/") ? "A name cannot contain “/”." : nil })
            alert.update("Writing \(name).tar")
            let status = await spawn(["tar", "-cf", directory + "/" + name + ".tar", path])
            if status != 0 { throw Failure(what: "tar", status: status) }
            return name
        }
        if let name { print("archived \(files.count) files to \(name).tar") }
    }

    /// Runs `command` (looked up in `PATH`) with the program's descriptors; its exit status, or
    /// 128 + the signal that ended it.
    static func spawn(_ command: [String]) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var argv = command.map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                // A dispatch thread blocks most signals; the command starts with none blocked.
                var attributes = posix_spawnattr_t()
                posix_spawnattr_init(&attributes)
                defer { posix_spawnattr_destroy(&attributes) }
                var none = sigset_t()
                sigemptyset(&none)
                posix_spawnattr_setsigmask(&attributes, &none)
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
                var pid = pid_t()
                guard posix_spawnp(&pid, command[0], nil, &attributes, &argv, environ) == 0 else {
                    return continuation.resume(returning: 127)
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                continuation.resume(returning: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
            }
        }
    }
}

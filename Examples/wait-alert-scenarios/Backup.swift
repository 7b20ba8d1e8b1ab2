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
/// the child. The parent runs it with `alert.run`, its standard output collected and printed.
enum Backup {
    @MainActor static func run(path: String, to directory: String) async throws {
        try await withWaitAlert("Backing up \(path)", success: "Backed up \(path)") { alert in
            do {
                let archiver = try await alert.run(
                    [CommandLine.arguments[0], "archive", path, "--to", directory], output: .collected)
                print(archiver.standardOutput, terminator: "")
            } catch let error as WaitAlertCommandError where error.reason == .exited(130) {
                throw CancellationError()  // Escape or Ctrl-C at its question
            }
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
            try await alert.run("tar", "-cf", directory + "/" + name + ".tar", path)
            return name
        }
        if let name { print("archived \(files.count) files to \(name).tar") }
    }
}

import Foundation
import WaitAlert

/// Writes `archive`: a tar archive of `files` under `folder`, with their checksums as
/// `SHA256SUMS`, made by the system's `tar`, then listed back to check that every file is in it.
///
/// Two ways to show a subprocess under an alert. `tar -c -v` lists what it adds, here on standard
/// error (standard output is for the checksums): while the alert shows, the overlay catches that
/// output and prints it above the alert, whole lines. `tar -t`'s listing is followed as the
/// alert's text instead, and its last lines are printed above the final line if the check fails.
func writeArchive(_ archive: String, of files: [FileToHash], in folder: String, checksums: String) async throws {
    try await withWaitAlert("Archiving \(files.count) files", success: "Wrote \(archive)") { alert in
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("pack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        try Data(checksums.utf8).write(to: staging.appendingPathComponent("SHA256SUMS"))
        alert.update("Writing \(archive)")
        let names = files.map(\.path)
        let create = ["-c", "-v", "-f", archive, "-C", staging.path, "SHA256SUMS", "-C", absolute(folder)] + names
        let status = try await run("/usr/bin/env", ["tar"] + create)
        guard status == 0 else { throw PackError.tarFailed(status: status) }

        let listing = try OutputLines(of: "/usr/bin/env", ["tar", "-t", "-f", archive])
        let entries = try await alert.follow(lines: listing, keeping: files.count + 1)
        guard await listing.status == 0, Set(entries) == Set(["SHA256SUMS"] + names) else {
            throw PackError.incomplete(archive)
        }
    }
}

/// Runs `executable` with `arguments` and returns its exit status once it has ended; its
/// standard output goes to standard error. Cancelling the task interrupts it (`SIGINT`).
func run(_ executable: String, _ arguments: [String]) async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.standardError
    let (ended, status) = AsyncStream.makeStream(of: Int32.self)
    process.terminationHandler = { process in
        status.yield(process.terminationStatus)
        status.finish()
    }
    try process.run()
    let pid = process.processIdentifier
    let code = await withTaskCancellationHandler {
        await ended.first { _ in true } ?? -1
    } onCancel: {
        kill(pid, SIGINT)
    }
    try Task.checkCancellation()
    return code
}

/// `path` from the root: `tar -C` takes a relative path from the folder of the `-C` before it.
func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
}

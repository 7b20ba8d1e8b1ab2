import Foundation
import WaitAlert

/// Writes `archive`: a tar archive of `files` under `folder`, with their checksums as
/// `SHA256SUMS`, made by the system's `tar`, then listed back to check that every file is in it.
///
/// Both `tar`s run under the alert with `alert.run`: `tar -c -v` lists what it adds, and each
/// line is the alert's text as it comes; `tar -t`'s listing is collected, for the check. If `tar`
/// fails, its last lines print above the final line (`✖ Archiving 3 files: tar exited with
/// status 2`); Ctrl-C stops it, its whole process group, and the alert ends as cancelled.
func writeArchive(_ archive: String, of files: [FileToHash], in folder: String, checksums: String) async throws {
    try await withWaitAlert("Archiving \(files.count) files", success: "Wrote \(archive)") { alert in
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("pack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        try Data(checksums.utf8).write(to: staging.appendingPathComponent("SHA256SUMS"))
        alert.update("Writing \(archive)")
        let names = files.map(\.path)
        try await alert.run(
            ["tar", "-c", "-v", "-f", archive, "-C", staging.path, "SHA256SUMS", "-C", absolute(folder)] + names)

        let listing = try await alert.run("tar", "-t", "-f", archive, output: .collected)
        let entries = listing.standardOutput.split(separator: "\n").map(String.init)
        guard Set(entries) == Set(["SHA256SUMS"] + names) else { throw PackError.incomplete(archive) }
    }
}

/// `path` from the root: `tar -C` takes a relative path from the folder of the `-C` before it.
func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
}

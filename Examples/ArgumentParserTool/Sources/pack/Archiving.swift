import Foundation
import WaitAlert

/// Writes `archive`: a tar archive of `files` under `folder`, with their checksums as
/// `SHA256SUMS`, made by the system's `tar`.
///
/// `tar` lists what it adds (`-v`) on standard error; while the alert shows, the overlay prints
/// that output above it, whole lines, and standard output stays for the results.
func writeArchive(_ archive: String, of files: [FileToHash], in folder: String, checksums: String) async throws {
    try await withWaitAlert("Archiving \(files.count) files", success: "Wrote \(archive)") { alert in
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("pack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        try Data(checksums.utf8).write(to: staging.appendingPathComponent("SHA256SUMS"))
        alert.update("tar \(archive)")
        let arguments =
            ["-c", "-v", "-f", archive, "-C", staging.path, "SHA256SUMS", "-C", absolute(folder)] + files.map(\.path)
        let status = try await run("/usr/bin/env", ["tar"] + arguments)
        guard status == 0 else { throw PackError.tarFailed(status: status) }
    }
}

/// Runs `executable` with `arguments` and returns its exit status once it has ended; its
/// standard output goes to standard error. Cancelling the task stops it (`SIGINT`).
func run(_ executable: String, _ arguments: [String]) async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.standardError
    let status = try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
    } onCancel: {
        if process.isRunning { process.interrupt() }
    }
    try Task.checkCancellation()
    return status
}

/// `path` from the root: `tar -C` takes a relative path from the folder of the `-C` before it.
func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
}

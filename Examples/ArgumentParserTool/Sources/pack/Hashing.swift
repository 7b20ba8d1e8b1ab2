import Foundation
import WaitAlert

/// A file to hash: its path in the folder, and its size.
struct FileToHash: Sendable {
    var path: String
    var size: Int

    /// The file's name, without its folders.
    var name: String { String(path.split(separator: "/").last ?? "") }

    /// The files under `folder` (every regular file, recursively), in a stable order.
    static func files(in folder: String) throws -> [FileToHash] {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw PackError.notAFolder(folder)
        }
        let paths = try manager.subpathsOfDirectory(atPath: folder).sorted()
        return try paths.compactMap { path in
            let attributes = try manager.attributesOfItem(atPath: folder + "/" + path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
            return FileToHash(path: path, size: (attributes[.size] as? Int) ?? 0)
        }
    }
}

/// How `pack` hashes.
struct HashingOptions: Sendable {
    /// At most this many files at a time.
    var jobs: Int
    /// Reading pauses a tenth of a second after each block, as from a slow disk.
    var slow: Bool
    /// A file of this name fails to hash.
    var failOn: String?
}

/// Hashes every file under `folder`, a row per file under one wait alert, at most `options.jobs`
/// at a time; returns the digests in the files' order.
///
/// The first failure cancels the other files. Its row says what failed (`✖ Hashing notes.txt:
/// cannot read notes.txt`); the alert's own final line says only that hashing stopped, so the
/// error shows once.
func hashFiles(_ files: [FileToHash], in folder: String, options: HashingOptions) async throws -> [String] {
    let title = "Hashing \(files.count) file\(files.count == 1 ? "" : "s")"
    let stopped: (any Error) -> String = { _ in "\(title): stopped at the first failure" }
    return try await withWaitAlert(title, failure: stopped) { alert in
        try await alert.tasks(for: files, policy: .failFast, maxConcurrency: options.jobs) { file in
            "Hashing \(file.path)"
        } operation: { file, row in
            try await sha256(of: file, in: folder, options: options, row: row)
        }
    }
}

/// The SHA-256 digest of `file`, reported to `row` as it goes.
///
/// Synchronous reads and CPU-bound hashing, off the caller's actor (`@concurrent`). Between
/// blocks it checks for cancellation — Ctrl-C or a sibling's failure stops it at the next block —
/// and yields, so that other tasks get a thread meanwhile: with every thread of the pool hashing,
/// the group that cancels the siblings of a failed file would wait for a free one.
@concurrent
func sha256(of file: FileToHash, in folder: String, options: HashingOptions, row: WaitAlertReporter) async throws
    -> String
{
    if file.name == options.failOn { throw PackError.unreadable(file.path) }  // to try a failure
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: folder + "/" + file.path))
    defer { try? handle.close() }
    row.progress(completed: 0, total: file.size, unit: .bytes)
    var hash = SHA256()
    while let block = try handle.read(upToCount: 64 * 1024), !block.isEmpty {
        try Task.checkCancellation()  // Ctrl-C, or a sibling's failure: stop at the next block
        hash.update(block)
        row.advance(by: block.count)
        if options.slow { usleep(100_000) }  // as from a slow disk: a read that blocks
        await Task.yield()  // let other tasks have a thread: the group that cancels siblings
    }
    return hash.finalize()
}

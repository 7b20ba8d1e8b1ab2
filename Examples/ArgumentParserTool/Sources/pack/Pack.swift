import ArgumentParser
import Foundation
import Logging
import WaitAlert

/// `pack FOLDER [--archive FILE]`: hashes every file of a folder under wait alerts, prints the
/// checksums as `sha256sum` does, and — once you confirm — archives the files with their
/// checksums.
@main
struct Pack: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hash the files of a folder, and archive them with their checksums.",
        discussion: """
            Prints each file's SHA-256 digest on standard output, as sha256sum does. With --archive, \
            asks before writing a tar archive of the files and a SHA256SUMS file.
            """
    )

    @Argument(help: "The folder whose files to hash.")
    var folder: String

    @Option(name: .shortAndLong, help: "Write a tar archive of the files and their checksums here.")
    var archive: String?

    @Flag(name: .shortAndLong, help: "Write the archive without asking.")
    var yes = false

    @Option(name: .shortAndLong, help: "Hash at most this many files at a time.")
    var jobs = 4

    @Option(help: ArgumentHelp("Fail when hashing the file of this name (to try a failure).", valueName: "name"))
    var failOn: String?

    @Flag(help: "Read slowly, as from a slow disk (to try Ctrl-C).")
    var slow = false

    @OptionGroup(title: "Progress")
    var progress: ProgressOptions

    func validate() throws {
        guard jobs > 0 else { throw ValidationError("--jobs must be at least 1.") }
    }

    func run() async throws {
        await progress.install()  // --progress, -q: before any alert shows
        LoggingSystem.bootstrap { WaitAlertLogHandler(label: $0, logLevel: progress.quiet ? .warning : .info) }
        do {
            try await pack()  // hashes, prints, asks, archives: calls withWaitAlert
        } catch {
            // An alert showed the error already: exit with its status, without printing it again.
            if let status = WaitAlertExit.status(for: error) { throw ExitCode(status) }
            throw error  // not shown yet: ArgumentParser prints "Error: …" and exits with 1
        }
    }

    /// Hashes the files, prints their checksums on standard output, and with `--archive` asks
    /// before writing the archive.
    ///
    /// `run()` is not isolated to the main actor: the alerts' work runs on the cooperative pool,
    /// and the CPU-bound hashing in `@concurrent` functions that check for cancellation.
    func pack() async throws {
        let logger = Logger(label: "pack")
        let files = try FileToHash.files(in: folder)
        logger.info("hashing \(files.count) files in \(folder)")
        let options = HashingOptions(jobs: jobs, slow: slow, failOn: failOn)
        let digests = try await hashFiles(files, in: folder, options: options)
        let checksums = zip(digests, files).map { "\($0)  \($1.path)\n" }.joined()
        print(checksums, terminator: "")
        guard let archive else { return }
        if !yes, try await !confirm("Write \(archive) (\(files.count) files)?", default: false) {
            logger.notice("nothing written")
            return
        }
        try await writeArchive(archive, of: files, in: folder, checksums: checksums)
        logger.info("wrote \(archive)")
    }
}

import Synchronization
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert-scenarios hash [--jobs N | --threads N] [--quiet] [--delay MS] PATH...`: a file
/// hasher as users write one — every file under the paths in child tasks
/// (`tasks(for:maxConcurrency:)`, keep going past a file that cannot be read), each with byte
/// progress while it is read in 64 KiB chunks, the group's header summing the bytes; each file's
/// hash and path printed on standard output as it is done (`--quiet`: only the count at the end).
/// `--delay` waits that long after each file, as a slow disk would. `--threads N` hashes on N OS
/// threads of its own instead, all reporting to one alert (`advance` for each chunk, `update` for
/// each file), as programs with a pool of worker threads do.
enum Hasher {
    struct Options {
        var jobs = 4
        var threads = 0
        var quiet = false
        var delay = Duration.zero
        var paths: [String] = []

        init?(_ arguments: [String]) {
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--jobs":
                    guard let value = rest.popFirst().flatMap(Int.init), value > 0 else { return nil }
                    jobs = value
                case "--threads":
                    guard let value = rest.popFirst().flatMap(Int.init), value > 0 else { return nil }
                    threads = value
                case "--quiet": quiet = true
                case "--delay":
                    guard let value = rest.popFirst().flatMap(Int.init), value >= 0 else { return nil }
                    delay = .milliseconds(value)
                case let path where !path.hasPrefix("-"): paths.append(path)
                default: return nil
                }
            }
            if paths.isEmpty { return nil }
        }
    }

    struct File: Sendable {
        var path: String
        var size: Int
    }

    struct ReadFailure: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String { "\(path): \(String(cString: strerror(code)))" }
    }

    @MainActor static func run(_ options: Options) async throws {
        let files = options.paths.flatMap(FileTree.files(under:))
        if options.threads > 0 { return try await runOnThreads(files, options) }
        let success = { (digests: [UInt64]) in "Hashed \(digests.count) files" }
        let digests = try await withWaitAlert("Hashing \(files.count) files", success: success) { alert in
            try await alert.tasks(for: files, policy: .keepGoing, maxConcurrency: options.jobs) { file in
                "Hashing \(file.path)"
            } operation: { file, row in
                let digest = try hash(file, reporting: row)
                if options.delay > .zero { try await Task.sleep(for: options.delay) }
                if !options.quiet { print(String(digest, radix: 16) + "  " + file.path) }
                return digest
            }
        }
        if options.quiet { print("\(digests.count) files hashed") }
    }

    /// FNV-1a over the file's bytes, read in chunks, each chunk's size reported to `row`.
    static func hash(_ file: File, reporting row: WaitAlertReporter) throws -> UInt64 {
        row.progress(completed: 0, total: file.size, unit: .bytes)
        return try hash(file) { row.advance(by: $0) }
    }

    /// FNV-1a over the file's bytes, read in chunks, each chunk's size given to `advance`.
    static func hash(_ file: File, advancing advance: (Int) -> Void) throws -> UInt64 {
        let descriptor = open(file.path, O_RDONLY)
        guard descriptor >= 0 else { throw ReadFailure(path: file.path, code: errno) }
        defer { close(descriptor) }
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ReadFailure(path: file.path, code: errno) }
            if count == 0 { return digest }
            for byte in buffer[..<count] { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            advance(count)
        }
    }

    /// `--threads N`: N OS threads take the files in turn, all reporting to one alert; a file
    /// that cannot be read is logged above the alert and the others go on; Ctrl-C stops the
    /// threads between chunks.
    @MainActor static func runOnThreads(_ files: [File], _ options: Options) async throws {
        let total = files.reduce(0) { $0 + $1.size }
        let success = { (hashed: Int) in "Hashed \(hashed) files on \(options.threads) threads" }
        let hashed = try await withWaitAlert("Hashing \(files.count) files", success: success) { alert in
            alert.progress(completed: 0, total: total, unit: .bytes)
            let pool = HashingThreads(files: files, quiet: options.quiet, alert: alert)
            await withTaskCancellationHandler {
                await pool.run(threads: options.threads)
            } onCancel: {
                pool.cancel()
            }
            try Task.checkCancellation()
            let failures = pool.failures
            if let first = failures.first {
                throw ReadFailures(count: failures.count, first: first)
            }
            return files.count
        }
        if options.quiet { print("\(hashed) files hashed") }
    }

    struct ReadFailures: Error, CustomStringConvertible {
        var count: Int
        var first: ReadFailure
        var description: String { count == 1 ? "\(first)" : "\(first) (and \(count - 1) more)" }
    }
}

/// OS threads of the program's own that hash files from a shared list, as a worker pool does.
final class HashingThreads: Sendable {
    let files: [Hasher.File]
    let quiet: Bool
    let alert: WaitAlertReporter
    private let next = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let state = Mutex<(running: Int, failures: [Hasher.ReadFailure], done: CheckedContinuation<Void, Never>?)>(
        (0, [], nil))

    init(files: [Hasher.File], quiet: Bool, alert: WaitAlertReporter) {
        self.files = files
        self.quiet = quiet
        self.alert = alert
    }

    var failures: [Hasher.ReadFailure] { state.withLock { $0.failures } }

    func cancel() { stopped.store(true, ordering: .relaxed) }

    /// Starts `threads` threads and returns when the last has ended.
    func run(threads: Int) async {
        await withCheckedContinuation { continuation in
            state.withLock { $0 = (threads, [], continuation) }
            for _ in 0..<threads {
                var thread = pthread_t()
                let context = Unmanaged.passRetained(self).toOpaque()
                let created = pthread_create(
                    &thread, nil,
                    { context in
                        let pool = Unmanaged<HashingThreads>.fromOpaque(context!).takeRetainedValue()
                        pool.work()
                        return nil
                    }, context)
                precondition(created == 0, "cannot start a thread")
                pthread_detach(thread)
            }
        }
    }

    private func work() {
        while !stopped.load(ordering: .relaxed) {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < files.count else { break }
            let file = files[index]
            alert.update("Hashing \(file.path)")
            do {
                let digest = try Hasher.hash(file) { count in
                    guard !stopped.load(ordering: .relaxed) else { return }
                    alert.advance(by: count)
                }
                if !quiet { print(String(digest, radix: 16) + "  " + file.path) }
            } catch let failure as Hasher.ReadFailure {
                alert.log("cannot read \(failure)")
                state.withLock { $0.failures.append(failure) }
            } catch {}
        }
        let done = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.running -= 1
            guard state.running == 0 else { return nil }
            defer { state.done = nil }
            return state.done
        }
        done?.resume()
    }
}

/// The regular files under a path (symbolic links to files too), in a stable order.
enum FileTree {
    static func files(under path: String) -> [Hasher.File] {
        var status = stat()
        guard lstat(path, &status) == 0 else { return [Hasher.File(path: path, size: 0)] }  // fails as it is read
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            guard let directory = opendir(path) else { return [] }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != ".", name != ".." { names.append(name) }
            }
            return names.sorted().flatMap { files(under: path + "/" + $0) }
        case S_IFREG: return [Hasher.File(path: path, size: Int(status.st_size))]
        case S_IFLNK:
            // A link is hashed as what it points to; one that points nowhere fails when read.
            var target = stat()
            guard stat(path, &target) == 0 else { return [Hasher.File(path: path, size: 0)] }
            return target.st_mode & S_IFMT == S_IFREG ? [Hasher.File(path: path, size: Int(target.st_size))] : []
        default: return []
        }
    }
}

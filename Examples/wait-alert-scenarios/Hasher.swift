import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert-scenarios hash [--jobs N] [--quiet] [--delay MS] PATH...`: a file hasher as users
/// write one — every file under the paths in child tasks (`tasks(for:maxConcurrency:)`, keep going
/// past a file that cannot be read), each with byte progress while it is read in 64 KiB chunks, the
/// group's header summing the bytes; each file's hash and path printed on standard output as it is
/// done (`--quiet`: only the count at the end). `--delay` waits that long after each file, as a
/// slow disk would.
enum Hasher {
    struct Options {
        var jobs = 4
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
        let descriptor = open(file.path, O_RDONLY)
        guard descriptor >= 0 else { throw ReadFailure(path: file.path, code: errno) }
        defer { close(descriptor) }
        row.progress(completed: 0, total: file.size, unit: .bytes)
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ReadFailure(path: file.path, code: errno) }
            if count == 0 { return digest }
            for byte in buffer[..<count] { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            row.advance(by: count)
        }
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

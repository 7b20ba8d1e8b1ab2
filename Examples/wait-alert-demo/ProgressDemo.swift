// `wait-alert-demo progress`: a download-like run with determinate progress, in about 9.5 s.
//
//     swift run wait-alert-demo progress            three files downloaded at once, the largest
//                                                   stalls for 5.8 s and resumes (exit status 0)
//     swift run wait-alert-demo progress --fail     the same, but one file fails at about 2 s; the
//                                                   others run to their end (exit status 1)
//     swift run wait-alert-demo progress --seed 7   other sizes and other chunk sizes
//
// The alert spins without a bar while the mirror is resolved (0.6 s), then each file is a child
// task counting its bytes, with its rate and time left; the header adds the files up. The largest
// file stops receiving bytes at 2.4 s, shows `stalled` after 5 s without progress, and resumes at
// 8.2 s. Ctrl-C cancels every download and the demo exits with 130. The sizes and chunk sizes come
// from a seeded generator and every chunk arrives at a planned instant, so a run is the same every
// time (to within the scheduler's jitter).
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum ProgressDemo {
    /// The options of the `progress` mode.
    struct Options {
        var fail = false
        var seed: UInt64 = 1
    }

    static let usage = "wait-alert-demo progress [--fail] [--seed N]"

    /// The options in `arguments` (what follows `progress`), or `nil` when they are not understood.
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--fail": options.fail = true
            case "--seed":
                guard let value = rest.popFirst().flatMap({ UInt64($0) }) else { return nil }
                options.seed = value
            default: return nil
            }
        }
        return options
    }

    /// Runs the downloads, then exits: 0 when every file arrived, 1 when one failed, 130 when
    /// Ctrl-C cancelled them.
    @MainActor static func runAndExit(_ arguments: [String]) async -> Never {
        await runModeAndExit(arguments, usage: usage, parse: parse, run: download)
    }

    /// When the mirror has been resolved and the downloads begin.
    static let connected = Duration.milliseconds(600)

    @MainActor static func download(_ options: Options) async throws {
        let files = Download.all(seed: options.seed, failing: options.fail ? "sdk-linux.tar.gz" : nil)
        let total = files.reduce(0) { $0 + $1.size }
        try await withWaitAlert(
            "Downloading",
            success: { _ in "Downloaded \(files.count) files (\(megabytes(total)))" },
            failure: downloadFailure,
            operation: { alert in
                let start = ContinuousClock.now
                // No bar yet: the alert spins until the files' sizes are known.
                alert.progressUnknown()
                try await Task.sleep(until: start + connected)
                alert.log("Mirror: https://mirror.example.org (\(files.count) files, \(megabytes(total)))")
                _ = try await alert.tasks(
                    for: files, policy: .keepGoing, title: \.name,
                    operation: { file, row in try await file.fetch(row, from: start) })
            })
    }

    /// "Downloading: 1 file failed", or why the downloads stopped.
    static func downloadFailure(_ error: any Error) -> String {
        switch error {
        case let failures as WaitAlertTaskFailures:
            "Downloading: \(failures.failures.count) file\(failures.failures.count == 1 ? "" : "s") failed"
        default: "Downloading: \(error)"
        }
    }

    /// `48.2 MB`.
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}

/// A download failed.
struct DownloadFailure: Error, CustomStringConvertible {
    var description: String { "connection reset by peer" }
}

/// One file and how downloading it goes: when each chunk arrives, relative to the start of the
/// alert.
struct Download: Sendable {
    var name: String
    var size: Int
    /// The bytes received at each instant, in order, adding up to `size` (or less when it fails).
    var chunks: [(at: Duration, bytes: Int)]
    /// Whether the download fails after its last chunk.
    var fails = false

    /// The three files, with sizes and chunk sizes drawn from `seed`; `failing` (if any) fails
    /// after about 1.4 s of receiving.
    static func all(seed: UInt64, failing: String?) -> [Download] {
        var random = SplitMix64(seed: seed)
        let start = ProgressDemo.connected
        let megabyte = 1_000_000
        func size(_ base: Int) -> Int { base * megabyte + Int(random.next(below: UInt64(megabyte))) }

        // The largest: 40% in 1.8 s, nothing for 5.8 s (`stalled` shows from 5 s on), the rest
        // in 1.2 s.
        let toolchainSize = size(48)
        let firstPart = toolchainSize * 2 / 5
        var toolchain = Download(name: "toolchain.tar.gz", size: toolchainSize, chunks: [])
        toolchain.chunks =
            chunks(of: firstPart, from: start, to: .milliseconds(2400), &random)
            + chunks(of: toolchainSize - firstPart, from: .milliseconds(8200), to: .milliseconds(9400), &random)

        var sdk = Download(name: "sdk-linux.tar.gz", size: size(14), chunks: [])
        sdk.chunks = chunks(of: sdk.size, from: start, to: .milliseconds(4600), &random)
        var docs = Download(name: "docs.zip", size: size(6), chunks: [])
        docs.chunks = chunks(of: docs.size, from: start, to: .milliseconds(3200), &random)

        return [toolchain, sdk, docs].map { file in
            guard file.name == failing else { return file }
            var failed = file
            failed.chunks = file.chunks.filter { $0.at <= start + .milliseconds(1400) }
            failed.fails = true
            return failed
        }
    }

    /// `bytes` in chunks of uneven (seeded) sizes, one every 100 ms after `start`, the last at `end`.
    private static func chunks(
        of bytes: Int, from start: Duration, to end: Duration, _ random: inout SplitMix64
    ) -> [(at: Duration, bytes: Int)] {
        let count = max(Int(((end - start) / .milliseconds(100)).rounded()), 1)
        // Each chunk weighs 0.6 to 1.4 times the average.
        let weights = (0..<count).map { _ in 60 + Int(random.next(below: 81)) }
        let sum = weights.reduce(0, +)
        var result: [(at: Duration, bytes: Int)] = []
        var sent = 0
        var weightSoFar = 0
        for (index, weight) in weights.enumerated() {
            weightSoFar += weight
            let upTo = bytes * weightSoFar / sum
            result.append((start + .milliseconds(100) * (index + 1), upTo - sent))
            sent = upTo
        }
        return result
    }

    /// Downloads the file, reporting its bytes to `row`; `start` is the start of the alert.
    func fetch(_ row: WaitAlertReporter, from start: ContinuousClock.Instant) async throws {
        row.progress(completed: 0, total: size, unit: .bytes)
        var previous = ProgressDemo.connected
        for chunk in chunks {
            try await Task.sleep(until: start + chunk.at)
            row.advance(by: chunk.bytes)
            let gap = chunk.at - previous
            if gap > .seconds(1) {
                let tenths = gap / .milliseconds(100)
                row.log("\(name): nothing received for \(Int(tenths) / 10).\(Int(tenths) % 10) s, then resumed")
            }
            previous = chunk.at
        }
        if fails {
            try await Task.sleep(until: start + ProgressDemo.connected + .milliseconds(1500))
            throw DownloadFailure()
        }
    }
}

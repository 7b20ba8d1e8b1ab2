import Foundation

/// A program's standard output, line by line as it runs — an `AsyncSequence` for
/// `WaitAlertReporter.follow(lines:)` — and its exit status once it has ended.
///
/// Foundation's `Process` and `Pipe`, read on a thread of its own: it works on Linux and macOS
/// alike (`FileHandle.bytes` is Apple-only). The program's standard error is the caller's.
struct OutputLines: AsyncSequence, Sendable {
    typealias Element = String

    private let lines: AsyncStream<String>
    private let exit: Task<Int32, Never>

    /// Starts `executable` with `arguments`.
    init(of executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let (ended, status) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            status.yield(process.terminationStatus)
            status.finish()
        }
        let (lines, output) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        try process.run()
        let reader = pipe.fileHandleForReading
        Thread.detachNewThread {
            var pending: [UInt8] = []
            while case let data = reader.availableData, !data.isEmpty {
                pending += data
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[..<end].last == UInt8(ascii: "\r") ? pending[..<(end - 1)] : pending[..<end]
                    output.yield(String(decoding: line, as: UTF8.self))
                    pending.removeSubrange(...end)
                }
            }
            if !pending.isEmpty { output.yield(String(decoding: pending, as: UTF8.self)) }
            output.finish()
        }
        self.lines = lines
        self.exit = Task { await ended.first { _ in true } ?? -1 }
    }

    func makeAsyncIterator() -> AsyncStream<String>.Iterator {
        lines.makeAsyncIterator()
    }

    /// The program's exit status, once it has ended.
    var status: Int32 {
        get async { await exit.value }
    }
}

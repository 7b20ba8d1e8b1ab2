import Synchronization
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thousands of quick child tasks under a concurrency limit, on a terminal and piped.
extension Figures {
    /// The items of the smaller run; the larger has twice as many.
    var quickTaskItems: Int { quick ? 2_000 : 4_000 }

    /// `tasks(for:maxConcurrency: 4)` over N and 2N items whose work takes about a millisecond
    /// and reports byte progress, drawn by an overlay on a pseudo-terminal (120×30, its other end
    /// read as fast as it comes) and on a pipe (plain lines), in turns: twice the items take about
    /// twice the time, and the terminal about what the pipe takes.
    func quickTasksUnderALimit() async -> [Figure] {
        let sizes = [quickTaskItems, 2 * quickTaskItems]
        // Terminal and pipe in turns, twice each, and the best of each, against noise.
        var terminal = sizes.map { _ in Double.infinity }
        var piped = sizes.map { _ in Double.infinity }
        for _ in 0..<2 {
            for (index, items) in sizes.enumerated() {
                terminal[index] = min(terminal[index], await Self.quickTasks(items, on: DrainedOutput(.terminal)))
                piped[index] = min(piped[index], await Self.quickTasks(items, on: DrainedOutput(.pipe)))
            }
        }
        let growth = terminal[1] / terminal[0]
        let ratios = zip(terminal, piped).map { $0 / $1 }
        let name = "tasks(for:maxConcurrency: 4), ~1 ms each, bytes"
        return [
            Figure(
                name: "\(name), \(grouped(sizes[1])) items, terminal",
                measured: "\(format(terminal[1] * 1000, 0)) ms",
                baseline: "\(grouped(sizes[0])) items: \(format(terminal[0] * 1000, 0)) ms",
                budget: "≤ 2.2× (\(format(growth, 2))×)", passed: growth <= 2.2)
        ]
            + sizes.indices.map { index in
                Figure(
                    name: "\(name), \(grouped(sizes[index])) items, terminal vs pipe",
                    measured: "\(format(terminal[index] * 1000, 0)) ms",
                    baseline: "piped \(format(piped[index] * 1000, 0)) ms",
                    budget: "≤ 1.5× (\(format(ratios[index], 2))×)", passed: ratios[index] <= 1.5)
            }
    }

    /// Seconds to run `items` child tasks, four at a time, each reporting 64 KiB over about a
    /// millisecond, in one alert drawn on `output`.
    private static func quickTasks(_ items: Int, on output: DrainedOutput) async -> Double {
        let overlay = TerminalOverlay(terminal: output, colors: .never, integration: .none)
        let presenter = WaitAlertPresenter(renderers: [overlay], timing: .terminal)
        let start = ContinuousClock.now
        _ = try? await withWaitAlert("Hashing \(items) files", presenter: presenter) { alert in
            try await alert.tasks(
                for: Array(0..<items), policy: .keepGoing, maxConcurrency: 4, title: { "Hashing file\($0).bin" }
            ) { _, row in
                row.progress(completed: 0, total: 65_536, unit: .bytes)
                for _ in 0..<2 {
                    try await Task.sleep(for: .microseconds(500))
                    row.advance(by: 32_768)
                }
            }
        }
        let seconds = (ContinuousClock.now - start).seconds
        output.finish()
        return seconds
    }
}

/// Where an overlay writes in the quick-tasks figure: a pseudo-terminal of 120×30 or a pipe, its
/// other end read by a thread of its own as fast as bytes come, as a terminal emulator or a log
/// collector would.
final class DrainedOutput: WaitAlertTerminal {
    enum Kind { case terminal, pipe }

    private let kind: Kind
    private let readEnd: Int32
    /// The end written to, until ``finish()`` closes it.
    private let writeEnd: Mutex<Int32?>
    private let done = Mutex(false)

    init(_ kind: Kind) {
        self.kind = kind
        var ends: (read: Int32, write: Int32) = (-1, -1)
        switch kind {
        case .terminal:
            if let pty = Platform.openPseudoTerminal() {
                Platform.setWindowSize((columns: 120, rows: 30), of: pty.device)
                ends = (pty.controller, pty.device)
            }
        case .pipe:
            var pair: [Int32] = [-1, -1]
            if pipe(&pair) == 0 { ends = (pair[0], pair[1]) }
        }
        readEnd = ends.read
        writeEnd = Mutex(ends.write)
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while read(readEnd, &buffer, buffer.count) > 0 {}
            done.withLock { $0 = true }
        }.start()
    }

    var columns: Int? { kind == .terminal ? 120 : nil }
    var rows: Int? { kind == .terminal ? 30 : nil }
    var isInteractive: Bool { kind == .terminal }

    /// Writes every byte; once finished, refuses (the overlay then stops drawing).
    func write(_ bytes: [UInt8]) -> Bool {
        writeEnd.withLock { end in
            guard let end else { return false }
            writeAll(bytes, to: end)
            return true
        }
    }

    /// Closes the end written to, and the other once the reader has read everything.
    func finish() {
        writeEnd.withLock { end in
            if let descriptor = end { close(descriptor) }
            end = nil
        }
        while !done.withLock({ $0 }) { usleep(1_000) }
        close(readEnd)
    }
}

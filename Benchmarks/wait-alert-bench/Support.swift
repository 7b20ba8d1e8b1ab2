import Dispatch
import Synchronization
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One row of the results table.
struct Figure {
    var name: String
    var measured: String
    var baseline: String
    var budget: String
    var passed: Bool
}

/// CPU time (user + system) this process has used.
func cpuTime() -> Duration {
    var usage = rusage()
    #if os(Linux)
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    func duration(_ time: timeval) -> Duration { .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec)) }
    return duration(usage.ru_utime) + duration(usage.ru_stime)
}

/// The resident set size, from `/proc/self/statm` (Linux) or `getrusage` elsewhere, in bytes.
func residentBytes() -> Int {
    #if os(Linux)
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        let fields = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let resident = Int(fields[1]) else { return 0 }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
    #endif
}

extension Duration {
    var nanoseconds: Double { Double(attoseconds) / 1e9 }
    var seconds: Double { Double(attoseconds) / 1e18 }
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    var multiplier = 1.0
    for _ in 0..<digits { multiplier *= 10 }
    let rounded = (value * multiplier).rounded() / multiplier
    return digits == 0 ? String(Int(rounded)) : String(rounded)
}

/// The middle value of `values` (the mean of the two middle ones for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// Counts frames and measures how late each spinner frame is drawn after its deadline: frame k
/// is due at the instant the alert appeared plus k intervals.
@MainActor
final class FrameProbe: WaitAlertRenderer {
    var frames = 0
    var lateness: [Double] = []  // milliseconds
    var lastText = ""
    private var appearedAt: Duration?
    private let interval = Spinner.brailleDots.interval

    var wantsFrames: Bool { true }

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        frames += 1
        lastText = snapshot.text
        guard snapshot.spinnerFrame != nil else { return }
        guard let appearedAt else {
            appearedAt = snapshot.textSince
            return
        }
        let late = instant - appearedAt
        let due = Duration(attoseconds: late.attoseconds / interval.attoseconds * interval.attoseconds)
        lateness.append((late - due).nanoseconds / 1e6)
    }

    func log(_ line: String, from alert: WaitAlertID) {}
}

/// An interactive terminal that only keeps the bytes written: the overlay's own cost, without a
/// terminal emulator's.
final class ByteSink: WaitAlertTerminal {
    private let bytes = Mutex<[UInt8]>([])

    var columns: Int? { 80 }
    var isInteractive: Bool { true }

    func write(_ newBytes: [UInt8]) -> Bool {
        bytes.withLock { $0 += newBytes }
        return true
    }

    var output: [UInt8] { bytes.withLock { $0 } }
}

/// Something a text can be stored into from any task: the reporter, or the baseline.
protocol TextSink: Sendable {
    func update(_ text: String)
}

extension WaitAlertReporter: TextSink {}

/// A pipe drained slowly by a thread of its own, as a slow terminal or a busy log collector
/// would: it reads at most `chunk` bytes, then pauses `pause`. Counts the numbered lines it
/// received and checks they arrive in order (each starts with its number; other lines are
/// skipped).
final class SlowPipe: Sendable {
    let writeEnd: Int32
    private let readEnd: Int32
    private let result = Mutex<(lines: Int, inOrder: Bool, done: Bool)>((0, true, false))

    init(chunk: Int = 16_384, pause: Duration = .microseconds(200)) {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        (readEnd, writeEnd) = (ends[0], ends[1])
        let readEnd = readEnd
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: chunk)
            var pending: [UInt8] = []
            var expected = 0
            var inOrder = true
            while true {
                let count = read(readEnd, &buffer, chunk)
                guard count > 0 else { break }
                pending += buffer[..<count]
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = pending[..<newline]
                    // Numbered lines are the flood; others are the alert's own (its text, its end).
                    if let number = Int(String(decoding: line.prefix { $0 != 0x20 }, as: UTF8.self)) {
                        if number != expected { inOrder = false }
                        expected += 1
                    }
                    pending.removeSubrange(...newline)
                }
                usleep(UInt32(pause.nanoseconds / 1000))
            }
            result.withLock { $0 = (expected, inOrder, true) }
        }.start()
    }

    /// Closes the write end and waits for the reader to have read everything.
    func finish() async -> (lines: Int, inOrder: Bool) {
        close(writeEnd)
        while !result.withLock({ $0.done }) { try? await Task.sleep(for: .milliseconds(5)) }
        close(readEnd)
        return result.withLock { ($0.lines, $0.inOrder) }
    }
}

/// Runs `body` once on a thread of its own (a dispatch queue's), beside the main actor and the
/// cooperative pool: for a loop that blocks, reading a pipe or sampling memory.
struct Thread {
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        DispatchQueue(label: "wait-alert-bench").async(execute: body)
    }
}

/// Samples the resident size every few milliseconds and keeps the peak.
final class PeakMemory: Sendable {
    private let state = Mutex<(peak: Int, running: Bool)>((0, true))

    init() {
        Thread { [self] in
            while state.withLock({ $0.running }) {
                let resident = residentBytes()
                state.withLock { $0.peak = max($0.peak, resident) }
                usleep(2_000)
            }
        }.start()
    }

    /// Stops sampling and returns the peak.
    func stop() -> Int {
        state.withLock {
            $0.running = false
            return $0.peak
        }
    }
}

/// Writes every byte to `descriptor`, as the overlay's own writes do.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written > 0 { offset += written } else if errno != EINTR { return }
    }
}

/// An interactive 80×24 terminal that only counts what is written: the overlay's own cost, without
/// a terminal emulator's or the memory of a transcript.
final class CountingTerminal: WaitAlertTerminal {
    private let counts = Mutex<(bytes: Int, writes: Int, refuses: Bool)>((0, 0, false))

    var columns: Int? { 80 }
    var rows: Int? { 24 }
    var isInteractive: Bool { true }

    func write(_ newBytes: [UInt8]) -> Bool {
        counts.withLock {
            $0.bytes += newBytes.count
            $0.writes += 1
            return !$0.refuses
        }
    }

    /// Set to refuse every later write: the overlay then stops drawing for good.
    var refuses: Bool {
        get { counts.withLock { $0.refuses } }
        set { counts.withLock { $0.refuses = newValue } }
    }

    /// Bytes and writes so far.
    var written: (bytes: Int, writes: Int) { counts.withLock { ($0.bytes, $0.writes) } }
}

/// An interactive 80×24 terminal that keeps the bytes written and when each write came: the
/// overlay's own cost, without a terminal emulator's.
final class TimedTerminal: WaitAlertTerminal {
    private struct State {
        var bytes: [UInt8] = []
        /// Where the bytes counted since the last reset begin.
        var mark = 0
        var instants: [ContinuousClock.Instant] = []
    }
    private let state = Mutex(State())

    var columns: Int? { 80 }
    var rows: Int? { 24 }
    var isInteractive: Bool { true }

    func write(_ newBytes: [UInt8]) -> Bool {
        let now = ContinuousClock.now
        state.withLock {
            $0.bytes += newBytes
            $0.instants.append(now)
        }
        return true
    }

    /// Everything written so far.
    var output: [UInt8] { state.withLock { $0.bytes } }

    /// What was written since the last reset: bytes, writes, and when each came.
    /// What the terminal received over a window: bytes, writes, and when each came.
    typealias Written = (bytes: Int, writes: Int, instants: [ContinuousClock.Instant])

    var written: Written {
        state.withLock { ($0.bytes.count - $0.mark, $0.instants.count, $0.instants) }
    }

    /// Counts from now on (the bytes stay, for the screen).
    func reset() {
        state.withLock { state in
            state.mark = state.bytes.count
            state.instants = []
        }
    }
}

/// The least any spinner can do: a dispatch timer that writes `\r` and the next glyph every
/// 80 ms. The baseline of idle spinning.
final class BareSpinner {
    private let timer: any DispatchSourceTimer

    init(terminal: TimedTerminal) {
        let frames = Spinner.brailleDots.frames.map { Array(("\r" + $0).utf8) }
        let index = Mutex(0)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "BareSpinner"))
        timer.schedule(deadline: .now(), repeating: .milliseconds(80), leeway: .milliseconds(1))
        timer.setEventHandler {
            let frame = index.withLock { index in
                defer { index = (index + 1) % frames.count }
                return frames[index]
            }
            _ = terminal.write(frame)
        }
        timer.resume()
    }

    func stop() { timer.cancel() }
}

/// The least a spinner on a thread of its own can do: a thread that sleeps until each 80 ms frame
/// and writes `\r` and the next glyph. One wake-up and one write a frame: the floor of idle
/// spinning.
final class BareThreadSpinner: Sendable {
    private let running = Atomic(true)

    init(terminal: TimedTerminal) {
        let frames = Spinner.brailleDots.frames.map { Array(("\r" + $0).utf8) }
        DispatchQueue(label: "BareThreadSpinner").async { [self] in
            var next = ContinuousClock.now
            var index = 0
            while running.load(ordering: .relaxed) {
                next += .milliseconds(80)
                let nanoseconds = max(next - ContinuousClock.now, .zero).attoseconds / 1_000_000_000
                var request = timespec(
                    tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
                var remaining = timespec()
                while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
                _ = terminal.write(frames[index])
                index = (index + 1) % frames.count
            }
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

/// Counts the snapshots each alert is drawn with. It draws no frames itself, so it leaves the
/// presenter's choice of which alerts to animate to the overlay.
@MainActor
final class RenderCounter: WaitAlertRenderer {
    private(set) var renders: [WaitAlertID: Int] = [:]

    var wantsFrames: Bool { false }

    func render(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        renders[alert, default: 0] += 1
    }

    func log(_ line: String, from alert: WaitAlertID) {}
}

/// Holds tasks until it opens, counting those that came: so many tasks can be started, and
/// measured from the instant they all go.
final class Gate: Sendable {
    private let state = Mutex<(arrived: Int, isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>(
        (0, false, []))

    /// Waits until the gate is open.
    func pass() async {
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state -> Bool in
                state.arrived += 1
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if passes { continuation.resume() }
        }
    }

    /// Lets every waiting task (and every later one) through.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }

    /// How many tasks came to the gate.
    var arrived: Int { state.withLock { $0.arrived } }

    /// Waits until `count` tasks came to the gate.
    func waitForArrivals(_ count: Int) async {
        while arrived < count { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

/// The latest instant at which one of many tasks ended its loop, and how many did.
final class LoopEnds: Sendable {
    private let state = Mutex<(count: Int, latest: ContinuousClock.Instant?)>((0, nil))

    func record() {
        let now = ContinuousClock.now
        state.withLock {
            $0.count += 1
            $0.latest = max($0.latest ?? now, now)
        }
    }

    /// Waits until `count` loops ended, and returns when the last one did.
    func waitForAll(_ count: Int) async -> ContinuousClock.Instant {
        while true {
            let (ended, latest) = state.withLock { ($0.count, $0.latest) }
            if ended >= count, let latest { return latest }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// The bytes the C allocator has handed out and not had back (glibc's `malloc_stats`, "in use
/// bytes" over every arena and mmapped block, chunk headers included), or `nil` where that is
/// not available. Exact to the byte, unlike the resident size, which keeps freed pages and counts
/// whole pages.
///
/// glibc prints these statistics to standard error only, so standard error is pointed at a
/// temporary file for the call.
func mallocInUse() -> Int? {
    #if os(Linux)
        guard let symbol = dlsym(nil, "malloc_stats") else { return nil }
        let stats = unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)
        var name = Array("/tmp/wait-alert-bench-XXXXXX".utf8CString)
        let file = mkstemp(&name)
        guard file >= 0 else { return nil }
        unlink(name)
        defer { close(file) }
        let standardError = dup(2)
        dup2(file, 2)
        stats()
        dup2(standardError, 2)
        close(standardError)
        lseek(file, 0, SEEK_SET)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(file, &buffer, buffer.count), count > 0 { output += buffer[..<count] }
        // "Total (incl. mmap):" then "system bytes = …", "in use bytes = …".
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        guard let total = lines.firstIndex(where: { $0.hasPrefix("Total") }),
            let inUse = lines[total...].first(where: { $0.contains("in use bytes") }),
            let field = inUse.split(separator: " ").last
        else { return nil }
        return Int(field)
    #else
        return nil
    #endif
}

/// indicatif's steady tick (`ProgressBar::enable_steady_tick`), re-implemented as its ticker
/// thread runs it: each round it upgrades its weak reference to the bar's state, locks it,
/// counts the tick and draws the whole line (`\r`, the glyph, the message, cleared to the end of
/// the line), then waits out the interval on a condition variable that a stop signals (Rust's
/// `Condvar::wait_timeout_while`: a futex wait on the monotonic clock).
final class IndicatifTickLoop: @unchecked Sendable {
    private final class BarState: @unchecked Sendable {
        var tick = 0
        var message = "Working"
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var stopped = false
    private var state: BarState? = BarState()
    private let stateLock = Mutex(())

    init(terminal: TimedTerminal) {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        let frames = Spinner.brailleDots.frames
        DispatchQueue(label: "IndicatifTickLoop").async { [self, weak bar = state] in
            while let state = bar {
                stateLock.withLock { _ in
                    state.tick += 1
                    let line = "\r\u{1B}[2K\(frames[state.tick % frames.count]) \(state.message)"
                    _ = terminal.write(Array(line.utf8))
                }
                var deadline = timespec()
                clock_gettime(CLOCK_MONOTONIC, &deadline)
                deadline.tv_nsec += 80_000_000
                if deadline.tv_nsec >= 1_000_000_000 {
                    deadline.tv_sec += 1
                    deadline.tv_nsec -= 1_000_000_000
                }
                pthread_mutex_lock(mutex)
                var timedOut = false
                while !stopped, !timedOut {
                    timedOut = pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT
                }
                let stop = stopped
                pthread_mutex_unlock(mutex)
                if stop { break }
            }
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        state = nil
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}

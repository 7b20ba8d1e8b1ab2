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

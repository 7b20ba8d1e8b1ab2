import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The final lines a forced exit leaves — a second Ctrl-C while cancelled work still runs ends
/// the program at once — one for each alert still running: `⚠ Building: interrupted after 3.1s`,
/// under what the program printed.
///
/// Whoever shows the alerts publishes each line up to its elapsed time, and since when its work
/// runs (``publish(_:color:)``, on any thread, whenever that changes); the signal handler that
/// ends the program writes them with the time each has run by then (``write(to:)``). The lines
/// live in memory allocated once: a handler reads them while no publisher writes them (a count
/// of readers, and a flag that says whether the memory holds whole lines), and never allocates.
enum ForcedExitLines {
    /// One line: `text` (`⚠ Building: interrupted after `), then how long the work has run since
    /// `startedAt` (on ``Platform/monotonicNow()``'s clock), as ``DurationFormat`` writes it.
    /// Made from how long the work has run when it is published (``init(text:elapsed:)``): the
    /// caller need not know this clock.
    struct Line: Sendable, Hashable {
        var text: String
        var startedAt: Duration

        /// The line of work that has run for `elapsed` now.
        init(text: String, elapsed: Duration) {
            self.text = text
            self.startedAt = Platform.monotonicNow() - elapsed
        }
    }

    /// The most bytes the lines take; lines past it are left out.
    private static let capacity = 16 * 1024
    // Read by a signal handler, written under `publishing`'s lock while no handler reads it (see
    // `readers` and `valid`).
    nonisolated(unsafe) private static let storage = UnsafeMutableRawBufferPointer.allocate(
        byteCount: capacity, alignment: 8)
    /// How many bytes of ``storage`` hold lines, while they are whole.
    private static let count = Atomic<Int>(0)
    /// Whether ``storage`` holds whole lines: cleared while a publisher writes it.
    private static let valid = Atomic<Bool>(false)
    /// Handlers reading ``storage`` now: a publisher waits for none before writing it.
    private static let readers = Atomic<Int>(0)
    /// The lines published last; held while a publisher writes ``storage``.
    private static let publishing = Mutex<Published?>(nil)

    private struct Published: Equatable {
        var lines: [Line]
        var color: String?
    }
    /// Where a handler composes the elapsed time (one handler ends the program: never two at once).
    nonisolated(unsafe) private static let digits = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 1)

    /// Makes everything a signal handler reads here before any handler can run.
    static func prepareForSignals() {
        _ = storage.count
        _ = digits.count
        _ = count.load(ordering: .relaxed)
        _ = valid.load(ordering: .relaxed)
        _ = readers.load(ordering: .relaxed)
    }

    /// Publishes the lines a forced exit writes from now on (none: it writes nothing), in `color`
    /// (an SGR parameter such as `33`, used only in the foreground) when given.
    static func publish(_ lines: [Line], color: String? = nil) {
        publishing.withLock { published in
            guard published != Published(lines: lines, color: color) else { return }
            published = Published(lines: lines, color: color)
            valid.store(false, ordering: .sequentiallyConsistent)
            while readers.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
            var offset = 0
            func append(_ bytes: some Collection<UInt8>) -> Bool {
                guard offset + 2 + bytes.count <= capacity else { return false }
                storage.storeBytes(of: UInt16(bytes.count), toByteOffset: offset, as: UInt16.self)
                UnsafeMutableRawBufferPointer(rebasing: storage[offset + 2..<offset + 2 + bytes.count])
                    .copyBytes(from: bytes)
                offset += 2 + bytes.count
                return true
            }
            _ = append(color.map { Array("\u{1B}[\($0)m".utf8) } ?? [])
            for line in lines {
                let start = offset
                guard append(line.text.utf8), offset + 8 <= capacity else {
                    offset = start
                    break
                }
                storage.storeBytes(of: line.startedAt.nanosecondsSinceOrigin, toByteOffset: offset, as: Int64.self)
                offset += 8
            }
            count.store(lines.isEmpty ? 0 : offset, ordering: .sequentiallyConsistent)
            valid.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// Writes the lines published, each with the time its work has run, to `descriptor`, in their
    /// colour when this process is in the terminal's foreground. Async-signal-safe.
    static func write(to descriptor: Int32) {
        readers.add(1, ordering: .sequentiallyConsistent)
        defer { readers.subtract(1, ordering: .sequentiallyConsistent) }
        guard descriptor >= 0, valid.load(ordering: .sequentiallyConsistent) else { return }
        let end = count.load(ordering: .sequentiallyConsistent)
        guard end > 0 else { return }
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let now = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        let colorCount = Int(storage.loadUnaligned(fromByteOffset: 0, as: UInt16.self))
        let color = UnsafeRawBufferPointer(rebasing: storage[2..<2 + colorCount])
        let colored = colorCount > 0 && Platform.isForeground(descriptor)
        var offset = 2 + colorCount
        while offset < end {
            let length = Int(storage.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            let text = UnsafeRawBufferPointer(rebasing: storage[offset + 2..<offset + 2 + length])
            let startedAt = storage.loadUnaligned(fromByteOffset: offset + 2 + length, as: Int64.self)
            offset += 2 + length + 8
            if colored { _ = Platform.writeAll(color, to: descriptor) }
            _ = Platform.writeAll(text, to: descriptor)
            let written = seconds(milliseconds: max(now - startedAt, 0) / 1_000_000, into: digits)
            _ = Platform.writeAll(UnsafeRawBufferPointer(rebasing: digits[..<written]), to: descriptor)
            if colored { _ = writeAll("\u{1B}[0m", to: descriptor) }
            _ = writeAll("\n", to: descriptor)
        }
    }

    /// Writes a static string's bytes. Async-signal-safe.
    private static func writeAll(_ text: StaticString, to descriptor: Int32) -> Bool {
        Platform.writeAll(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), to: descriptor)
    }

    /// Writes `milliseconds` the way final lines say how long work ran — `0.4s`, `12.0s`,
    /// `2m 5s`, `3h 12m` — into `buffer`; returns how many bytes it took. Async-signal-safe: no
    /// allocation, digits by division.
    static func seconds(milliseconds: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var offset = 0
        func put(_ byte: UInt8) {
            guard offset < buffer.count else { return }
            buffer[offset] = byte
            offset += 1
        }
        func put(_ value: Int64) {
            var divisor: Int64 = 1
            while value / divisor >= 10 { divisor *= 10 }
            while divisor > 0 {
                put(UInt8(truncatingIfNeeded: 48 + value / divisor % 10))
                divisor /= 10
            }
        }
        let milliseconds = max(milliseconds, 0)
        let tenths = (milliseconds + 50) / 100
        if tenths < 600 {
            put(tenths / 10)
            put(UInt8(ascii: "."))
            put(tenths % 10)
            put(UInt8(ascii: "s"))
            return offset
        }
        let seconds = (milliseconds + 500) / 1000
        if seconds < 3600 {
            put(seconds / 60)
            put(UInt8(ascii: "m"))
            put(UInt8(ascii: " "))
            put(seconds % 60)
            put(UInt8(ascii: "s"))
            return offset
        }
        let minutes = (seconds + 30) / 60
        put(minutes / 60)
        put(UInt8(ascii: "h"))
        put(UInt8(ascii: " "))
        put(minutes % 60)
        put(UInt8(ascii: "m"))
        return offset
    }
}

extension Duration {
    /// The duration in whole nanoseconds (an instant of ``Platform/monotonicNow()`` since its
    /// origin).
    fileprivate var nanosecondsSinceOrigin: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

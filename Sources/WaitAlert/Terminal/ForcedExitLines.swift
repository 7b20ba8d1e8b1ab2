import Synchronization

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

    /// The session keeps the lines, where a signal handler reads them.
    private static var session: TerminalState { .shared }
    private static var capacity: Int { TerminalState.forcedExitCapacity }
    /// The lines published last; held while a publisher writes the session's lines.
    private static let publishing = Mutex<Published?>(nil)

    private struct Published: Equatable {
        var lines: [Line]
        var color: String?
    }

    /// Publishes the lines a forced exit writes from now on (none: it writes nothing), in `color`
    /// (an SGR parameter such as `33`, used only in the foreground) when given.
    static func publish(_ lines: [Line], color: String? = nil) {
        publishing.withLock { published in
            guard published != Published(lines: lines, color: color) else { return }
            published = Published(lines: lines, color: color)
            session.forcedExitValid.store(false, ordering: .sequentiallyConsistent)
            while session.forcedExitReaders.load(ordering: .sequentiallyConsistent) > 0 { Platform.yieldProcessor() }
            var offset = 0
            func append(_ bytes: some Collection<UInt8>) -> Bool {
                guard offset + 2 + bytes.count <= capacity else { return false }
                session.forcedExitStorage.storeBytes(of: UInt16(bytes.count), toByteOffset: offset, as: UInt16.self)
                UnsafeMutableRawBufferPointer(
                    rebasing: session.forcedExitStorage[offset + 2..<offset + 2 + bytes.count]
                )
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
                session.forcedExitStorage.storeBytes(
                    of: line.startedAt.nanosecondsSinceOrigin, toByteOffset: offset, as: Int64.self)
                offset += 8
            }
            session.forcedExitCount.store(lines.isEmpty ? 0 : offset, ordering: .sequentiallyConsistent)
            session.forcedExitValid.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// Writes the lines published, each with the time its work has run, to `descriptor`, in their
    /// colour when this process is in the terminal's foreground. Async-signal-safe.
    static func write(to descriptor: Int32) {
        session.forcedExitReaders.add(1, ordering: .sequentiallyConsistent)
        defer { session.forcedExitReaders.subtract(1, ordering: .sequentiallyConsistent) }
        guard descriptor >= 0, session.forcedExitValid.load(ordering: .sequentiallyConsistent) else { return }
        let end = session.forcedExitCount.load(ordering: .sequentiallyConsistent)
        guard end > 0 else { return }
        let now = Platform.monotonicNow().nanosecondsSinceOrigin
        let colorCount = Int(session.forcedExitStorage.loadUnaligned(fromByteOffset: 0, as: UInt16.self))
        let color = UnsafeRawBufferPointer(rebasing: session.forcedExitStorage[2..<2 + colorCount])
        let colored = colorCount > 0 && Platform.isForeground(descriptor)
        var offset = 2 + colorCount
        while offset < end {
            let length = Int(session.forcedExitStorage.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            let text = UnsafeRawBufferPointer(rebasing: session.forcedExitStorage[offset + 2..<offset + 2 + length])
            let startedAt = session.forcedExitStorage.loadUnaligned(fromByteOffset: offset + 2 + length, as: Int64.self)
            offset += 2 + length + 8
            if colored { _ = Platform.writeAll(color, to: descriptor) }
            _ = Platform.writeAll(text, to: descriptor)
            let written = seconds(milliseconds: max(now - startedAt, 0) / 1_000_000, into: session.forcedExitDigits)
            _ = Platform.writeAll(
                UnsafeRawBufferPointer(rebasing: session.forcedExitDigits[..<written]), to: descriptor)
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

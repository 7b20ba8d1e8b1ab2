import Dispatch
import Synchronization

/// Catches what the program and its subprocesses write to standard output and standard error
/// while an overlay shows on that terminal, so it comes out above the region instead of through
/// it.
///
/// While capturing, descriptors 1 and 2 (1 only when it is the overlay's own terminal) are
/// pseudo-terminals: the program still sees a terminal there (`isatty`, colours, line buffering
/// and the window size are unchanged), and one relay thread drains them continuously into lines
/// (``OutputLines``). The overlay collects the lines at each draw, in order within each stream,
/// and prints them above the region; the relay wakes it when output comes. If the overlay does
/// not collect (its thread is busy, or is the one printing), the relay prints the lines itself
/// once ``backlogLimit`` bytes wait, erasing the region, which the overlay then draws again: the
/// memory stays bounded and a program that prints a lot never waits on the overlay.
///
/// Releasing puts the real descriptors back and prints what was still on its way, the unfinished
/// line as it was written. The relay and its pseudo-terminals stay for the next capture; output
/// that a subprocess writes through them after a release passes straight to the terminal.
/// The real descriptors are duplicated once and never closed, so a write racing with a release
/// never lands on a reused descriptor.
final class OutputRelay: Sendable {
    /// One of the two captured streams.
    enum Stream: Int, Sendable, CaseIterable {
        case output = 1
        case error = 2
    }

    /// A line of captured output.
    struct Line: Sendable, Equatable {
        var stream: Stream
        var text: String
    }

    /// What the overlay collects at a draw.
    struct Collected: Sendable {
        /// The lines finished since the last collection, in the order they were written.
        var lines: [Line] = []
        /// The unfinished line of each stream that has waited long enough to show.
        var partials: [Stream: String] = [:]
        /// Whether the relay printed lines itself and so erased the region.
        var erasedRegion = false
    }

    /// Bytes of lines waiting for the overlay before the relay prints them itself.
    static let backlogLimit = 256 * 1024

    /// The descriptor that reaches what `descriptor` (1 or 2) reached before the capture: a
    /// duplicate of it while it is captured, `descriptor` itself otherwise. Async-signal-safe.
    static func real(_ descriptor: Int32) -> Int32 {
        let real =
            switch descriptor {
            case Platform.standardOutput: TerminalState.shared.realOutput.load(ordering: .sequentiallyConsistent)
            case Platform.standardError: TerminalState.shared.realError.load(ordering: .sequentiallyConsistent)
            default: Int32(-1)
            }
        return real >= 0 ? real : descriptor
    }

    private static func publishReal(_ descriptor: Int32, of stream: Stream) {
        switch stream {
        case .output: TerminalState.shared.realOutput.store(descriptor, ordering: .sequentiallyConsistent)
        case .error: TerminalState.shared.realError.store(descriptor, ordering: .sequentiallyConsistent)
        }
    }

    /// The relay of the process, made by the first capture; `nil` until then or when the system
    /// has no pseudo-terminals to give.
    static let shared = Mutex<OutputRelay?>(nil)

    /// The capture of one stream: its pseudo-terminal and the real descriptor it stands in for.
    struct Channel: Sendable {
        var stream: Stream
        /// The pseudo-terminal's controller (read by the relay) and device (given to the program).
        var controller: Int32
        var device: Int32
        /// A duplicate of the real descriptor, made once.
        var real: Int32
    }

    struct State: Sendable {
        var channels: [Channel] = []
        var lines: [Stream: OutputLines] = [:]
        /// Lines waiting for the overlay, and their size in bytes.
        var waiting: [Line] = []
        var waitingBytes = 0
        /// Whether the overlay collects (a capture is on) and how the relay wakes it.
        var wake: (@Sendable () -> Void)?
        /// What erases the overlay's lines, from the row the cursor rests on and so many rows
        /// above it: the overlay's own vocabulary, handed with the capture.
        var eraseRegion: (@Sendable (_ rowsAboveCursor: Int) -> String)?
        /// Whether the overlay was already woken and has not collected since.
        var woken = false
        var erasedRegion = false
        var capturedStreams: Set<Stream> = []
        /// The bytes of the unfinished lines.
        var unfinishedBytes: [UInt8] { lines.values.flatMap(\.unfinishedBytes) }
        /// Where reads land.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    }

    let state = Mutex(State())

    private init(channels: [Channel]) {
        state.withLock { state in
            state.channels = channels
            for channel in channels { state.lines[channel.stream] = OutputLines() }
        }
        Self.publishForHandOff(channels)
        let relay = self
        DispatchQueue(label: "WaitAlert output relay", qos: .userInitiated).async { relay.run() }
    }

    /// The process's relay, made on first use.
    static func relay() -> OutputRelay? {
        shared.withLock { shared in
            if let shared { return shared }
            var channels: [Channel] = []
            for stream in Stream.allCases {
                guard let channel = Self.openChannel(for: stream) else { continue }
                channels.append(channel)
            }
            guard !channels.isEmpty else { return nil }
            shared = OutputRelay(channels: channels)
            return shared
        }
    }

    // MARK: - Capturing

    /// Starts capturing standard error (the overlay's terminal, `real`) and standard output when
    /// it is the same terminal; `wake` is called, on the relay thread, when output waits.
    /// Returns whether anything is captured.
    func capture(
        wake: @escaping @Sendable () -> Void, eraseRegion: @escaping @Sendable (_ rowsAboveCursor: Int) -> String
    ) -> Bool {
        // No stdio stream is flushed here: a flush locks every stream, standard input too, which
        // a thread waiting in `readLine()` holds. What a stream still buffers goes out through
        // whichever descriptor it finds when it is flushed, in order with the rest.
        Self.prepareForSignals()
        return state.withLock { state in
            guard state.wake == nil else { return true }
            // Not while the program ends: a handler that ends it on a signal hands the output off.
            guard !TerminalState.shared.ended.load(ordering: .sequentiallyConsistent),
                !TerminalState.shared.exited.load(ordering: .sequentiallyConsistent)
            else { return false }
            let terminal = Platform.terminalDevice(of: Platform.standardError)
            // Standard error first: standard output, on the same terminal, then goes through
            // standard error's pseudo-terminal too, so that what the program writes to the two
            // reaches the relay in the order it wrote it, as it reaches a terminal. (Through two
            // pseudo-terminals the system may hand a line written to one after a line written
            // later to the other.) The unused channel of standard output stays for a capture
            // where standard error is not captured.
            var sharedDevice: Int32?
            for channel in state.channels.sorted(by: { $0.stream == .error && $1.stream != .error }) {
                let descriptor = Int32(channel.stream.rawValue)
                guard Platform.isTerminal(descriptor), let terminal, Platform.terminalDevice(of: descriptor) == terminal
                else {
                    continue
                }
                Self.copyModes(from: descriptor, to: channel.device)
                // The real descriptor is published before the switch: a write that reads it in
                // between reaches the terminal either way.
                if Platform.terminalDevice(of: channel.real) != terminal { continue }  // descriptor 1 or 2 was replaced
                Self.publishReal(channel.real, of: channel.stream)
                guard Platform.duplicate(sharedDevice ?? channel.device, onto: descriptor) else {
                    Self.publishReal(-1, of: channel.stream)
                    continue
                }
                state.capturedStreams.insert(channel.stream)
                if sharedDevice == nil { Self.publishController(channel.controller, of: channel.stream) }
                if channel.stream == .error { sharedDevice = channel.device }
            }
            guard !state.capturedStreams.isEmpty else { return false }
            state.wake = wake
            state.eraseRegion = eraseRegion
            state.woken = false
            return true
        }
    }

    /// Ends the capture: the real descriptors come back, and what was written through the
    /// capture and not printed yet is written to them — lines first, then each stream's
    /// unfinished line as it was, with no line end added. Written like an overlay write, in the
    /// lock order of ``printBacklog()``: once a signal handler has ended the program (and printed
    /// what was caught itself), nothing is written twice.
    /// - Returns: whether the relay had erased the overlay's lines to print output, and the
    ///   overlay has not drawn them since.
    @discardableResult
    func release() -> Bool {
        TerminalState.shared.lock.withLock { _ in
            TerminalState.shared.beginWrite()
            defer { TerminalState.shared.endWrite() }
            return release(writing: !TerminalState.shared.ended.load(ordering: .sequentiallyConsistent))
        }
    }

    private func release(writing: Bool) -> Bool {
        state.withLock { state in
            guard state.wake != nil else { return false }
            let erasedRegion = state.erasedRegion
            for stream in state.capturedStreams {
                Self.publishController(-1, of: stream)
                Platform.duplicate(Self.real(Int32(stream.rawValue)), onto: Int32(stream.rawValue))
                Self.publishReal(-1, of: stream)
            }
            drain(&state, at: Platform.monotonicNow())
            // In the order written: consecutive lines of one stream in one write.
            var writes: [(stream: Stream, bytes: [UInt8])] = []
            func add(_ bytes: [UInt8], to stream: Stream) {
                if writes.last?.stream == stream {
                    writes[writes.count - 1].bytes += bytes
                } else {
                    writes.append((stream, bytes))
                }
            }
            for line in state.waiting {
                add(Array(TextSanitizer.keepingColors(line.text).utf8) + [0x0A], to: line.stream)
            }
            for stream in Stream.allCases where state.capturedStreams.contains(stream) {
                add(Array((state.lines[stream]?.finishForDisplay() ?? "").utf8), to: stream)
            }
            state.waiting = []
            Self.printedAll(keeping: state.unfinishedBytes)
            state.waitingBytes = 0
            state.wake = nil
            state.erasedRegion = false
            state.capturedStreams = []
            for (stream, bytes) in writes where writing && !bytes.isEmpty {
                _ = bytes.withUnsafeBytes { Platform.writeAll($0, to: Int32(stream.rawValue)) }
            }
            return erasedRegion
        }
    }

    /// The lines finished since the last collection and the unfinished lines to show, reading
    /// first what the pseudo-terminals hold: everything written before the call is in it. An
    /// unfinished line shows once it has waited long enough on the relay's clock, the monotonic
    /// one its thread reads too.
    func collect() -> Collected {
        let instant = Platform.monotonicNow()
        return state.withLock { state in
            guard state.wake != nil else { return Collected() }
            drain(&state, at: instant)
            var collected = Collected(lines: state.waiting, erasedRegion: state.erasedRegion)
            for stream in state.capturedStreams {
                collected.partials[stream] = state.lines[stream]?.partial(at: instant)
            }
            state.waiting = []
            Self.printedAll(keeping: state.unfinishedBytes)
            state.waitingBytes = 0
            state.woken = false
            state.erasedRegion = false
            return collected
        }
    }

    // MARK: - The relay thread

    private func run() {
        let channels = state.withLock { $0.channels }
        let descriptors = channels.map(\.controller)
        while true {
            // Sleeps until output comes, or until an unfinished line is due to show.
            let timeout = state.withLock { state -> Int32 in
                let now = Platform.monotonicNow()
                let deadline = state.lines.values.compactMap(\.partialDeadline).filter { $0 > now }.min()
                guard state.wake != nil, let deadline else { return -1 }
                return Int32(clamping: Int(((deadline - now) / .milliseconds(1)).rounded(.up)))
            }
            guard Platform.readiness(of: descriptors, milliseconds: timeout) != nil else { return }
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                let now = Platform.monotonicNow()
                drain(&state, at: now)
                guard let wake = state.wake else { return nil }
                let partialShows = state.capturedStreams.contains { stream in
                    state.lines[stream]?.partial(at: now) != nil
                }
                guard !state.woken, !state.waiting.isEmpty || partialShows else { return nil }
                state.woken = true
                return wake
            }
            // With nothing on screen the lines go out at once; otherwise the overlay prints them
            // above its lines, unless too many wait for it.
            if !TerminalState.shared.drawn.load(ordering: .sequentiallyConsistent)
                || state.withLock({ $0.waitingBytes > Self.backlogLimit })
            {
                if printBacklog() { wakeOverlay() }  // to draw the lines it erased again
            } else {
                wake?()
            }
        }
    }

    /// Reads everything the pseudo-terminals hold, without waiting: into lines while capturing,
    /// straight to the real descriptors otherwise.
    private func drain(_ state: inout State, at instant: Duration) {
        for channel in state.channels {
            while true {
                // A read and the copy kept for a signal handler happen together (see
                // `releaseFromSignal`).
                TerminalState.shared.relayReadsInFlight.add(1, ordering: .sequentiallyConsistent)
                defer { TerminalState.shared.relayReadsInFlight.subtract(1, ordering: .sequentiallyConsistent) }
                guard !TerminalState.shared.relayFrozen.load(ordering: .sequentiallyConsistent) else { return }
                let count = state.buffer.withUnsafeMutableBytes {
                    Platform.readSome(channel.controller, into: $0.baseAddress, count: $0.count)
                }
                guard count > 0 else { break }
                let bytes = state.buffer[..<count]
                guard state.wake != nil, state.capturedStreams.contains(channel.stream) else {
                    _ = bytes.withUnsafeBytes { Platform.writeAll($0, to: channel.real) }
                    continue
                }
                Self.keepUnprinted(bytes)
                for text in state.lines[channel.stream, default: OutputLines()].feed(bytes, at: instant) {
                    state.waiting.append(Line(stream: channel.stream, text: text))
                    state.waitingBytes += text.utf8.count + 1
                }
                if state.waitingBytes > Self.backlogLimit { break }
            }
        }
    }

    /// Prints the waiting lines without the overlay, which is not collecting them: erases the
    /// region (the overlay draws it again at its next draw) and writes them through the terminal's
    /// one write (``TerminalState/write(composing:through:)``), in the overlay's lock order (the
    /// write lock, then the relay's).
    ///
    /// Like an overlay write, it counts itself in while a signal handler may wait for it, and
    /// writes nothing once a handler has quieted the overlay or the program has ended (the lines
    /// stay for the handler, or for the release at the exit).
    ///
    /// - Returns: whether it erased the overlay's lines.
    private func printBacklog() -> Bool {
        var erased = false
        _ = TerminalState.shared.write(
            composing: {
                state.withLock { state in
                    guard state.wake != nil, !state.waiting.isEmpty else { return ([], nil) }
                    var out = ""
                    if let erase = TerminalState.shared.takeScreenToPrintOver(state.eraseRegion ?? { _ in "" }) {
                        out = erase
                        state.erasedRegion = true
                        erased = true
                    }
                    for line in state.waiting { out += TextSanitizer.keepingColors(line.text) + "\r\n" }
                    state.waiting = []
                    Self.printedAll(keeping: state.unfinishedBytes)
                    state.waitingBytes = 0
                    state.woken = false
                    return (Array(out.utf8), nil)
                }
            },
            through: { bytes in bytes.withUnsafeBytes { Platform.writeAll($0, to: Self.real(Platform.standardError)) } }
        )
        return erased
    }

    /// Wakes the overlay, unless it was woken and has not collected since.
    private func wakeOverlay() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard let wake = state.wake, !state.woken else { return nil }
            state.woken = true
            return wake
        }
        wake?()
    }

    // MARK: - Pseudo-terminals

    /// A pseudo-terminal for `stream`, with a duplicate of its real descriptor; `nil` when the
    /// descriptor is not a terminal or the system has no pseudo-terminal to give.
    private static func openChannel(for stream: Stream) -> Channel? {
        let descriptor = Int32(stream.rawValue)
        guard Platform.isTerminal(descriptor) else { return nil }
        guard let (controller, device) = Platform.openPseudoTerminal() else { return nil }
        guard let real = Platform.duplicateAboveStandard(descriptor) else {
            Platform.close(controller)
            Platform.close(device)
            return nil
        }
        Platform.setNonBlocking(controller)
        return Channel(stream: stream, controller: controller, device: device, real: real)
    }

    /// Gives the pseudo-terminal the real terminal's modes and window size.
    private static func copyModes(from descriptor: Int32, to device: Int32) {
        Platform.copyTerminalModes(from: descriptor, to: device)
        if let size = Platform.windowSize(of: descriptor) { Platform.setWindowSize(size, of: device) }
    }
}

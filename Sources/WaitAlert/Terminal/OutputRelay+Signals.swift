import Synchronization

extension OutputRelay {
    /// Memory a signal handler reads, allocated once and never freed.
    struct SignalContext {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        /// The captured bytes not printed yet, as they were written (``unprintedCount`` of them).
        let unprinted = UnsafeMutableRawBufferPointer.allocate(byteCount: 512 * 1024, alignment: 1)
        /// The captured streams' pseudo-terminals, copied to descriptors 1 and 2 by the hand-off.
        let handOff = ChannelCopier(capacity: 2, bufferSize: 4096, patience: 1000)
    }

    /// Keeps a copy of `bytes`, just read from a captured stream, until it is printed: a program
    /// that ends on a signal before the overlay printed it still shows it. Under the relay's lock.
    static func keepUnprinted(_ bytes: ArraySlice<UInt8>) {
        let count = TerminalState.shared.unprintedCount.load(ordering: .sequentiallyConsistent)
        let kept = min(bytes.count, signalContext.unprinted.count - count)
        guard kept > 0 else { return }
        UnsafeMutableRawBufferPointer(rebasing: signalContext.unprinted[count..<count + kept])
            .copyBytes(from: bytes.prefix(kept))
        TerminalState.shared.unprintedCount.store(count + kept, ordering: .sequentiallyConsistent)
    }

    /// Everything read was printed, except `unfinished` (the unfinished lines). Under the relay's
    /// lock.
    static func printedAll(keeping unfinished: [UInt8]) {
        TerminalState.shared.unprintedCount.store(0, ordering: .sequentiallyConsistent)
        keepUnprinted(unfinished[...])
    }

    // Read by the signal handlers; its pointers never change. Written only under the relay's
    // lock while no crash handler is installed.
    @exclusivity(unchecked) nonisolated(unsafe) static var signalContext = SignalContext()

    /// Publishes the controller of `stream`'s pseudo-terminal while it is captured (-1 after).
    static func publishController(_ controller: Int32, of stream: Stream) {
        switch stream {
        case .output:
            TerminalState.shared.capturedOutputController.store(controller, ordering: .sequentiallyConsistent)
        case .error: TerminalState.shared.capturedErrorController.store(controller, ordering: .sequentiallyConsistent)
        }
    }

    /// Puts the real descriptors back and writes what was caught and not printed yet, then what
    /// the pseudo-terminals still hold, to them, for a program that is ending on a signal: its
    /// last words (a crash message, a report written after the signal) reach the terminal,
    /// sanitized byte by byte (``RawOutputSanitizer``: no escape sequence or control but line
    /// ends and tabs, so colours go too). Async-signal-safe.
    static func releaseFromSignal() {
        // The relay stops reading, and a read under way (with its copy) is waited for, at most
        // 50 ms: from then on what was read is in the kept copy, and the rest in the
        // pseudo-terminals.
        TerminalState.shared.relayFrozen.store(true, ordering: .sequentiallyConsistent)
        var waits = 0
        while TerminalState.shared.relayReadsInFlight.load(ordering: .sequentiallyConsistent) > 0, waits < 50 {
            Platform.sleep(for: .milliseconds(1))
            waits += 1
        }
        let error = real(Platform.standardError)
        let unprinted = TerminalState.shared.unprintedCount.exchange(0, ordering: .sequentiallyConsistent)
        if error != Platform.standardError, unprinted > 0 {
            var sanitizer = RawOutputSanitizer()
            var count = sanitizer.filter(signalContext.unprinted, input: 0..<unprinted)
            count += sanitizer.finish(into: UnsafeMutableRawBufferPointer(rebasing: signalContext.unprinted[count...]))
            _ = Platform.writeAll(
                UnsafeRawBufferPointer(rebasing: signalContext.unprinted[..<count]), to: error)
        }
        release(
            Platform.standardOutput,
            controller: TerminalState.shared.capturedOutputController.exchange(-1, ordering: .sequentiallyConsistent))
        release(
            Platform.standardError,
            controller: TerminalState.shared.capturedErrorController.exchange(-1, ordering: .sequentiallyConsistent))
    }

    /// Puts the real `descriptor` back and writes what `controller` still holds to it,
    /// sanitized. Async-signal-safe.
    private static func release(_ descriptor: Int32, controller: Int32) {
        let real = real(descriptor)
        guard real != descriptor else { return }
        Platform.duplicate(real, onto: descriptor)
        guard controller >= 0 else { return }
        let buffer = signalContext.buffer
        let start = RawOutputSanitizer.maximumHeld  // room for bytes held from the read before
        var sanitizer = RawOutputSanitizer()
        while case let count = Platform.readSome(
            controller, into: buffer.baseAddress! + start, count: buffer.count - start),
            count > 0
        {
            let kept = sanitizer.filter(buffer, input: start..<start + count)
            _ = Platform.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<kept]), to: real)
        }
        let kept = sanitizer.finish(into: buffer)
        _ = Platform.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<kept]), to: real)
    }

    /// Makes everything a signal handler reads here before any handler can run (a handler must
    /// not run lazy initialisation).
    static func prepareForSignals() {
        TerminalState.prepareForSignals()
        prepareHandOffForSignals()
        _ = RawOutputSanitizer.maximumHeld
        _ = signalContext.buffer
        _ = real(Platform.standardOutput)
        _ = real(Platform.standardError)
    }
}

extension OutputRelay {
    /// Gives the captured streams' pseudo-terminals the real terminal's window size — in the
    /// `SIGWINCH` handler, and when the guard begins (a resize during the grace delay has no
    /// handler to see it). When one did not have it yet, `SIGWINCH` goes to the process group
    /// again, so a subprocess writing through them, which got the first signal with the program
    /// and may have asked for the size before the pseudo-terminal had it, asks again and gets
    /// the new one. Async-signal-safe.
    static func followWindowSize() {
        guard let size = Platform.windowSize(of: real(Platform.standardError)) else { return }
        var changed = false
        if TerminalState.shared.capturedOutputController.load(ordering: .sequentiallyConsistent) >= 0 {
            changed =
                resize(TerminalState.shared.handOffOutputDevice.load(ordering: .sequentiallyConsistent), to: size)
                || changed
        }
        if TerminalState.shared.capturedErrorController.load(ordering: .sequentiallyConsistent) >= 0 {
            changed =
                resize(TerminalState.shared.handOffErrorDevice.load(ordering: .sequentiallyConsistent), to: size)
                || changed
        }
        if changed { Platform.signal(process: 0, Signal.windowChanged) }  // the whole process group
    }

    /// Gives `device` the window size `size` unless it has it; returns whether it changed.
    private static func resize(_ device: Int32, to size: (columns: UInt16, rows: UInt16)) -> Bool {
        guard device >= 0, let current = Platform.windowSize(of: device), current != size else { return false }
        return Platform.setWindowSize(size, of: device)
    }

    /// Makes what ``handOffAtEnd()`` reads before a signal handler can run it: `fork` for a
    /// signal handler, the C library's `_Fork` (glibc 2.34 and later), which runs no fork
    /// handlers and takes no lock of the C library's, so it cannot hang on a lock the
    /// interrupted thread holds; where there is none, no relay process is forked from a signal
    /// handler. The session keeps it (``TerminalState/forkFromSignal``).
    fileprivate static func prepareHandOffForSignals() {
        let session = TerminalState.shared
        if session.forkFromSignal == nil { session.forkFromSignal = Platform.lookUpForkFromSignalHandler() }
    }

    /// Publishes the relay's pseudo-terminals for ``handOffAtEnd()``.
    static func publishForHandOff(_ channels: [Channel]) {
        for channel in channels {
            switch channel.stream {
            case .output:
                TerminalState.shared.handOffOutputController.store(
                    channel.controller, ordering: .sequentiallyConsistent)
                TerminalState.shared.handOffOutputDevice.store(channel.device, ordering: .sequentiallyConsistent)
            case .error:
                TerminalState.shared.handOffErrorController.store(
                    channel.controller, ordering: .sequentiallyConsistent)
                TerminalState.shared.handOffErrorDevice.store(channel.device, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// The program is ending, its real descriptors back: when processes it started while output
    /// was caught still hold a pseudo-terminal as their standard output or error (a job started
    /// in the background with `&`), a relay process takes the pseudo-terminals over and copies
    /// what they write to the terminal, as it is, until the last of them closes it — so they
    /// keep a working output after the program has gone, as without the capture. Nothing is
    /// left behind when no such process remains. The relay process runs only system calls on
    /// memory made before, with no signal blocked.
    ///
    /// - Parameter fromSignal: whether a signal handler calls it, for a signal that ends the
    ///   program: the relay process is then forked with `_Fork`, or not at all where the C
    ///   library has none. Async-signal-safe then.
    static func handOffAtEnd(fromSignal: Bool = false) {
        let forkFromSignal = TerminalState.shared.forkFromSignal
        guard !fromSignal || forkFromSignal != nil else { return }
        guard !TerminalState.shared.handedOff.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let copier = signalContext.handOff
        copier.set(
            0, source: TerminalState.shared.handOffOutputController.load(ordering: .sequentiallyConsistent),
            target: Platform.standardOutput)
        copier.set(
            1, source: TerminalState.shared.handOffErrorController.load(ordering: .sequentiallyConsistent),
            target: Platform.standardError)
        guard copier.isHeld else { return }
        // This process's own devices go: whoever still holds one is another process.
        let outputDevice = TerminalState.shared.handOffOutputDevice.exchange(-1, ordering: .sequentiallyConsistent)
        let errorDevice = TerminalState.shared.handOffErrorDevice.exchange(-1, ordering: .sequentiallyConsistent)
        let captured = (device(outputDevice), device(errorDevice))
        if outputDevice >= 0 { Platform.close(outputDevice) }
        if errorDevice >= 0 { Platform.close(errorDevice) }
        // The relay thread stops reading (a read under way is waited for, at most 50 ms).
        TerminalState.shared.relayFrozen.store(true, ordering: .sequentiallyConsistent)
        var waits = 0
        while TerminalState.shared.relayReadsInFlight.load(ordering: .sequentiallyConsistent) > 0, waits < 50 {
            Platform.sleep(for: .milliseconds(1))
            waits += 1
        }
        // What is there now goes out; a relay process is needed only while some process holds on.
        guard copier.copy(waiting: 0) == true else { return }
        let child = fromSignal ? forkFromSignal?() ?? -1 : Platform.fork()
        guard child == 0 else { return }
        // The relay process, alone now, copies to descriptors 1 and 2. Were one a captured
        // stream's device still (a capture began again on another thread while a handler ended
        // the program), the relay would hold its own pseudo-terminal open and never end: it takes
        // the real descriptor, or does not run.
        if !takesReal(Platform.standardOutput, apartFrom: captured)
            || !takesReal(Platform.standardError, apartFrom: captured)
        {
            Platform.exitAtOnce(0)
        }
        // None of the program's descriptors but the terminal's and the controllers.
        copier.runAsCopyingProcess(keepingBelow: 3)
    }

    /// The terminal device `descriptor` is open on, or 0 (no terminal device is 0 on a system
    /// with pseudo-terminals). Async-signal-safe, and plain code: no generic type is set up in a
    /// handler, or in a process forked from one.
    private static func device(_ descriptor: Int32) -> UInt64 {
        guard descriptor >= 0, let device = Platform.terminalDevice(of: descriptor) else { return 0 }
        return device
    }

    /// Makes `descriptor` the real one when it is on one of the `captured` devices; returns whether
    /// it is on neither now. Async-signal-safe.
    private static func takesReal(_ descriptor: Int32, apartFrom captured: (UInt64, UInt64)) -> Bool {
        func isCaptured(_ descriptor: Int32) -> Bool {
            let found = device(descriptor)
            return found != 0 && (found == captured.0 || found == captured.1)
        }
        guard isCaptured(descriptor) else { return true }
        let original = real(descriptor)
        return original != descriptor && !isCaptured(original) && Platform.duplicate(original, onto: descriptor)
    }
}

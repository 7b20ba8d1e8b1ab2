import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What of the overlay is on the terminal, and the lock every write to it takes: shared by the
/// terminal guard (frames, restores) and the output relay (the program's lines it prints itself
/// when the overlay does not collect them), so that writes never interleave and each knows what
/// the other left on screen. The signal handlers read the atomics and take no lock.
enum TerminalOutput {
    /// Held by every write of the overlay, the relay's own prints and the restores.
    static let lock = Mutex(())
    /// Whether overlay lines are on screen, so an abrupt end must write the restore bytes.
    static let drawn = Atomic<Bool>(false)
    /// Whether the output relay erased the overlay's lines to print the program's output, and
    /// the overlay has not drawn them again yet. Written under ``lock``.
    static let erasedByRelay = Atomic<Bool>(false)
    /// How many rows above the cursor the drawn lines begin (a prompt's cursor may rest below its
    /// first row): an erase goes up as many first.
    static let rowsAboveCursor = Atomic<Int>(0)
    /// Set by a signal handler before it restores the terminal, so no overlay write follows the
    /// restore; cleared by `SIGCONT`.
    static let quieted = Atomic<Bool>(false)
    /// Set for good by a signal handler that ends the program — a crash, a signal whose default
    /// action ends it, a forced exit — before it restores the terminal and prints what was caught:
    /// from then on nothing else writes to the terminal (no frame, spinner glyph, prompt, relayed
    /// line or plain line), whatever other threads still run meanwhile (a crash report that takes
    /// its time), so the restore, the handler's own lines and the crash report are the last things
    /// on it.
    static let ended = Atomic<Bool>(false)
    /// Overlay writes between their check of ``quieted`` and the end of their system call.
    static let writesInFlight = Atomic<Int>(0)
    /// The thread of the write in flight (writes take ``lock``: one at a time), or 0.
    private static let writer = Atomic<UInt>(0)

    /// The bytes that erase what the record says is on screen, taking it off the record until the
    /// overlay draws again, for lines printed over it without the overlay (the relay's backlog);
    /// `nil` when nothing is drawn. `erase` makes the bytes from the rows above the cursor the
    /// drawn lines begin (a prompt's cursor rests in its field, below its first row). Under the
    /// write lock.
    static func takeScreenToPrintOver(_ erase: (Int) -> String) -> String? {
        guard drawn.exchange(false, ordering: .sequentiallyConsistent) else { return nil }
        let above = rowsAboveCursor.exchange(0, ordering: .sequentiallyConsistent)
        erasedByRelay.store(true, ordering: .sequentiallyConsistent)
        return erase(above)
    }

    /// Whether a write may go out now: no handler has quieted the overlay or ended the program.
    /// Checked under ``lock`` after ``beginWrite()``, so a handler that sets either and then waits
    /// for writes in flight never has one land after its restore.
    static var mayWrite: Bool {
        !quieted.load(ordering: .sequentiallyConsistent) && !ended.load(ordering: .sequentiallyConsistent)
    }

    /// Stops every later write for good and waits for the one in flight: the first thing a signal
    /// handler that ends the program does. Async-signal-safe.
    static func endFromSignal() {
        ended.store(true, ordering: .sequentiallyConsistent)
        quieted.store(true, ordering: .sequentiallyConsistent)
        waitForWritesInFlight()
    }

    /// Counts an overlay write in ``writesInFlight``, before it checks ``mayWrite``; called under
    /// ``lock``, and followed by ``endWrite()`` once its system call has returned.
    static func beginWrite() {
        writer.store(currentThread(), ordering: .sequentiallyConsistent)
        writesInFlight.add(1, ordering: .sequentiallyConsistent)
    }

    /// Ends what ``beginWrite()`` began.
    static func endWrite() {
        writesInFlight.subtract(1, ordering: .sequentiallyConsistent)
        writer.store(0, ordering: .sequentiallyConsistent)
    }

    /// Waits until no overlay write is in flight on another thread: a signal handler that quieted
    /// the overlay, before it erases the lines. A write in flight on the handler's own thread
    /// (the handler interrupted it) is not waited for, nor one that takes more than a second (a
    /// terminal that stopped reading). Async-signal-safe.
    static func waitForWritesInFlight() {
        let me = currentThread()
        var waits = 0
        while writesInFlight.load(ordering: .sequentiallyConsistent) > 0,
            writer.load(ordering: .sequentiallyConsistent) != me, waits < 1000
        {
            _ = poll(nil, 0, 1)
            waits += 1
        }
    }

    /// Makes everything a signal handler reads here before any handler can run (a handler must
    /// not run lazy initialisation).
    static func prepareForSignals() {
        _ = drawn.load(ordering: .relaxed)
        _ = quieted.load(ordering: .relaxed)
        _ = ended.load(ordering: .relaxed)
        _ = rowsAboveCursor.load(ordering: .relaxed)
        _ = writesInFlight.load(ordering: .relaxed)
        _ = writer.load(ordering: .relaxed)
        ForcedExitLines.prepareForSignals()
    }

    /// The calling thread, as a number. Async-signal-safe.
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}

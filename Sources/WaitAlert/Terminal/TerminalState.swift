import Synchronization

/// The process's terminal, as WaitAlert holds it: one object for the state every part of it
/// shares — the terminal guard (frames, modes, signals, restores), the output relay (the capture
/// of standard output and standard error, and the program's lines it prints itself when the
/// overlay does not collect them), the process groups of the commands the program runs, the
/// lines a forced exit prints, and the signal handlers that read all of it — so that writes never
/// interleave, each knows what the others left on screen, and an end of the program, however it
/// comes, finds in one place what to undo.
///
/// What is on screen (``drawn``, ``rowsAboveCursor``, ``erasedByRelay``) is written under the
/// write ``lock`` only; the signal handlers read the atomics and buffers, take no lock and
/// allocate nothing (the session is made before any handler is installed:
/// ``prepareForSignals()``). The operations stay with their parts — ``TerminalGuard``,
/// ``OutputRelay``, ``ProcessGroupGuard``, ``ForcedExitLines`` — with their own locks and the
/// fixed memory their handlers write into.
final class TerminalState: Sendable {
    /// The process's one terminal session.
    static let shared = TerminalState()

    /// A session of its own, apart from the process's: for tests of its record.
    init() {}

    deinit {
        forcedExitStorage.deallocate()
        forcedExitDigits.deallocate()
    }

    // MARK: - The guard

    /// Whether the guard is active: someone holds it, and its signal handling is in place.
    let active = Atomic<Bool>(false)
    /// Set once the program's exit restored the terminal: nothing guards it again.
    let exited = Atomic<Bool>(false)
    /// Ctrl-C presses since the guard became active.
    let interrupts = Atomic<Int>(0)
    /// Set by the `SIGTSTP` handler, cleared by `SIGCONT`.
    let suspended = Atomic<Bool>(false)
    /// The terminal the overlay draws on, or -1.
    let output = Atomic<Int32>(-1)
    /// The write end of the pipe to the guard's dispatch source, or -1.
    let notifyDescriptor = Atomic<Int32>(-1)
    /// How many times Ctrl-Z stopped the program (the handler erased whatever was drawn): a
    /// frame drawn after a stop draws every line afresh, whenever it comes — even before the
    /// resume handler has run.
    let stops = Atomic<Int>(0)
    /// Whether a prompt turned bracketed paste on, so every end must turn it off.
    let pasteBracketed = Atomic<Bool>(false)
    /// Whether a taskbar progress (`OSC 9;4`) is shown, so every end must clear it.
    let taskbarShown = Atomic<Bool>(false)
    /// How many bytes of ``TerminalGuard/SignalContext/clearTaskbar`` clear the taskbar; 0 until
    /// an overlay that shows a taskbar progress said how.
    let clearTaskbarCount = Atomic<Int>(0)

    // MARK: - The terminal's modes

    /// The descriptor whose modes the guard changed (echo off, raw), -1, or
    /// ``TerminalGuard/TerminalModes/changing`` or ``TerminalGuard/TerminalModes/restoring``
    /// while they change: whoever takes the descriptor restores the saved modes, exactly once
    /// (``TerminalGuard/TerminalModes``).
    let modesChanged = Atomic<Int32>(-1)
    /// Set by the `SIGTSTP` handler before it restores the modes, cleared by `SIGCONT`: the
    /// modes are not changed again meanwhile.
    let stopping = Atomic<Bool>(false)

    // MARK: - The capture of standard output and standard error

    /// The real terminal behind descriptors 1 and 2 while the relay captures them, or -1.
    let realOutput = Atomic<Int32>(-1)
    let realError = Atomic<Int32>(-1)
    /// The pseudo-terminal controllers of the captured streams (output, error), or -1.
    let capturedOutputController = Atomic<Int32>(-1)
    let capturedErrorController = Atomic<Int32>(-1)
    /// Each pseudo-terminal's controller and device (output, then error), published when the
    /// relay is made, for the hand-off at the program's end; -1 when there is none.
    let handOffOutputController = Atomic<Int32>(-1)
    let handOffOutputDevice = Atomic<Int32>(-1)
    let handOffErrorController = Atomic<Int32>(-1)
    let handOffErrorDevice = Atomic<Int32>(-1)
    /// Whether the hand-off at the end has run.
    let handedOff = Atomic<Bool>(false)
    /// Set by a signal handler that ends the program: the relay reads no more.
    let relayFrozen = Atomic<Bool>(false)
    /// The relay's reads of a pseudo-terminal under way (with the copy they keep).
    let relayReadsInFlight = Atomic<Int>(0)
    /// How many captured bytes the relay read and has not printed yet (kept for a signal handler
    /// that ends the program to print).
    let unprintedCount = Atomic<Int>(0)

    /// How many parts hold the crash handlers now (the guard while active, the relay while it
    /// captures): installed by the first, put back by the last.
    let crashHandlerHolders = Mutex(0)
    /// The C library's `_Fork` (a fork that is async-signal-safe), looked up before any handler
    /// may need it, for the relay's hand-off from a signal handler; `nil` where there is none.
    /// Written once, before the handlers are installed.
    @exclusivity(unchecked) nonisolated(unsafe) var forkFromSignal: (@convention(c) () -> Int32)?

    // MARK: - The process groups of the commands the program runs

    /// The signal that last cancelled the work through the guard, or 0.
    let cancellingSignal = Atomic<Int32>(0)
    /// Whether `SIGTERM` and `SIGHUP` cancel the work like a first Ctrl-C
    /// (``TerminalOverlay/ProcessIntegration/cancelsOnTermination``).
    let terminationCancels = Atomic<Bool>(false)
    /// The signal passed on to the groups first, when the program passes signals on, or 0;
    /// when (nanoseconds on the monotonic clock); how many came.
    let groupsPassedOn = Atomic<Int32>(0)
    let groupsPassedOnAt = Atomic<Int64>(0)
    let groupsPasses = Atomic<Int>(0)
    /// Whether a later signal killed the groups.
    let groupsKilled = Atomic<Bool>(false)
    /// Commands being started (the low bits), and a flag above them while a Ctrl-Z waits for
    /// them (``ProcessGroupGuard``).
    let commandStarts = Atomic<Int>(0)
    /// When a Ctrl-Z stopped the groups and the program was to stop, or 0.
    let groupsStoppedAt = Atomic<Int64>(0)
    /// How many times a Ctrl-Z was passed on to the groups.
    let stopsPassedOn = Atomic<Int>(0)
    /// Whether the job-control `SIGTSTP` handler is installed (to put back after a stop).
    let handlesStops = Atomic<Bool>(false)

    // MARK: - What a forced exit prints

    /// The most bytes the forced exit's lines take; lines past it are left out.
    static let forcedExitCapacity = 16 * 1024
    /// The lines a forced exit writes (``ForcedExitLines``): read by a signal handler, written
    /// under the publisher's lock while no handler reads them (see ``forcedExitReaders`` and
    /// ``forcedExitValid``).
    nonisolated(unsafe) let forcedExitStorage = UnsafeMutableRawBufferPointer.allocate(
        byteCount: forcedExitCapacity, alignment: 8)
    /// How many bytes of ``forcedExitStorage`` hold lines, while they are whole.
    let forcedExitCount = Atomic<Int>(0)
    /// Whether ``forcedExitStorage`` holds whole lines: cleared while a publisher writes it.
    let forcedExitValid = Atomic<Bool>(false)
    /// Handlers reading ``forcedExitStorage`` now: a publisher waits for none before writing it.
    let forcedExitReaders = Atomic<Int>(0)
    /// Where a handler composes the elapsed time (one handler ends the program: never two at once).
    nonisolated(unsafe) let forcedExitDigits = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 1)

    // MARK: - What is on screen, and the writes

    /// Held by every write of the overlay, the relay's own prints and the restores.
    let lock = Mutex(())
    /// Whether overlay lines are on screen, so an abrupt end must write the restore bytes.
    let drawn = Atomic<Bool>(false)
    /// Whether the output relay erased the overlay's lines to print the program's output, and
    /// the overlay has not drawn them again yet. Written under ``lock``.
    let erasedByRelay = Atomic<Bool>(false)
    /// How many rows above the cursor the drawn lines begin (a prompt's cursor may rest below its
    /// first row): an erase goes up as many first.
    let rowsAboveCursor = Atomic<Int>(0)
    /// Set by a signal handler before it restores the terminal, so no overlay write follows the
    /// restore; cleared by `SIGCONT`.
    let quieted = Atomic<Bool>(false)
    /// Set for good by a signal handler that ends the program — a crash, a signal whose default
    /// action ends it, a forced exit — before it restores the terminal and prints what was caught:
    /// from then on nothing else writes to the terminal (no frame, spinner glyph, prompt, relayed
    /// line or plain line), whatever other threads still run meanwhile (a crash report that takes
    /// its time), so the restore, the handler's own lines and the crash report are the last things
    /// on it.
    let ended = Atomic<Bool>(false)
    /// Overlay writes between their check of ``quieted`` and the end of their system call.
    let writesInFlight = Atomic<Int>(0)
    /// The thread of the write in flight (writes take ``lock``: one at a time), or 0.
    private let writer = Atomic<UInt>(0)

    /// What a write leaves on screen, for whatever ends the program to erase: whether lines are
    /// drawn, and how many rows above the cursor they begin.
    struct Screen: Equatable {
        var drawn: Bool
        var rowsAboveCursor = 0
    }

    /// The one way bytes reach the terminal while WaitAlert shows anything — a frame, a question,
    /// the program's output the relay prints itself: under the write ``lock``, counted in for the
    /// signal handlers (``beginWrite()``), dropped while a handler has quieted writes, and refused
    /// once the program's exit or a handler has ended it. `compose` makes the bytes then, seeing
    /// (and, printing over it, taking: ``takeScreenToPrintOver(_:)``) what is on screen, and says
    /// what they leave there — recorded with the write that puts it there — or `nil` to leave the
    /// record as it is; `write` writes them. Returns `nil` when the bytes were dropped, `false`
    /// when refused or the write failed, `true` when written (nothing to write counts as written).
    func write(
        composing compose: () -> (bytes: [UInt8], leaves: Screen?), through write: ([UInt8]) -> Bool
    ) -> Bool? {
        guard !exited.load(ordering: .acquiring) else { return false }
        return lock.withLock { _ in
            guard !exited.load(ordering: .relaxed) else { return false }
            beginWrite()
            defer { endWrite() }
            guard mayWrite else { return nil }
            let (bytes, leaves) = compose()
            if let leaves {
                erasedByRelay.store(false, ordering: .sequentiallyConsistent)
                rowsAboveCursor.store(leaves.rowsAboveCursor, ordering: .sequentiallyConsistent)
                drawn.store(leaves.drawn, ordering: .sequentiallyConsistent)
            }
            return bytes.isEmpty || write(bytes)
        }
    }

    /// The bytes that erase what the record says is on screen, taking it off the record until the
    /// overlay draws again, for lines printed over it without the overlay (the relay's backlog);
    /// `nil` when nothing is drawn. `erase` makes the bytes from the rows above the cursor the
    /// drawn lines begin (a prompt's cursor rests in its field, below its first row). Under the
    /// write lock.
    func takeScreenToPrintOver(_ erase: (Int) -> String) -> String? {
        guard drawn.exchange(false, ordering: .sequentiallyConsistent) else { return nil }
        let above = rowsAboveCursor.exchange(0, ordering: .sequentiallyConsistent)
        erasedByRelay.store(true, ordering: .sequentiallyConsistent)
        return erase(above)
    }

    /// Whether a write may go out now: no handler has quieted the overlay or ended the program.
    /// Checked under ``lock`` after ``beginWrite()``, so a handler that sets either and then waits
    /// for writes in flight never has one land after its restore.
    var mayWrite: Bool {
        !quieted.load(ordering: .sequentiallyConsistent) && !ended.load(ordering: .sequentiallyConsistent)
    }

    /// Stops every later write for good and waits for the one in flight: the first thing a signal
    /// handler that ends the program does. Async-signal-safe.
    func endFromSignal() {
        ended.store(true, ordering: .sequentiallyConsistent)
        quieted.store(true, ordering: .sequentiallyConsistent)
        waitForWritesInFlight()
    }

    /// Counts an overlay write in ``writesInFlight``, before it checks ``mayWrite``; called under
    /// ``lock``, and followed by ``endWrite()`` once its system call has returned.
    func beginWrite() {
        writer.store(Platform.currentThread(), ordering: .sequentiallyConsistent)
        writesInFlight.add(1, ordering: .sequentiallyConsistent)
    }

    /// Ends what ``beginWrite()`` began.
    func endWrite() {
        writesInFlight.subtract(1, ordering: .sequentiallyConsistent)
        writer.store(0, ordering: .sequentiallyConsistent)
    }

    /// Waits until no overlay write is in flight on another thread: a signal handler that quieted
    /// the overlay, before it erases the lines. A write in flight on the handler's own thread
    /// (the handler interrupted it) is not waited for, nor one that takes more than a second (a
    /// terminal that stopped reading). Async-signal-safe.
    func waitForWritesInFlight() {
        let me = Platform.currentThread()
        var waits = 0
        while writesInFlight.load(ordering: .sequentiallyConsistent) > 0,
            writer.load(ordering: .sequentiallyConsistent) != me, waits < 1000
        {
            Platform.sleep(for: .milliseconds(1))
            waits += 1
        }
    }

    /// Makes everything a signal handler reads here before any handler can run (a handler must
    /// not run lazy initialisation): the session itself, whose atomics and buffers are made with
    /// it.
    static func prepareForSignals() {
        _ = shared
    }

}

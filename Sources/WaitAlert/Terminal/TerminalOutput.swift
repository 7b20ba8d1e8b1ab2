import Synchronization

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
    /// Overlay writes between their check of ``quieted`` and the end of their system call.
    static let writesInFlight = Atomic<Int>(0)
}

import Synchronization

extension TerminalGuard {
    /// The terminal modes the guard changed, published so that a signal handler on any thread can
    /// put them back.
    ///
    /// The saved modes live in ``SignalContext/savedModes``. The session's
    /// ``TerminalState/modesChanged`` publishes them: it holds the descriptor whose modes were
    /// changed, or -1. Whoever takes the descriptor
    /// (`exchange(-1)`) restores the modes, so they are restored exactly once. A writer publishes
    /// new modes only after waiting for every handler that may still be reading the old ones
    /// (``TerminalState/modesReaders``), so a handler never reads a half-written `termios`. Every operation is
    /// sequentially consistent: a handler that counts itself in and then finds a descriptor read
    /// modes that were completely written before.
    enum TerminalModes {

        /// Turns echo off on standard input when it is the same terminal as `output` and this
        /// process is its foreground (and canonical mode and signal keys too, for a prompt, when
        /// `raw`). Under ``TerminalGuard/state``'s lock.
        static func block(sameAs output: Int32, raw: Bool = false) {
            guard session.modesChanged.load(ordering: .sequentiallyConsistent) < 0,
                let descriptor = foregroundInput(sameAs: output)
            else { return }
            guard let saved = Platform.terminalModes(of: descriptor) else { return }
            // A prompt (`raw`) reads every key as it comes, Ctrl-C and Ctrl-Z included.
            var modes = Platform.echoOff(saved, raw: raw)
            while session.modesReaders.load(ordering: .sequentiallyConsistent) > 0 { Platform.yieldProcessor() }
            context.savedModes.pointee = saved
            guard Platform.setTerminalModes(&modes, of: descriptor) else { return }
            session.modesChanged.store(descriptor, ordering: .sequentiallyConsistent)
        }

        /// Puts back the modes saved by ``block(sameAs:)``, if they were changed and not restored
        /// yet, when this process is in the terminal's foreground; a job in the background leaves
        /// the terminal to the shell. Keys typed meanwhile are kept. Async-signal-safe.
        static func restore() {
            session.modesReaders.add(1, ordering: .sequentiallyConsistent)
            let descriptor = session.modesChanged.exchange(-1, ordering: .sequentiallyConsistent)
            if descriptor >= 0, Platform.isForeground(descriptor) {
                Platform.setTerminalModes(context.savedModes, of: descriptor)
            }
            session.modesReaders.subtract(1, ordering: .sequentiallyConsistent)
        }

        /// Standard input, when it is the same terminal device as `output` and this process group
        /// is its foreground (a background job never touches the modes of the program in front).
        private static func foregroundInput(sameAs output: Int32) -> Int32? {
            guard output >= 0, Platform.isForegroundTerminal(Platform.standardInput),
                Platform.isSameTerminal(Platform.standardInput, output)
            else { return nil }
            return Platform.standardInput
        }
    }
}

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
            var saved = termios()
            guard tcgetattr(descriptor, &saved) == 0 else { return }
            var modes = saved
            // Echo off, so typed keys neither show nor move the line. Canonical mode stays: typed
            // lines are kept whole, with erase and kill applied, for whatever reads next.
            modes.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            if raw {
                // A prompt reads every key as it comes, Ctrl-C and Ctrl-Z included.
                modes.c_lflag &= ~tcflag_t(ICANON | ISIG | IEXTEN)
                modes.c_iflag &= ~tcflag_t(ICRNL | INLCR | IXON)
                withUnsafeMutableBytes(of: &modes.c_cc) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
            }
            while session.modesReaders.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
            context.savedModes.pointee = saved
            guard tcsetattr(descriptor, TCSANOW, &modes) == 0 else { return }
            session.modesChanged.store(descriptor, ordering: .sequentiallyConsistent)
        }

        /// Puts back the modes saved by ``block(sameAs:)``, if they were changed and not restored
        /// yet, when this process is in the terminal's foreground; a job in the background leaves
        /// the terminal to the shell. Keys typed meanwhile are kept. Async-signal-safe.
        static func restore() {
            session.modesReaders.add(1, ordering: .sequentiallyConsistent)
            let descriptor = session.modesChanged.exchange(-1, ordering: .sequentiallyConsistent)
            if descriptor >= 0, Platform.isForeground(descriptor) {
                _ = tcsetattr(descriptor, TCSANOW, context.savedModes)
            }
            session.modesReaders.subtract(1, ordering: .sequentiallyConsistent)
        }

        /// Standard input, when it is the same terminal device as `output` and this process group
        /// is its foreground (a background job never touches the modes of the program in front).
        private static func foregroundInput(sameAs output: Int32) -> Int32? {
            guard output >= 0, isatty(STDIN_FILENO) == 1, tcgetpgrp(STDIN_FILENO) == getpgrp(),
                Platform.isSameTerminal(STDIN_FILENO, output)
            else { return nil }
            return STDIN_FILENO
        }
    }
}

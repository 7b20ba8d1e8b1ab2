import Synchronization

extension TerminalGuard {
    /// The terminal modes the guard changed, published so that a signal handler on any thread can
    /// put them back.
    ///
    /// The saved modes live in ``SignalContext/savedModes``. The session's
    /// ``TerminalState/modesChanged`` publishes them: it holds the descriptor whose modes were
    /// changed, -1 when none was, or ``changing`` while ``block(sameAs:raw:)`` changes them.
    /// Whoever takes the descriptor (compare-and-exchange to -1) restores the modes, so they are
    /// restored exactly once.
    ///
    /// A change claims ``changing`` first, with every signal blocked on its thread, and then looks
    /// at whether a handler ended the program or quieted the overlay (a stop): a handler that
    /// restored before the claim is seen and nothing changes; one that restores after it waits for
    /// the change to be published and puts it back. Without the claim, a handler's restore between
    /// the change and its publication was lost, and echo stayed off after the program ended.
    ///
    /// A change writes the saved modes only after waiting for every reader that may still be reading
    /// the old ones (``TerminalState/modesReaders``); a reader counts itself in before it looks for a
    /// descriptor, and out while it waits for a change, so a handler never reads a half-written
    /// `termios`. Every operation is sequentially consistent.
    enum TerminalModes {
        /// ``TerminalState/modesChanged`` while ``block(sameAs:raw:)`` changes the modes.
        static let changing: Int32 = -2
        /// How many times ``restore()`` gives the processor up while a change is under way.
        private static let maximumWaits = 100_000

        /// Turns echo off on standard input when it is the same terminal as `output` and this
        /// process is its foreground (and canonical mode and signal keys too, for a prompt, when
        /// `raw`). Under ``TerminalGuard/state``'s lock.
        static func block(sameAs output: Int32, raw: Bool = false) {
            guard session.modesChanged.load(ordering: .sequentiallyConsistent) == -1,
                let descriptor = foregroundInput(sameAs: output)
            else { return }
            Platform.withSignalsBlocked {
                guard
                    session.modesChanged.compareExchange(
                        expected: -1, desired: changing, ordering: .sequentiallyConsistent
                    ).exchanged
                else { return }
                var published: Int32 = -1
                defer { session.modesChanged.store(published, ordering: .sequentiallyConsistent) }
                // A handler that ended the program or stopped it has restored the modes already.
                guard !session.ended.load(ordering: .sequentiallyConsistent),
                    !session.quieted.load(ordering: .sequentiallyConsistent),
                    let saved = Platform.terminalModes(of: descriptor)
                else { return }
                // A prompt (`raw`) reads every key as it comes, Ctrl-C and Ctrl-Z included.
                var modes = Platform.echoOff(saved, raw: raw)
                while session.modesReaders.load(ordering: .sequentiallyConsistent) > 0 { Platform.yieldProcessor() }
                context.savedModes.pointee = saved
                guard Platform.setTerminalModes(&modes, of: descriptor) else { return }
                published = descriptor
            }
        }

        /// Puts back the modes saved by ``block(sameAs:raw:)``, if they were changed and not
        /// restored yet, when this process is in the terminal's foreground; a job in the background
        /// leaves the terminal to the shell. Keys typed meanwhile are kept. A change under way on
        /// another thread is waited for (none is under way on this one: it blocks signals).
        /// Async-signal-safe.
        static func restore() {
            var descriptor: Int32
            var waits = 0
            while true {
                session.modesReaders.add(1, ordering: .sequentiallyConsistent)
                descriptor = session.modesChanged.load(ordering: .sequentiallyConsistent)
                // A change takes two system calls. Only a crash in the middle of one (this handler
                // on its thread) makes it last: then there is nothing to restore yet.
                if descriptor == changing, waits < maximumWaits {
                    session.modesReaders.subtract(1, ordering: .sequentiallyConsistent)
                    Platform.yieldProcessor()
                    waits += 1
                    continue
                }
                if descriptor < 0
                    || session.modesChanged.compareExchange(
                        expected: descriptor, desired: -1, ordering: .sequentiallyConsistent
                    ).exchanged
                {
                    break
                }
                session.modesReaders.subtract(1, ordering: .sequentiallyConsistent)
            }
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

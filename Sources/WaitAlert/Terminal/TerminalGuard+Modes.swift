import Synchronization

extension TerminalGuard {
    /// The terminal modes the guard changed, published so that a signal handler on any thread can
    /// put them back.
    ///
    /// The saved modes live in ``SignalContext/savedModes``. The session's
    /// ``TerminalState/modesChanged`` says where they are: the descriptor whose modes were
    /// changed, -1 when none was, ``changing`` while ``block(sameAs:raw:)`` changes them, or
    /// ``restoring`` while ``restore()`` puts them back. Each claims its state with a
    /// compare-and-exchange — a change from -1, a restore from a descriptor — so the saved modes
    /// are written by one change and read by one restore at a time, and restored exactly once.
    ///
    /// Both run with the signals blocked on their thread (but a crash's, and the background
    /// job's `SIGTTIN` and `SIGTTOU`, which run no handler): no handler interrupts either on its
    /// own thread, and a restore that finds the other state waits for the thread that holds it,
    /// a few system calls. A change then looks at whether a handler ended or is stopping the
    /// program: one that restored before the claim is seen and nothing changes; one that restores
    /// after it waits for the change and puts it back. Without the claims, a handler's restore
    /// could fall between a change and its publication, or between another restore's claim and
    /// its `tcsetattr`, and echo stayed off after the program ended. Every operation is
    /// sequentially consistent.
    enum TerminalModes {
        /// ``TerminalState/modesChanged`` while ``block(sameAs:raw:)`` changes the modes.
        static let changing: Int32 = -2
        /// ``TerminalState/modesChanged`` while ``restore()`` puts them back.
        static let restoring: Int32 = -3

        /// Turns echo off on standard input when it is the same terminal as `output` and this
        /// process is its foreground (and canonical mode and signal keys too, for a prompt, when
        /// `raw`). Under ``TerminalGuard/state``'s lock.
        static func block(sameAs output: Int32, raw: Bool = false) {
            guard session.modesChanged.load(ordering: .sequentiallyConsistent) == -1,
                let descriptor = foregroundInput(sameAs: output)
            else { return }
            Platform.withHandlersHeld {
                guard
                    session.modesChanged.compareExchange(
                        expected: -1, desired: changing, ordering: .sequentiallyConsistent
                    ).exchanged
                else { return }
                var published: Int32 = -1
                defer { session.modesChanged.store(published, ordering: .sequentiallyConsistent) }
                // A handler that ended the program or is stopping it has restored the modes already.
                guard !session.ended.load(ordering: .sequentiallyConsistent),
                    !session.stopping.load(ordering: .sequentiallyConsistent),
                    let saved = Platform.terminalModes(of: descriptor)
                else { return }
                // A prompt (`raw`) reads every key as it comes, Ctrl-C and Ctrl-Z included.
                var modes = Platform.echoOff(saved, raw: raw)
                context.savedModes.pointee = saved
                guard Platform.setTerminalModes(&modes, of: descriptor) else { return }
                published = descriptor
            }
        }

        /// Puts back the modes saved by ``block(sameAs:raw:)``, if they were changed and not
        /// restored yet, when this process is in the terminal's foreground; a job in the background
        /// leaves the terminal to the shell. Keys typed meanwhile are kept. Returns once they are
        /// back, also when another thread was changing or restoring them. Async-signal-safe.
        static func restore() {
            Platform.withHandlersHeld {
                // Only a crash on the thread that holds the other state (the crash handler
                // restores) makes the wait last: one second at most. (No stored constant: a
                // handler may be the first to read it.)
                let deadline = Platform.monotonicNow() + .seconds(1)
                while true {
                    let descriptor = session.modesChanged.load(ordering: .sequentiallyConsistent)
                    if descriptor == -1 { return }
                    if descriptor < 0 {
                        guard Platform.monotonicNow() < deadline else { return }
                        Platform.yieldProcessor()
                        continue
                    }
                    guard
                        session.modesChanged.compareExchange(
                            expected: descriptor, desired: restoring, ordering: .sequentiallyConsistent
                        ).exchanged
                    else { continue }
                    if Platform.isForeground(descriptor) {
                        Platform.setTerminalModes(context.savedModes, of: descriptor)
                    }
                    session.modesChanged.store(-1, ordering: .sequentiallyConsistent)
                    return
                }
            }
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

/// What the terminal tells whoever holds it: a Ctrl-C, a resize, the program continuing after a
/// stop, output the program wrote while it is captured. Every one reaches its holder the same
/// way — on the main actor, in the order it came (``deliver(to:)``) — whichever thread saw it (the
/// guard's signal pipe, the relay's reader).
enum TerminalEvent: Sendable, Hashable {
    /// Ctrl-C (`SIGINT`) while the holder handles signals.
    case interrupt
    /// The window changed size (`SIGWINCH`).
    case resize
    /// The program continued after a stop (`SIGCONT`); it may be in the background.
    case resume
    /// The program wrote to a captured descriptor: there is output to print above the lines.
    case outputArrived

    /// Hands this event to `events` on the main actor. Events handed over from one thread arrive
    /// in the order they were handed over.
    func deliver(to events: @escaping TerminalEvents) {
        Task { @MainActor in events(self) }
    }
}

/// Where a holder of the terminal takes its events, on the main actor.
typealias TerminalEvents = @MainActor @Sendable (TerminalEvent) -> Void

// Whoever needs the guard holds it: the overlay while it has lines to show, a question while it
// waits, the line modes while work runs. Each says what it needs — its terminal, whether signals
// are handled, where its events go, what standard input should be — and the guard reconciles them in one
// place: active while anyone holds it, on the terminal of the holder that has held it longest,
// with the latest holder's input wish, each event to the latest holder that takes events, and signals
// handled if any holder asked. A holder that lets go leaves the others' wishes in force; none of
// them turns the guard off under another.
extension TerminalGuard {
    /// What one holder asks of the guard.
    struct Hold: Sendable {
        /// The terminal it draws on (the first holder's is the guard's while it holds).
        var output: Int32
        /// Whether Ctrl-C, Ctrl-Z, resizes and the ending signals are handled while it holds.
        var handlesSignals: Bool
        /// Where its events go (Ctrl-C, resizes, resumes); `nil` leaves the earlier holders' in
        /// force.
        var events: TerminalEvents?
        /// What standard input should be while it is the latest holder.
        var input: InputWish = .asTyped
    }

    /// One holder's hold, to change or let go of.
    struct HoldID: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    /// Takes a hold: the guard becomes active if it was not, on `hold`'s terminal; `hold`'s input
    /// wish and events are in force, and signals handled if any holder asked.
    @discardableResult
    static func take(_ hold: Hold) -> HoldID {
        installExitHook()
        return state.withLock { state in
            state.holdsTaken += 1
            let id = HoldID(value: state.holdsTaken)
            state.holds.append((id, hold))
            if session.active.load(ordering: .relaxed) {
                reconcile(&state)
            } else {
                activate(&state)
            }
            return id
        }
    }

    /// Changes what `id`'s holder wants of standard input.
    static func setInput(_ input: InputWish, of id: HoldID) {
        state.withLock { state in
            guard let index = state.holds.firstIndex(where: { $0.id == id }) else { return }
            state.holds[index].hold.input = input
            if session.active.load(ordering: .relaxed) { reconcile(&state) }
        }
    }

    /// Lets go of `id`'s hold: the guard stays active with the other holders' wishes, or puts
    /// back the terminal modes and signal dispositions once nobody holds it.
    static func release(_ id: HoldID) {
        state.withLock { state in
            guard let index = state.holds.firstIndex(where: { $0.id == id }) else { return }
            state.holds.remove(at: index)
            if state.holds.isEmpty {
                deactivate(&state)
            } else if session.active.load(ordering: .relaxed) {
                reconcile(&state)
            }
        }
    }

    /// Where events go now: to the latest holder that takes them.
    static var currentEvents: TerminalEvents? {
        state.withLock { state in state.holds.last { $0.hold.events != nil }?.hold.events }
    }

    /// Whether any holder asks for signals to be handled. Under ``state``'s lock.
    static func handlesSignals(_ state: State) -> Bool {
        state.holds.contains { $0.hold.handlesSignals }
    }

    /// Makes the guard what the holders ask while active: the longest holder's terminal, signals
    /// handled if any asked, the latest holder's input wish. Under ``state``'s lock.
    private static func reconcile(_ state: inout State) {
        guard let first = state.holds.first?.hold, let latest = state.holds.last?.hold else { return }
        session.output.store(first.output, ordering: .sequentiallyConsistent)
        let wantsSignals = handlesSignals(state)
        if wantsSignals, !state.handlesSignals {
            install(&state)
        } else if !wantsSignals, state.handlesSignals {
            uninstall(&state)
        }
        applyInput(latest.input, &state)
    }
}

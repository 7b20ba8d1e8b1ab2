import Synchronization

/// The signal handlers that make the commands' process groups follow the program while any is
/// started or running: the handlers are installed when the first command starts and removed when
/// the last has been reaped, each only over a signal the program left at its default.
///
/// - `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, when no overlay handles them (the terminal guard
///   cancels the work instead while it does, and passes the others on to these handlers after
///   restoring the terminal): what ``Interruption`` says — by default the groups get the signal
///   and `SIGTERM`, and the program ends by the signal, as it would have.
/// - Under a job-control shell, `SIGTSTP` (Ctrl-Z) stops the groups before the program stops, and
///   `SIGCONT` continues them. The command's group is not the shell's job, the program is: without
///   this, Ctrl-Z would stop the program only. A Ctrl-Z that comes while a command is being started
///   waits for its group to be known (``endStart(group:)``). Without job control (the program's
///   group is orphaned) the system discards Ctrl-Z, and no handler is installed; should the
///   program's own stop be discarded anyway, the groups are continued
///   ``discardedStopNanoseconds`` later (``continueIfStopWasDiscarded()``), so they never stay
///   stopped while the program runs.
///
/// While the terminal guard handles a signal, these handlers are installed beneath it, through the
/// ``ProgramActions`` their caller hands over: the guard passes the signal on to them as to any
/// disposition it found. The handlers touch only atomics and memory made before; they call
/// only `killpg`, `clock_gettime`, `sigaction`, `raise` and what
/// ``OutputRelay/releaseFromSignal()`` and ``OutputRelay/handOffAtEnd(fromSignal:)`` call.
extension ProcessGroupGuard {
    /// What `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` do while commands run and no overlay
    /// handles them.
    package enum Interruption: UInt8, AtomicRepresentable, Sendable {
        /// The groups get the signal, then `SIGTERM` (and `SIGCONT`, so a stopped one gets them
        /// too), and the program ends by the signal as it would have: the default.
        case endsProgram
        /// The groups get the first signal and the program goes on, to see them end: a later one
        /// sends `SIGKILL` to them. For a program that supervises its commands (`wait-alert`).
        case passesOn
    }

    /// How long a group may stay stopped while the program itself runs: the program's own stop
    /// was discarded (an orphaned process group), so nobody would continue the group.
    package static let discardedStopNanoseconds: Int64 = 1_000_000_000

    /// What the terminating signals do while commands run (``Interruption``).
    private static let interruptionPolicy = Atomic<Interruption>(.endsProgram)
    /// The flag ``TerminalState/commandStarts`` carries above its count while a Ctrl-Z waits
    /// for the commands being started. The job-control state itself is the terminal session's.
    private static let stopWaits = 1 << 40

    /// How the program's own disposition of a signal is read and set — apart from the terminal
    /// guard's handler, which passes the signal on to it (`TerminalGuard.programAction(for:)`).
    struct ProgramActions: Sendable {
        var get: @Sendable (Int32) -> SignalAction
        var set: @Sendable (SignalAction, Int32) -> Void
    }

    /// The commands started or running, the signals whose handler is installed, and how.
    private struct Users {
        var count = 0
        var installed: [Int32] = []
        var actions: ProgramActions?
    }
    private static let users = Mutex(Users())

    /// Chooses what the terminating signals do while commands run (``Interruption``), for the
    /// whole program.
    package static func setInterruption(_ policy: Interruption) {
        interruptionPolicy.store(policy, ordering: .sequentiallyConsistent)
    }

    /// The signal passed on to the groups under ``Interruption/passesOn``, or `nil` while none was.
    package static var interruption: Int32? {
        let signal = TerminalState.shared.groupsPassedOn.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }

    /// When ``interruption`` was passed on, on ``Platform/monotonicNow()``'s clock.
    package static var interruptedAt: Duration? {
        guard interruption != nil else { return nil }
        return .nanoseconds(TerminalState.shared.groupsPassedOnAt.load(ordering: .sequentiallyConsistent))
    }

    // MARK: - Starting and ending

    /// A command is about to be started: the handlers are installed through `actions` if none is
    /// running, and a Ctrl-Z from now until ``endStart(group:)`` waits for its group.
    static func beginStart(actions: ProgramActions) {
        retain(actions)
        TerminalState.shared.commandStarts.add(1, ordering: .sequentiallyConsistent)
    }

    /// The command began with `beginStart()` started in process group `group` (or could not be
    /// started: `nil`). The group is registered, a signal passed on meanwhile reaches it, and a
    /// Ctrl-Z that waited stops everything now. Returns whether the group is registered.
    @discardableResult
    package static func endStart(group: Int32?) -> Bool {
        var registered = false
        if let group {
            registered = register(group)
            let pending = TerminalState.shared.groupsPassedOn.load(ordering: .sequentiallyConsistent)
            if pending != 0 {
                Platform.signal(group: group, pending)
                Platform.signal(group: group, Signal.continue)
            }
            if TerminalState.shared.groupsKilled.load(ordering: .sequentiallyConsistent) {
                Platform.signal(group: group, Signal.kill)
            }
        }
        var raiseStop = false
        var current = TerminalState.shared.commandStarts.load(ordering: .sequentiallyConsistent)
        while true {
            var next = current - 1
            raiseStop = next == stopWaits
            if raiseStop { next = 0 }
            let (exchanged, original) = TerminalState.shared.commandStarts.compareExchange(
                expected: current, desired: next, ordering: .sequentiallyConsistent)
            if exchanged { break }
            current = original
        }
        if group == nil { release() }
        if raiseStop { Platform.raise(Signal.terminalStop) }
        return registered
    }

    /// The command whose group is `group` has ended (its leader is about to be reaped): the group
    /// is forgotten, and the handlers removed once no command is left.
    package static func ended(group: Int32) {
        unregister(group)
        release()
    }

    /// Continues the groups when a Ctrl-Z stopped them at least ``discardedStopNanoseconds`` ago
    /// and the program runs: either it was continued (and this is one more `SIGCONT`, which
    /// changes nothing) or its own stop was discarded.
    package static func continueIfStopWasDiscarded() {
        let at = TerminalState.shared.groupsStoppedAt.load(ordering: .sequentiallyConsistent)
        guard at != 0, monotonicNanoseconds() - at >= discardedStopNanoseconds,
            TerminalState.shared.groupsStoppedAt.compareExchange(
                expected: at, desired: 0, ordering: .sequentiallyConsistent
            ).exchanged
        else { return }
        signalAll(Signal.continue)
    }

    // MARK: - Installing

    private static func retain(_ actions: ProgramActions) {
        users.withLock { users in
            users.count += 1
            guard users.count == 1 else { return }
            users.actions = actions
            prepareForSignals()
            let candidates =
                [Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit]
                // A process group that is its session's own (no job-control shell above it) is
                // orphaned: the system discards Ctrl-Z for it.
                + (Platform.hasJobControl ? [Signal.terminalStop, Signal.continue] : [])
            for signal in candidates where actions.get(signal).isSystemDefault {
                actions.set(action(for: signal), signal)
                users.installed.append(signal)
            }
            TerminalState.shared.handlesStops.store(
                users.installed.contains(Signal.terminalStop), ordering: .sequentiallyConsistent)
        }
    }

    private static func release() {
        users.withLock { users in
            users.count -= 1
            guard users.count == 0 else { return }
            TerminalState.shared.handlesStops.store(false, ordering: .sequentiallyConsistent)
            if let actions = users.actions {
                for signal in users.installed where isOurs(actions.get(signal)) { actions.set(.systemDefault, signal) }
            }
            users.installed = []
            users.actions = nil
            // What came while these commands ran does not concern the next ones.
            TerminalState.shared.groupsPassedOn.store(0, ordering: .sequentiallyConsistent)
            TerminalState.shared.groupsPasses.store(0, ordering: .sequentiallyConsistent)
            TerminalState.shared.groupsKilled.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Makes what the handlers read before any of them can run.
    static func prepareHandlersForSignals() {
        _ = interruptionPolicy.load(ordering: .relaxed)
        TerminalState.prepareForSignals()
        OutputRelay.prepareForSignals()
    }

    private static func action(for signal: Int32) -> SignalAction {
        if signal == Signal.terminalStop || signal == Signal.continue {
            SignalAction.calling { ProcessGroupGuard.followJobControl($0) }
        } else {
            SignalAction.calling { ProcessGroupGuard.handleTermination($0) }
        }
    }

    private static func isOurs(_ action: SignalAction) -> Bool {
        isHandler(action.handlerAddress)
    }

    /// Whether the handler at `address` is the one for `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT`
    /// and ends the program once the groups have the signal (``Interruption/endsProgram``).
    /// Async-signal-safe.
    static func endsProgram(handlerAddress address: Int) -> Bool {
        address == action(for: Signal.interrupt).handlerAddress
            && interruptionPolicy.load(ordering: .sequentiallyConsistent) == .endsProgram
    }

    /// Whether the handler at `address` is one of these handlers.
    static func isHandler(_ address: Int) -> Bool {
        address == action(for: Signal.interrupt).handlerAddress
            || address == action(for: Signal.terminalStop).handlerAddress
    }

    // MARK: - The handlers

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`. Async-signal-safe.
    private static func handleTermination(_ signal: Int32) {
        let savedErrno = Platform.errorNumber
        defer { Platform.errorNumber = savedErrno }
        switch interruptionPolicy.load(ordering: .sequentiallyConsistent) {
        case .passesOn:
            if TerminalState.shared.groupsPasses.add(1, ordering: .sequentiallyConsistent).newValue == 1 {
                TerminalState.shared.groupsPassedOnAt.store(monotonicNanoseconds(), ordering: .sequentiallyConsistent)
                TerminalState.shared.groupsPassedOn.store(signal, ordering: .sequentiallyConsistent)
                signalAll(signal)
                signalAll(Signal.continue)  // a stopped command gets it too
            } else {
                TerminalState.shared.groupsKilled.store(true, ordering: .sequentiallyConsistent)
                signalAll(Signal.kill)
            }
        case .endsProgram:
            // Said first: once the groups end, the work may end too, and the program must not
            // exit on its own, nor begin a capture, before this signal ends it.
            TerminalState.shared.endFromSignal()
            // The program will not see the groups end: `SIGTERM` too ends what ignores the
            // signal (a shell's background job ignores `SIGINT` and `SIGQUIT`).
            signalAll(signal)
            if signal != Signal.terminate { signalAll(Signal.terminate) }
            signalAll(Signal.continue)
            // The disposition this handler replaced was the default: the program ends. What the
            // output capture holds is written to the real descriptors, put back first (no overlay
            // handler did: one comes only with the overlay, after the grace delay), and processes
            // still writing through the capture keep a working output.
            OutputRelay.releaseFromSignal()
            OutputRelay.handOffAtEnd(fromSignal: true)
            SignalAction.systemDefault.install(for: signal)
            Platform.raise(signal)  // delivered with the default disposition once this handler returns
        }
    }

    /// `SIGTSTP`: stops the groups, then the program (the default disposition, once this handler
    /// returns). `SIGCONT`: continues the groups and puts the `SIGTSTP` handler back, unless the
    /// terminal guard has put its own. Async-signal-safe.
    private static func followJobControl(_ signal: Int32) {
        let savedErrno = Platform.errorNumber
        defer { Platform.errorNumber = savedErrno }
        if signal == Signal.terminalStop {
            // A command being started: its group is not known yet, and stopping now would leave
            // it running while the program is stopped. The stop waits for endStart(group:).
            var current = TerminalState.shared.commandStarts.load(ordering: .sequentiallyConsistent)
            while current & (stopWaits - 1) > 0 {
                let (exchanged, original) = TerminalState.shared.commandStarts.compareExchange(
                    expected: current, desired: current | stopWaits, ordering: .sequentiallyConsistent)
                if exchanged { return }
                current = original
            }
            TerminalState.shared.groupsStoppedAt.store(monotonicNanoseconds(), ordering: .sequentiallyConsistent)
            TerminalState.shared.stopsPassedOn.add(1, ordering: .sequentiallyConsistent)
            signalAll(Signal.terminalStop)
            SignalAction.systemDefault.install(for: Signal.terminalStop)
            Platform.raise(Signal.terminalStop)  // stops the program once this handler returns
        } else {
            signalAll(Signal.continue)
            TerminalState.shared.groupsStoppedAt.store(0, ordering: .sequentiallyConsistent)
            if TerminalState.shared.handlesStops.load(ordering: .sequentiallyConsistent),
                SignalAction.current(of: Signal.terminalStop)?.isSystemDefault == true
            {
                action(for: Signal.terminalStop).install(for: Signal.terminalStop)
            }
        }
    }

    private static func monotonicNanoseconds() -> Int64 {
        let now = Platform.monotonicNow().components
        return now.seconds * 1_000_000_000 + now.attoseconds / 1_000_000_000
    }
}

import Dispatch

/// Where the overlay draws: the terminal's size, the program's place (foreground or background
/// job), the terminal session, Ctrl-C, suspensions.
extension InteractiveOverlay {
    // MARK: - Size

    /// Re-reads the terminal's size and redraws every line, leaving no garbage behind when the
    /// window shrank below a line's length.
    func terminalDidResize() {
        guard !stopped else { return }
        if capture.relay != nil { session?.followWindowSize() }
        refreshPlacement()
        markDirty()
        flush(at: region.lastInstant)
    }

    /// The window changed size (`SIGWINCH`): nothing is drawn until it has kept its size for
    /// ``resizeSettling``, then every line is drawn afresh at the new size. While the user drags
    /// a window's edge, frames sized for a window that is no longer there would land in a smaller
    /// one and push copies of the region into the scrollback; meanwhile the terminal itself trims
    /// the rows below the cursor, which rests on the region's first row.
    func windowResized() {
        guard !stopped else { return }
        if capture.relay != nil { session?.followWindowSize() }
        // For a while the region is no taller than the shortest window seen: a frame that lands
        // in a window shortened again meanwhile still fits.
        if let rows = terminal.rows { guarding.shortestRows = min(guarding.shortestRows ?? rows, rows) }
        frames.ticker?.stop()
        let now = presenterNow
        deadlines.shortestRowsExpire = now + Self.shortestRowsKept
        deadlines.resizeSettled = now + Self.resizeSettling
        context?.deadlineChanged()
    }

    /// How long the region stays no taller than the shortest window of a resize.
    static let shortestRowsKept = Duration.seconds(1)

    /// How long the window keeps its size before the region is drawn again after a resize.
    static let resizeSettling = Duration.milliseconds(150)

    /// The presenter's clock now, or the last instant drawn when the presenter has none to share.
    var presenterNow: Duration { context?.now?() ?? region.lastInstant }

    /// Carries out the overlay's own deadlines that have come by `instant`, on the presenter's
    /// clock: a lone Escape at a question, the end of a resize, the end of its height limit, a
    /// look at whether the program is in the foreground again.
    func fireDeadlines(at instant: Duration) {
        if let escape = deadlines.promptEscape, escape <= instant {
            deadlines.promptEscape = nil
            capture.promptDriver?.flushEscape()
        }
        if let settled = deadlines.resizeSettled, settled <= instant {
            deadlines.resizeSettled = nil
            terminalDidResize()
        }
        if let expiry = deadlines.shortestRowsExpire, expiry <= instant {
            deadlines.shortestRowsExpire = nil
            if guarding.shortestRows != nil {
                guarding.shortestRows = nil
                markDirty()
            }
        }
        if let check = deadlines.foregroundCheck, check <= instant {
            deadlines.foregroundCheck = nil
            // Nothing to bring back: the next alert's first draw checks by itself.
            guard region.isDetached, !stopped, region.hasRows else { return }
            if terminal.isForeground {
                markDirty()
            } else {
                deadlines.foregroundCheck = instant + Self.foregroundCheckInterval
            }
        }
    }

    /// How often a program in the background looks whether it is in the foreground again.
    static let foregroundCheckInterval = Duration.milliseconds(200)

    // MARK: - Foreground and background

    /// Checks where the program now is after a stop and a continue (Ctrl-Z, then `fg` or `bg`):
    /// in the foreground the lines are drawn again where the shell left the cursor; in the
    /// background nothing is drawn until the program is brought back.
    func terminalDidResume() {
        guard !stopped, guarding.hold != nil else { return }
        if !region.isDetached, !screen.isEmpty, session?.isDrawn == false {
            // The stop erased the lines: nothing of ours is on screen. Lines still waiting are
            // printed as plain lines; input is blocked again only once the region is drawn again
            // (the guard blocked it again on `SIGCONT` in the foreground).
            detach()
        }
        markDirty()
        flush(at: region.lastInstant)
    }

    /// Picks up where the program is (foreground or background job) and the terminal's width,
    /// before anything is drawn.
    func refreshPlacement() {
        let foreground = terminal.isForeground
        if foreground == region.isDetached {
            foreground ? attach() : detach()
        } else if !region.isDetached, let columns = terminal.columns, columns != screen.columns {
            // A width change, also one that no `SIGWINCH` reported (between alerts, without
            // signal handling, or on another terminal): the next draw erases and draws every
            // line, laid out for the terminal's height then.
            screen.columns = columns
        }
    }

    /// The program went to the background: from now on nothing is drawn and no terminal mode is
    /// touched; the lines are kept to be drawn again in the foreground.
    private func detach() {
        region.isDetached = true
        watchForForeground()
        frames.ticker?.stop()
        writePlain(region.takeLinesAbove().map(\.plain))
        releaseOutput()
        updateGuard()  // nothing drawn; input no longer blocked (the shell owns the terminal now)
    }

    /// While the program runs in the background, checks five times a second whether it is in
    /// the foreground again: `fg` on a job that runs in the background only hands it the
    /// terminal, with no signal, and the region must come back at once, not at the next change.
    func watchForForeground() {
        // Without a ticker every frame comes through the presenter, and each draw checks.
        guard deadlines.foregroundCheck == nil, frames.ticker != nil else { return }
        deadlines.foregroundCheck = presenterNow + Self.foregroundCheckInterval
        context?.deadlineChanged()
    }

    /// The program is in the foreground again: the next draw draws the lines afresh where the
    /// cursor is.
    private func attach() {
        region.isDetached = false
        deadlines.foregroundCheck = nil
        region.taskbarCleared()  // a stop cleared it
        screen.columns = terminal.columns ?? screen.columns
        screen.markErased()
        markDirty()
    }

    // MARK: - Suspensions

    /// Takes the region off the screen and gives the terminal back (modes, signals, descriptors)
    /// until the matching ``resume()``.
    func suspend() {
        suspensions += 1
        guard suspensions == 1, !stopped else { return }
        frames.ticker?.stop()
        if !region.isDetached {
            let taken = region.takeLinesAbove()
            writeFrame([], [], taken.map(\.styled))
            if frames.frameDropped { region.putBack(taken) }
        }
        if !promptKeepsCapture { releaseOutput() }
        updateGuard()
    }

    func resume() {
        guard suspensions > 0 else { return }
        suspensions -= 1
        guard suspensions == 0, !stopped else { return }
        markDirty()
        flush(at: region.lastInstant)
    }

    // MARK: - The guard, input and signals

    /// Holds the terminal session while there are lines to show (also in the background, where
    /// `SIGCONT` tells when the program is brought back), lets go when there are none; tells it
    /// whether lines are on screen; blocks input only in the foreground, while some alert still
    /// waits for its work.
    func updateGuard() {
        guard let session else { return }
        let shouldGuard = (region.hasRows || !screen.isEmpty) && suspensions == 0
        if shouldGuard, guarding.hold == nil {
            guarding.inputBlocked = false
            guarding.hold = session.take(
                .init(
                    output: session.standardError.descriptor, handlesSignals: integration.handlesSignals,
                    events: terminalEvents()))
            if capture.relay != nil { session.followWindowSize() }  // resized before the handler was in place
        } else if !shouldGuard, guarding.hold != nil {
            if !promptKeepsCapture { releaseOutput() }
            releaseGuard()
        }
        guard let hold = guarding.hold else { return }
        session.setDrawn(!region.isDetached && !screen.isEmpty)
        let shouldBlock = integration.blocksInput && !guarding.running.isEmpty && !region.isDetached
        if shouldBlock != guarding.inputBlocked {
            guarding.inputBlocked = shouldBlock
            session.setInput(shouldBlock ? .hidden : .asTyped, of: hold)
        }
    }

    /// Where the terminal's events go: every one to ``handle(_:)``, on the main actor, in order.
    func terminalEvents() -> TerminalEvents {
        { [weak self] event in self?.handle(event) }
    }

    /// What the terminal told the overlay: a Ctrl-C, a resize, a resume after a stop, the
    /// program's output.
    private func handle(_ event: TerminalEvent) {
        switch event {
        case .interrupt: interrupt()
        case .resize: windowResized()
        case .resume: terminalDidResume()
        case .outputArrived: outputArrived()
        }
    }

    /// Tracks which alerts still wait for their work; once every work a Ctrl-C interrupted has
    /// ended, the next Ctrl-C cancels the next work instead of ending the program.
    func updateRunning(_ alert: WaitAlertID, isRunning: Bool) {
        if isRunning {
            guarding.running.insert(alert)
        } else {
            guarding.running.remove(alert)
            if guarding.interrupted.remove(alert) != nil, guarding.interrupted.isEmpty {
                session?.resetInterrupts()
            }
        }
    }

    /// A Ctrl-C: cancel the work of every alert — the rows say `cancelling…` as soon as their
    /// alerts take it, and a notice under them how to quit at once — or, with none to cancel, do
    /// what Ctrl-C would have done without the overlay.
    private func interrupt() {
        guarding.interrupted.formUnion(guarding.running)
        guard context?.cancelAllWork() == true else { return session?.passOnInterrupt() ?? () }
        markDirty()
        flush(at: region.lastInstant)
    }

    /// The notice under the rows while work a Ctrl-C cancelled still runs, and one more Ctrl-C
    /// ends the program: `Press Ctrl-C again to quit`, aligned with the rows' texts.
    func interruptNotice() -> [(key: Key, line: OverlayScreen.Line)] {
        guard !guarding.interrupted.isEmpty, integration.handlesSignals, session != nil else { return [] }
        let line = OverlayScreen.Line(
            glyph: nil, text: InterruptedEndings.hint, style: colors ? .yellow : .plain, indent: 1)
        return [(.notice, line)]
    }

    /// Tells the terminal session the final lines a forced exit leaves (a second Ctrl-C while
    /// cancelled work goes on): one for each top-level alert whose work runs, with the time it
    /// has run by then. Published again only when they change.
    func publishForcedExitLines() {
        guard let session, integration.handlesSignals else { return }
        let endings = guarding.interruptedEndings.endings
        guard endings != guarding.publishedEndings else { return }
        guarding.publishedEndings = endings
        session.publishForcedExitLines(
            endings.map { .init(text: $0.text, elapsed: region.lastInstant - $0.began) },
            color: colors ? "33" : nil)
    }

    /// Stops drawing for good after the terminal refused a write.
    func stop() {
        stopped = true
        deadlines = Deadlines()
        releaseOutput()
        if !frames.drawingWithTicker { frames.ticker?.stop() }
        releaseGuard()
    }

    /// Lets go of the overlay's hold on the terminal session, if it has one.
    private func releaseGuard() {
        guard let hold = guarding.hold else { return }
        guarding.hold = nil
        guarding.inputBlocked = false
        session?.release(hold)
    }
}

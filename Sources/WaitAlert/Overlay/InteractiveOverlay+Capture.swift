/// The program's own output while lines show (caught through the terminal session's capture and printed
/// above them), and prompts asked on the terminal.
extension InteractiveOverlay {
    /// Whether a prompt shows and the program's output is caught meanwhile.
    var promptKeepsCapture: Bool { capture.promptDriver != nil && capture.promptCaptures }

    /// Catches the program's output from the moment an alert begins (a subprocess started during
    /// the grace delay writes through what it inherited) until none is left, in the foreground.
    func updateCapture() {
        let shouldCapture =
            integration.capturesOutput && session != nil && !stopped && !region.isDetached
            && (promptKeepsCapture
                || suspensions == 0 && (!guarding.running.isEmpty || region.hasRows || !screen.isEmpty))
        if shouldCapture, capture.relay == nil, let session {
            capture.relay = session.startCapture(events: terminalEvents()) {
                "\r" + OverlayScreen.up($0) + OverlayScreen.eraseFromCursorRow
            }
            capture.promptDriver?.capture = capture.relay
        } else if !shouldCapture {
            releaseOutput()
        }
    }

    /// Gives the program its own descriptors back; what it wrote and was not shown yet follows.
    func releaseOutput() {
        guard let relay = capture.relay, let session else { return }
        self.capture.relay = nil
        capture.promptDriver?.capture = nil
        capture.capturedPartials = 0
        if session.endCapture(relay) {
            // The relay printed over the lines and they were not drawn since: the next draw
            // draws them afresh, and records them as drawn again.
            screen.markErased(cursorShown: false)
            markDirty()
        }
    }

    /// Takes the program's lines caught so far into the lines waiting to be printed above the
    /// region, before a line for something that happens now: what the program wrote before it
    /// comes out before it. Under the terminal session's write lock, as a frame collects them.
    func absorbCapturedLines() {
        guard let relay = capture.relay, let session, !stopped, !region.isDetached else { return }
        _ = session.write(to: terminal, collectingFrom: relay) { collected in
            if collected.erasedRegion { screen.markErased(cursorShown: false) }
            region.printAbove(
                collected.lines.map { (TextSanitizer.keepingColors($0.text), TextSanitizer.line($0.text)) })
            return ([], nil)
        }
    }

    /// The program wrote something while lines show: it is printed above them now (after the
    /// record lines of rows that ended before it).
    func outputArrived() {
        guard capture.relay != nil, !stopped, !region.isDetached else { return }
        region.recordEndedRows()
        markDirty()
        flush(at: region.lastInstant)
    }

    /// Whether the overlay draws on standard error and standard output is the same terminal (so a
    /// line for it can go above the region).
    func standardOutputIsStandardError() -> Bool {
        guard let session else { return false }
        return Platform.isSameTerminal(session.real(Platform.standardOutput), session.real(Platform.standardError))
    }

    // MARK: - Prompts

    /// Asks `prompt` on the terminal when standard input is the same terminal, in the
    /// foreground; returns `false` otherwise.
    func present(_ prompt: WaitAlertPrompt) -> Bool {
        guard let session, !stopped, !region.isDetached, capture.promptDriver == nil,
            TerminalPrompt.canAsk(on: session)
        else { return false }
        let driver = TerminalPrompt(prompt, session: session, colors: colors) { [weak self] in
            self?.capture.promptDriver = nil
            self?.resume()
            self?.updateCapture()  // still suspended (`withAlertsSuspended`): the capture ends
        }
        // Asked while the alerts are suspended, the program has its own descriptors and keeps them.
        capture.promptCaptures = suspensions == 0
        capture.promptDriver = driver
        // The region makes way and gives the terminal to the prompt; the program's output
        // is still caught (or now is), and printed above the prompt.
        suspend()
        updateCapture()
        driver.capture = capture.relay
        driver.collectAbove = { [weak self] collected in self?.takeLinesAbovePrompt(collected) ?? ([], false) }
        driver.escapePending = { [weak self] pending in
            guard let self else { return }
            deadlines.promptEscape = pending ? presenterNow + TerminalPrompt.escapeWait : nil
            context?.deadlineChanged()
        }
        driver.start()
        return true
    }

    /// What waits to be printed above the prompt: log lines, final and record lines, then the
    /// program's lines the session collected. Taken under the lock of the write that prints them.
    private func takeLinesAbovePrompt(
        _ collected: TerminalSession.Collected
    ) -> (lines: [String], erased: Bool) {
        let lines = region.takeLinesAbove().map(\.styled) + collected.lines.map { TextSanitizer.keepingColors($0.text) }
        return (lines, collected.erasedRegion)
    }
}

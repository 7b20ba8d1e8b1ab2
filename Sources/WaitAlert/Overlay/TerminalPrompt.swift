import Dispatch

/// A prompt drawn on the terminal under the output and answered with the keyboard, in raw mode
/// while it shows.
///
/// The keys come from standard input through a ``KeyParser``; a text prompt edits a
/// ``LineEditor``, a choice moves a ``ChoiceState``, and each change redraws the prompt in one
/// write. The prompt holds the terminal session meanwhile: `SIGTERM`, `exit()` and a crash put the modes
/// back; Ctrl-Z (read as a key) gives the terminal back before the program stops, and `fg` draws
/// the prompt again. When the prompt ends, its lines are replaced by one record line
/// (`? Name of the new project: demo`).
@MainActor
final class TerminalPrompt {
    private let prompt: WaitAlertPrompt
    /// The process's terminal: the prompt draws on its standard error, through it.
    private let session: TerminalSession
    private let colors: Bool
    private let onEnd: @MainActor () -> Void
    private var parser = KeyParser()
    private var editor: LineEditor
    private var choice: ChoiceState
    private var source: (any DispatchSourceRead)?
    /// The prompt's hold on the terminal while it asks.
    private var guardHold: TerminalSession.HoldID?
    /// What the prompt has on screen.
    private var screen = PromptScreen()
    /// Told whether a lone Escape waits to be a key of its own (``flushEscape()`` once nothing
    /// follows it for ``escapeWait``), by the overlay that keeps the deadline on its presenter's
    /// clock.
    var escapePending: (Bool) -> Void = { _ in }
    private var finished = false
    /// Lines to print above the prompt, taken under the lock of the write that prints them (what
    /// the program printed meanwhile, in order), and whether the prompt's lines were erased by
    /// someone else meanwhile; the overlay's.
    var collectAbove: ((TerminalSession.Collected) -> (lines: [String], erased: Bool))?
    /// The capture whose lines the session collects for each draw (the overlay's, while it
    /// catches the program's output).
    var capture: TerminalSession.Capture?
    /// Keys typed before the prompt showed (type-ahead): set aside so that they never answer
    /// it, and given back to the terminal's input when it ends.
    private var typeAhead: [UInt8] = []
    /// A note under the field about the last key (a paste or text that was cut), until the next.
    private var notice: String?

    init(
        _ prompt: WaitAlertPrompt, session: TerminalSession, colors: Bool,
        onEnd: @escaping @MainActor () -> Void
    ) {
        self.prompt = prompt
        self.session = session
        self.colors = colors
        self.onEnd = onEnd
        switch prompt {
        case .text(let model):
            editor = LineEditor(text: model.text, maximumLength: model.maximumLength)
            choice = ChoiceState(options: [])
        case .choice(let model):
            editor = LineEditor()
            choice = ChoiceState(
                options: model.buttons.map(\.title), defaultIndex: model.selectedIndex, cancelIndex: model.cancelIndex)
        }
    }

    /// Whether standard input is the terminal standard error is, with this process in its
    /// foreground: where a prompt can read keys.
    static func canAsk(on session: TerminalSession) -> Bool {
        Platform.isForegroundTerminal(Platform.standardInput)
            && Platform.isSameTerminal(Platform.standardInput, session.real(Platform.standardError))
    }

    /// Takes the keyboard and draws the prompt.
    func start() {
        prompt.onEnd { [weak self] _ in self?.finish() }
        guardHold = session.take(
            .init(
                output: session.standardError.descriptor, handlesSignals: true,
                events: { [weak self] event in
                    switch event {
                    case .interrupt: self?.prompt.cancel()
                    case .resize: self?.draw()
                    case .resume: self?.resumeAfterStop()
                    case .outputArrived: break  // the overlay that asked collects it
                    }
                }))
        enterRawMode()
        setTypeAheadAside()
        let source = DispatchSource.makeReadSource(fileDescriptor: Platform.standardInput, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readKeys() }
        }
        source.resume()
        self.source = source
        draw()
    }

    private func enterRawMode() {
        if let guardHold { session.setInput(.raw, of: guardHold) }
        session.setPasteBracketed(true)
        write(PromptScreen.beginPaste)
    }

    /// Takes what was typed before the prompt showed — keys meant for whatever reads next (the
    /// shell, once the program ends), typed while no question was on screen — out of the way of
    /// the prompt: a `y` or an Enter typed during the work never answers a confirmation that
    /// appears later. In raw mode every key typed so far is readable now.
    private func setTypeAheadAside() {
        let pending = Platform.pendingInput(Platform.standardInput)
        guard pending > 0 else { return }
        typeAhead += Platform.readAvailable(Platform.standardInput, upTo: pending) ?? []
    }

    /// Puts the keys set aside back into the terminal's input, still in raw mode (so they are not
    /// echoed now), for whatever reads next. Where the system refuses to insert input (`TIOCSTI`
    /// turned off), they are dropped: they never answer the prompt either way.
    private func giveTypeAheadBack() {
        defer { typeAhead = [] }
        // A question that ends in the background (a timeout after `bg`) leaves the shell's input
        // alone.
        guard Platform.isForeground(Platform.standardInput) else { return }
        Platform.insertInput(typeAhead, into: Platform.standardInput)
    }

    /// After Ctrl-Z and `fg`: the stop gave the terminal back and erased the prompt.
    private func resumeAfterStop() {
        guard !finished, Platform.isForeground(Platform.standardInput) else { return }
        screen.markErased()
        enterRawMode()
        draw()
    }

    private func readKeys() {
        guard let keys = Platform.readAvailable(Platform.standardInput, upTo: 4096) else {
            return prompt.end(.failed(.noAnswer(prompt: prompt.title)))  // the terminal is gone
        }
        guard !keys.isEmpty else { return }
        handle(parser.feed(keys[...]))
        // A lone Escape is a key of its own once nothing follows it for a moment.
        if !finished { escapePending(parser.isAwaitingMore) }
    }

    /// How long a lone Escape waits for the rest of a sequence.
    static let escapeWait = Duration.milliseconds(50)

    /// Nothing followed a lone Escape: it is a key of its own.
    func flushEscape() {
        guard !finished else { return }
        handle(parser.flush())
    }

    private func handle(_ keys: [Key]) {
        for key in keys where !finished {
            if key == .suspend {
                // Without job control (a session's own group) there is nobody to continue it.
                guard Platform.hasJobControl else { continue }
                stop()
                return  // `fg` draws it again
            }
            switch prompt {
            case .text(let model): handle(key, in: model)
            case .choice(let model): handle(key, in: model)
            }
        }
        if !finished { draw() }
    }

    private func handle(_ key: Key, in model: WaitAlertTextPrompt) {
        notice = nil
        if key == .pasteCut {
            notice = "The paste was longer than \(KeyParser.maximumPasteBytes / 1024) KiB: only its start went in."
            return
        }
        defer {
            if editor.lastInsertionWasCut, let maximum = editor.maximumLength {
                notice = "Cut at \(maximum) characters, the most this answer takes."
            }
        }
        switch editor.apply(key) {
        case .unchanged: break
        case .changed: model.text = editor.text
        case .submit:
            model.text = editor.text
            model.submit()
        case .cancel, .interrupt:
            Self.recordCancellationByUser()
            model.cancel()
        }
    }

    private func handle(_ key: Key, in model: WaitAlertChoicePrompt) {
        if case .text(let text) = key, text.count > 1 {
            // Keys typed fast arrive together: each is a key of its own here ("1" then "2").
            for character in text where !model.isFinished { handle(.text(String(character)), in: model) }
            return
        }
        if model.style == .confirmation, case .text(let text) = key {
            switch text.lowercased() {
            case "y": return model.choose(0)
            case "n": return model.choose(1)
            default: return
            }
        }
        switch choice.apply(key) {
        case .unchanged: break
        case .changed: model.selectedIndex = choice.selected
        case .choose(let index): model.choose(index)
        case .cancel, .interrupt:
            Self.recordCancellationByUser()
            model.cancel()
        }
    }

    /// Escape or Ctrl-C: the user cancelled the question. In raw mode Ctrl-C is read as a key
    /// instead of raising `SIGINT`, so it is recorded as the interrupt it stands for, and Escape
    /// with it: ``WaitAlertExit/status(for:)`` then answers 130 for the `CancellationError`, as
    /// after a Ctrl-C that cancelled an alert's work. (A question read as a line records its
    /// Ctrl-C the same way.)
    static func recordCancellationByUser(on session: TerminalSession = .process) {
        session.noteCancelledByInterrupt()
        ShownErrors.record(CancellationError(), signal: Signal.interrupt)
    }

    /// Ctrl-Z: the terminal is given back, the prompt erased, and the program stops; `fg` draws
    /// it again.
    private func stop() {
        erase()
        write(PromptScreen.endPaste + OverlayScreen.showCursor)
        session.setPasteBracketed(false)
        if let guardHold { session.setInput(.asTyped, of: guardHold) }
        Platform.stopProcessGroup()
    }

    // MARK: - Drawing

    /// Prints what waits to be printed above the prompt, if anything, and draws the prompt again
    /// under it.
    func printAbove() {
        draw(onlyIfPrinting: true)
    }

    /// Draws the prompt (after what waits to be printed above it), in one write.
    private func draw(onlyIfPrinting: Bool = false) {
        guard !finished else { return }
        let columns = session.standardError.columns ?? 80
        let rows = session.standardError.rows ?? 24
        var layout = PromptLayout(prompt: prompt, editor: editor, choice: choice, notice: notice, colors: colors)
        let (lines, cursor) = layout.lines(columns: columns, rows: rows)
        choice = layout.choice
        _ = session.write(to: session.standardError, collectingFrom: capture) { collected in
            let above = collectAbove?(collected) ?? (lines: [], erased: false)
            if above.erased { screen.markErased() }
            guard !onlyIfPrinting || !above.lines.isEmpty || !screen.isDrawn else { return ([], nil) }
            var shown = lines
            if let cursor, shown.indices.contains(cursor.row) {
                shown[cursor.row] = PromptLayout.caret(in: shown[cursor.row], atColumn: cursor.column)
            }
            // Recorded with the write that draws it, under the lock the relay prints under: an
            // abrupt end, or the relay printing over it, erases from the prompt's first row,
            // where the cursor rests.
            return (screen.show(shown, printingAbove: above.lines), .init(drawn: true))
        }
    }

    private func erase() {
        // Still on the record as drawn (from its first row): a stop that follows writes the
        // restore sequence, which also turns the cursor and colours back.
        let drawn = screen.isDrawn
        let erase = screen.erase()
        _ = session.write(to: session.standardError) { (erase, .init(drawn: drawn)) }
    }

    // MARK: - Ending

    private func finish() {
        guard !finished else { return }
        finished = true
        escapePending(false)
        source?.cancel()
        source = nil
        var record = ""
        switch prompt.ending {
        case .text(let answer)?:
            if case .text(let model) = prompt {
                record = prompt.recordLine(answer: model.isSecret ? "********" : answer)
            }
        case .choice(let index)?:
            if case .choice(let model) = prompt { record = prompt.recordLine(answer: model.buttons[index].title) }
        default: break
        }
        _ = session.write(to: session.standardError, collectingFrom: capture) { collected in
            let above = collectAbove?(collected) ?? (lines: [], erased: false)
            if above.erased { screen.markErased() }
            return (screen.end(printingAbove: above.lines, record: record), .init(drawn: false))
        }
        screen.markErased()
        session.setPasteBracketed(false)
        giveTypeAheadBack()
        if let guardHold { session.release(guardHold) }
        guardHold = nil
        onEnd()
    }

    private func write(_ text: String) {
        guard !text.isEmpty else { return }
        _ = session.write(Array(text.utf8), to: session.standardError)
    }
}

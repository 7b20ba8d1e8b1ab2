import Dispatch
import Synchronization

/// Answers a prompt from one line of standard input, for a program that is not on a terminal (a
/// script, CI): `printf 'demo\n2\ny\n' | tool`. A text prompt takes the line (an empty line its
/// default); a choice takes a button's number or title; a confirmation takes `y`, `yes`, `n` or
/// `no` (an empty line its default). At the end of input the default answers, if there is one;
/// otherwise, and for a line that is not an answer, the prompt fails with an error that names
/// it — never a hang, never a silent wrong value. Typed at a terminal (the accessible mode, or a
/// program whose standard error is not the terminal), a line that is not an answer is followed by
/// what is wrong with it and the question again. The answer is recorded on standard error:
/// `? Name of the new project: demo`.
///
/// On a terminal the question is one line — `? Upload failed 1) Retry 2) Skip 3) Abort` — or,
/// with a message, the title, the message and what to answer on lines of their own:
///
/// ```text
/// ? Upload failed
///   The server did not answer.
///   1) Retry 2) Skip 3) Abort
/// ```
@MainActor
package enum StandardInputPrompt {
    /// Asks `prompt`; with `handlesSignals`, Ctrl-C at it on a terminal cancels it.
    static func present(
        _ prompt: WaitAlertPrompt, handlesSignals: Bool = true, record: @escaping @MainActor (String) -> Void
    ) {
        let onTerminal = Platform.isTerminal(Platform.standardInput)
        if onTerminal { guardTerminal(for: prompt, handlesSignals: handlesSignals) }
        prompt.onEnd { _ in
            questionOnLine = nil
            // Answered with a line: once its record line is out (see `take`).
            if !answeringWithLine { questionLeftTheLine() }
        }
        if onTerminal { askOnTerminal(prompt) }
        take(for: prompt, onTerminal: onTerminal, record: record)
    }

    /// While the question waits for its line on a terminal, Ctrl-C cancels it, as at a drawn
    /// one — the ask throws `CancellationError`, which ``WaitAlertExit/status(for:)`` counts as
    /// 130 — whatever runs around it; and a secret's echo is off (again after Ctrl-Z and `fg`),
    /// back on when the prompt ends — or the program does: the terminal session puts the modes back
    /// on a signal or a crash.
    private static func guardTerminal(for prompt: WaitAlertPrompt, handlesSignals: Bool) {
        let secret = if case .text(let model) = prompt { model.isSecret } else { false }
        guard handlesSignals || secret else { return }  // a secret's echo always comes back
        // The guard may be held already, for the work around the question (the accessible mode):
        // then only Ctrl-C and the echo are this prompt's, and its holder's handlers stay.
        let session = TerminalSession.process
        let hold = session.take(
            .init(
                output: Platform.standardInput, handlesSignals: true, events: nil, input: secret ? .hidden : .asTyped))
        session.divertInterrupts { interrupted(prompt, echoed: !secret) }
        prompt.onEnd { _ in
            session.divertInterrupts(to: nil)
            session.release(hold)
            if secret { tellTerminal("\n") }  // the Enter that ended the line was not echoed
        }
    }

    /// Ctrl-C at the question: it is cancelled by the user, on a line of its own below the `^C`
    /// the terminal echoed.
    private static func interrupted(_ prompt: WaitAlertPrompt, echoed: Bool) {
        guard !prompt.isFinished else { return }
        TerminalPrompt.recordCancellationByUser()
        if echoed { tellTerminal("\n") }
        prompt.cancel()
    }

    /// Answers `prompt` with the next line. Someone typing at a terminal who gives a line that is
    /// not an answer is told why and asked again; a script's wrong line fails the prompt.
    private static func take(
        for prompt: WaitAlertPrompt, onTerminal: Bool, record: @escaping @MainActor (String) -> Void,
        first: Bool = false
    ) {
        nextLine(for: prompt, first: first) { line in
            questionOnLine = nil
            answeringWithLine = true
            let reason = answer(prompt, with: line, retrying: onTerminal)
            answeringWithLine = false
            if let reason {
                tellTerminal("  " + TextSanitizer.line(reason) + "\n")
                askOnTerminal(prompt)
                return take(for: prompt, onTerminal: onTerminal, record: record, first: true)
            }
            if case .text(let answer)? = prompt.ending, case .text(let model) = prompt {
                record(prompt.recordLine(answer: model.isSecret ? "********" : answer))
            } else if case .choice(let index)? = prompt.ending, case .choice(let model) = prompt {
                record(prompt.recordLine(answer: model.buttons[index].title))
            }
            questionLeftTheLine()
        }
    }

    /// Lines read and not taken yet (`nil`: the end of input), whether a read is under way, and
    /// the prompts waiting for a line, in order. One reader at a time: a line read while its
    /// prompt ended (a timeout, a cancel) goes to the next prompt, never lost.
    private static var unread: [String?] = []
    private static var reading = false
    private static var waiting: [(prompt: WaitAlertPrompt, take: @MainActor (String?) -> Void)] = []
    /// Whether a prompt still waits for a line: the reader reads only then, so no line is taken
    /// from standard input after the prompts that wanted one have ended — the program's own
    /// `readLine()` gets the next one.
    private nonisolated static let wanted = Atomic<Bool>(false)

    /// Gives `prompt` the next line, after the prompts already waiting — or before them when
    /// `first` (a question asked again keeps its place).
    private static func nextLine(
        for prompt: WaitAlertPrompt, first: Bool = false, _ take: @escaping @MainActor (String?) -> Void
    ) {
        if first { waiting.insert((prompt, take), at: 0) } else { waiting.append((prompt, take)) }
        prompt.onEnd { _ in serve() }
        serve()
    }

    /// Gives lines to the prompts still waiting, reading one when none is left.
    private static func serve() {
        waiting.removeAll { $0.prompt.isFinished }
        while !waiting.isEmpty, !unread.isEmpty {
            let line = unread.removeFirst()
            waiting.removeFirst().take(line)
            waiting.removeAll { $0.prompt.isFinished }
        }
        wanted.store(!waiting.isEmpty, ordering: .sequentiallyConsistent)
        guard !waiting.isEmpty, !reading else { return }
        reading = true
        DispatchQueue.global().async {
            // Waits for input without taking any, as long as a prompt wants it: a line comes, or
            // the prompts end (a timeout), and then nothing is read.
            while wanted.load(ordering: .sequentiallyConsistent) {
                guard
                    Platform.standardInputHasBufferedInput()
                        || Platform.isReadable(Platform.standardInput, milliseconds: 50)
                else { continue }
                let line = readLine(strippingNewline: true)
                Task { @MainActor in
                    reading = false
                    unread.append(line)
                    serve()
                }
                return
            }
            Task { @MainActor in
                reading = false
                serve()
            }
        }
    }

    /// Shows the question on the terminal that standard input reads (standard error is not it, or
    /// it would be drawn there), so whoever types the answer sees what is asked.
    private static func askOnTerminal(_ prompt: WaitAlertPrompt) {
        let question = self.question(prompt)
        tellTerminal(question)
        questionOnLine = question
    }

    /// The question as it is asked with a line: `? Name of the new project: (demo) `; with a
    /// message, the title, the message and the choices (or the default) on lines of their own.
    package static func question(_ prompt: WaitAlertPrompt) -> String {
        let title = "? " + TextSanitizer.line(prompt.title)
        var answers: String
        let message: String?
        switch prompt {
        case .text(let model):
            message = model.message
            answers = model.defaultText.map { "(\(TextSanitizer.line($0)))" } ?? ""
        case .choice(let model):
            message = model.message
            answers =
                model.style == .confirmation
                ? (model.defaultIndex == 0 ? "(Y/n)" : "(y/N)")
                : model.buttons.enumerated().map { "\($0.offset + 1)) \(TextSanitizer.line($0.element.title))" }
                    .joined(separator: " ")
        }
        guard let message, !message.isEmpty else { return title + (answers.isEmpty ? " " : " \(answers) ") }
        let lines = TextSanitizer.logLines(message).map { "  " + $0 + "\n" }.joined()
        return title + "\n" + lines + "  " + (answers.isEmpty ? "" : answers + " ")
    }

    /// The question shown on the terminal and waiting for its line, while nothing was typed and
    /// entered: lines written meanwhile (``LineRenderer``) go below it and ask it again after
    /// them, so it stays the last thing on the screen.
    static var questionOnLine: String?

    /// Whether a line is being taken as an answer: the question leaves the line once the answer's
    /// record line is out.
    private static var answeringWithLine = false
    /// What runs once the question leaves the line for good (answered, cancelled, timed out).
    private static var afterQuestionActions: [@MainActor () -> Void] = []

    /// Runs `action` once the question waiting for its line has left it: answered (after its
    /// record line), cancelled or timed out.
    static func afterQuestion(_ action: @escaping @MainActor () -> Void) {
        afterQuestionActions.append(action)
    }

    private static func questionLeftTheLine() {
        let actions = afterQuestionActions
        afterQuestionActions = []
        actions.forEach { $0() }
    }

    /// Writes `text` on the terminal, where someone types the answers.
    private static func tellTerminal(_ text: String) {
        // Not once the program is ending.
        guard !TerminalSession.process.hasEnded else { return }
        Platform.writeToControllingTerminal(Array(text.utf8))
    }

    /// Ends `prompt` with what `line` (`nil` at the end of input) answers. With `retrying`, a line
    /// that is not an answer leaves the prompt open and what is wrong with it is returned.
    @discardableResult
    package static func answer(_ prompt: WaitAlertPrompt, with line: String?, retrying: Bool = false) -> String? {
        switch prompt {
        case .text(let model):
            guard let line else {
                if let defaultText = model.defaultText {
                    prompt.end(.text(defaultText))
                } else {
                    prompt.end(.failed(.noAnswer(prompt: model.title)))
                }
                return nil
            }
            model.text = line
            if !model.submit() {
                let reason = model.validationMessage ?? ""
                if retrying { return reason.isEmpty ? "not an answer" : reason }
                prompt.end(.failed(.invalidAnswer(prompt: model.title, answer: line, reason: reason)))
            }
        case .choice(let model):
            let answer = line?.trimmingWhitespace ?? ""
            if answer.isEmpty {
                guard let index = model.defaultIndex else {
                    if retrying, line != nil { return "there is no default: answer one of them" }
                    let failure: WaitAlertPromptError =
                        line == nil
                        ? .noAnswer(prompt: model.title)
                        : .invalidAnswer(prompt: model.title, answer: "", reason: "there is no default")
                    prompt.end(.failed(failure))
                    return nil
                }
                model.choose(index)
                return nil
            }
            if let index = index(of: answer, in: model) {
                model.choose(index)
            } else {
                let expected =
                    model.style == .confirmation
                    ? "answer y or n"
                    : "answer a number from 1 to \(model.buttons.count) or a title ("
                        + model.buttons.map(\.title).joined(separator: ", ") + ")"
                if retrying { return expected }
                prompt.end(.failed(.invalidAnswer(prompt: model.title, answer: answer, reason: expected)))
            }
        }
        return nil
    }

    private static func index(of answer: String, in model: WaitAlertChoicePrompt) -> Int? {
        let lowered = answer.lowercased()
        if model.style == .confirmation {
            if ["y", "yes"].contains(lowered) { return 0 }
            if ["n", "no"].contains(lowered) { return 1 }
            return nil
        }
        if let number = Int(answer), model.buttons.indices.contains(number - 1) { return number - 1 }
        return model.buttons.firstIndex { $0.title.lowercased() == lowered }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

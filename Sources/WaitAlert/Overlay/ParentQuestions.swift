import Dispatch
import Synchronization

/// The questions of a program whose alerts are child tasks of another program's
/// (`WAIT_ALERT_SOCKET`): that program owns the terminal, so it asks them, and their answers come
/// back on the same connection (``PromptMessage``).
///
/// A question the parent cannot ask — it does not take questions, or it has gone — fails with
/// ``WaitAlertPromptError/cannotAsk(prompt:reason:)``: never answered with its default unseen.
/// One that ends here first (its timeout, its task cancelled) is withdrawn there. A text answer
/// the prompt's validation refuses is asked again, with the reason as its message.
@MainActor
final class ParentQuestions {
    /// The connection to the parent; `nil` while none is (this program attaches again).
    let connection: ParentConnection?
    /// The questions asked and not answered yet, by number.
    private var asked: [UInt64: WaitAlertPrompt] = [:]
    private var next: UInt64 = 0
    /// Whether the parent has gone (its end of the connection closed).
    private var parentGone = false
    /// Whether a thread reads the parent's answers: only while a question waits for one.
    private var reading = false
    /// Whether a question waits for its answer, for the reading thread.
    private let waiting = WaitingFlag()

    private final class WaitingFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    init(connection: ParentConnection?) {
        self.connection = connection
    }

    /// Asks `prompt` through the parent; `message` replaces its own (a refused answer's reason).
    func present(_ prompt: WaitAlertPrompt, message: String? = nil) {
        guard let connection, connection.acceptsQuestions, !parentGone else {
            let reason =
                connection?.acceptsQuestions == false
                ? "the program whose alerts this one reports into does not take questions"
                : "the program whose alerts this one reports into has ended"
            prompt.end(.failed(.cannotAsk(prompt: prompt.title, reason: reason)))
            return
        }
        next += 1
        let ask = next
        asked[ask] = prompt
        prompt.onEnd { [weak self] _ in
            // Ended here before its answer came: the parent stops asking it.
            guard let self, self.asked.removeValue(forKey: ask) != nil else { return }
            self.send(.withdraw(ask: ask))
            self.updateWaiting()
        }
        guard send(.ask(PromptMessage.Question(prompt, ask: ask, message: message))) else {
            parentHasGone()
            return
        }
        updateWaiting()
        readAnswers()
    }

    @discardableResult
    private func send(_ message: PromptMessage) -> Bool {
        connection?.write(Array((message.jsonLine + "\n").utf8)) ?? false
    }

    private func updateWaiting() {
        waiting.value.store(!asked.isEmpty, ordering: .sequentiallyConsistent)
    }

    /// Reads answers on a thread of its own while questions wait for them.
    private func readAnswers() {
        guard !reading, let connection else { return }
        reading = true
        DispatchQueue.global().async { [waiting] in
            let stillThere = connection.readLines(while: { waiting.value.load(ordering: .sequentiallyConsistent) }) {
                lines in
                Task { @MainActor [weak self] in
                    for line in lines { self?.receive(line) }
                }
            }
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.reading = false
                if !stillThere {
                    self.parentHasGone()
                } else if !self.asked.isEmpty {
                    self.readAnswers()  // a question came as the reader was stopping
                }
            }
        }
    }

    private func receive(_ line: String) {
        let message = PromptMessage.read(line) { [asked] ask in asked[ask]?.title ?? "" }
        guard case .answer(let ask, let ending)? = message, let prompt = asked.removeValue(forKey: ask) else { return }
        updateWaiting()
        switch (prompt, ending) {
        case (.text(let model), .text(let answer)):
            model.text = answer
            if !model.submit() { present(prompt, message: model.validationMessage) }
        case (.choice(let model), .choice(let index)) where model.buttons.indices.contains(index):
            model.choose(index)
        case (_, .cancelled):
            // Escape or Ctrl-C there: the user's interrupt, as at a question asked here.
            TerminalPrompt.recordCancellationByUser()
            prompt.cancel()
        case (_, .failed(let error)):
            prompt.end(.failed(error))
        default:
            let reason = "the program whose alerts this one reports into answered something else"
            prompt.end(.failed(.cannotAsk(prompt: prompt.title, reason: reason)))
        }
    }

    /// The parent has gone: the questions waiting fail, and later ones at once.
    private func parentHasGone() {
        parentGone = true
        let waiting = asked.values
        asked = [:]
        updateWaiting()
        let reason = "the program whose alerts this one reports into has ended"
        for prompt in waiting { prompt.end(.failed(.cannotAsk(prompt: prompt.title, reason: reason))) }
    }
}

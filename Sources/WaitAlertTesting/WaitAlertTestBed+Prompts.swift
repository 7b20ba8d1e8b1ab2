public import Testing
import WaitAlert

/// Answers for the prompts the code under test asks (`askText`, `askChoice`, `confirm`), without
/// a terminal.
///
/// Script the answers before the code asks; each prompt takes the next one, in order:
///
/// ```swift
/// bed.answer("demo")
/// bed.choose("Retry")
/// bed.confirm(true)
/// let work = bed.start { try await createProject() }
/// try await bed.run(until: work)
/// bed.expectEveryAnswerUsed()
/// ```
///
/// A prompt with no answer left, or of another kind than the next answer, records an issue that
/// names it, and is cancelled (the code under test sees `CancellationError`), so a test never
/// hangs on a question it did not expect. The issue points at the test: the call of the bed that
/// was running the work when the prompt came (`run(until:)`, `advance(by:)`), else the `start`
/// of the work; a refused answer points at the line that scripted it.
extension WaitAlertTestBed {
    /// An answer waiting for its prompt.
    struct ScriptedAnswer {
        enum Kind {
            case text(String)
            case choice(String)
            case index(Int)
            case confirmation(Bool)
            case cancel
        }

        var kind: Kind
        var sourceLocation: SourceLocation
    }

    /// Answers the next prompt, a text prompt, with `text` (an empty text takes its default).
    public func answer(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        scriptedAnswers.append(ScriptedAnswer(kind: .text(text), sourceLocation: sourceLocation))
    }

    /// Answers the next prompt, a choice, with the button titled `title`.
    public func choose(_ title: String, sourceLocation: SourceLocation = #_sourceLocation) {
        scriptedAnswers.append(ScriptedAnswer(kind: .choice(title), sourceLocation: sourceLocation))
    }

    /// Answers the next prompt, a choice, with button `index`.
    public func choose(index: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        scriptedAnswers.append(ScriptedAnswer(kind: .index(index), sourceLocation: sourceLocation))
    }

    /// Answers the next prompt, a `confirm`, with yes or no.
    public func confirm(_ answer: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        scriptedAnswers.append(ScriptedAnswer(kind: .confirmation(answer), sourceLocation: sourceLocation))
    }

    /// Cancels the next prompt, as Escape or Ctrl-C would.
    public func cancelPrompt(sourceLocation: SourceLocation = #_sourceLocation) {
        scriptedAnswers.append(ScriptedAnswer(kind: .cancel, sourceLocation: sourceLocation))
    }

    /// Records an issue for each scripted answer no prompt asked for.
    public func expectEveryAnswerUsed(sourceLocation: SourceLocation = #_sourceLocation) {
        for answer in scriptedAnswers {
            recordIssue(
                "A scripted answer (\(answer.kind)) was never asked for: no prompt came for it.",
                sourceLocation: answer.sourceLocation)
        }
        scriptedAnswers = []
    }

    func answerPrompt(_ prompt: WaitAlertPrompt) {
        askedPrompts.append(prompt.title)
        guard !scriptedAnswers.isEmpty else {
            recordIssue(
                """
                A prompt appeared that the test did not expect: "\(prompt.title)". Script its answer before \
                the code asks (bed.answer, bed.choose, bed.confirm, bed.cancelPrompt); it was cancelled.
                """,
                sourceLocation: testLocation)
            prompt.cancel()
            return
        }
        let answer = scriptedAnswers.removeFirst()
        switch (answer.kind, prompt) {
        case (.cancel, _):
            prompt.cancel()
        case (.text(let text), .text(let model)):
            model.text = text
            if !model.submit() {
                refuse(prompt, answer, because: model.validationMessage ?? "refused")
            }
        case (.choice(let title), .choice(let model)):
            guard let index = model.buttons.firstIndex(where: { $0.title == title }) else {
                return refuse(
                    prompt, answer,
                    because: "no button is titled \"\(title)\" (\(model.buttons.map(\.title).joined(separator: ", ")))")
            }
            model.choose(index)
        case (.index(let index), .choice(let model)):
            guard model.buttons.indices.contains(index) else {
                return refuse(prompt, answer, because: "it has \(model.buttons.count) buttons")
            }
            model.choose(index)
        case (.confirmation(let yes), .choice(let model)) where model.style == .confirmation:
            model.choose(yes ? 0 : 1)
        default:
            refuse(prompt, answer, because: "the next scripted answer is for another kind of prompt")
        }
    }

    private func refuse(_ prompt: WaitAlertPrompt, _ answer: ScriptedAnswer, because reason: String) {
        recordIssue(
            "The scripted answer (\(answer.kind)) does not answer \"\(prompt.title)\": \(reason); it was cancelled.",
            sourceLocation: answer.sourceLocation)
        prompt.cancel()
    }
}

/// What a prompt does when its time runs out.
public enum WaitAlertPromptTimeout: Sendable, Hashable {
    /// Answers with the default (the default text, the default button, the default of `confirm`);
    /// throws ``WaitAlertPromptError/timedOut(prompt:)`` when there is none.
    case useDefault
    /// Throws ``WaitAlertPromptError/timedOut(prompt:)``.
    case fail
}

/// Asks for a line of text and returns it.
///
/// In a terminal the question shows with a text field (line editing, paste, wide characters);
/// without one, a line is read from standard input, so scripts can answer
/// (`printf 'demo\n' | tool`). After the answer, one record line stays:
/// `? Name of the new project: demo`.
///
/// ```swift
/// let name = try await askText("Name of the new project:", default: "demo")
/// ```
///
/// - Parameters:
///   - title: the question.
///   - message: more about it, under the title.
///   - defaultText: the answer Enter gives on an empty field (and that end of input or a timeout
///     gives).
///   - placeholder: shown in the empty field when there is no default.
///   - secret: masks what is typed, and the record line.
///   - maximumLength: the longest answer, in characters.
///   - validate: returns why an answer is refused (shown under the field, which keeps the text),
///     or `nil` to accept it.
///   - timeout: how long to wait for an answer.
///   - onTimeout: what a timeout does.
///   - presenter: where to ask; ``WaitAlertPresenter/current`` by default.
/// - Returns: the answer.
/// - Throws: `CancellationError` when the task is cancelled, or the user cancels (Escape, Ctrl-C);
///   ``WaitAlertPromptError`` when there is no answer.
@MainActor
public func askText(
    _ title: String,
    message: String? = nil,
    default defaultText: String? = nil,
    placeholder: String? = nil,
    secret: Bool = false,
    maximumLength: Int? = nil,
    validate: (@Sendable (String) -> String?)? = nil,
    timeout: Duration? = nil,
    onTimeout: WaitAlertPromptTimeout = .useDefault,
    presenter: WaitAlertPresenter? = nil
) async throws -> String {
    let model = WaitAlertTextPrompt(
        title: title, message: message, defaultText: defaultText, placeholder: placeholder, isSecret: secret,
        maximumLength: maximumLength, validate: validate)
    switch await (presenter ?? .current).ask(.text(model), timeout: timeout) {
    case .text(let answer): return answer
    case .choice, .cancelled: throw CancellationError()
    case .failed(let error): throw error
    case .timedOut:
        guard onTimeout == .useDefault, let defaultText else { throw WaitAlertPromptError.timedOut(prompt: title) }
        return defaultText
    }
}

/// Asks to choose one of `buttons` and returns the one chosen, by index and title.
///
/// In a terminal the buttons show side by side (or one per row, scrolling, with `style: .list`):
/// arrows and Tab move, Enter chooses the selected one (the `.default` button at first), a
/// button's number or first letter chooses it, Escape chooses the `.cancel` button (or cancels
/// the prompt when there is none). Without a terminal, a line is read from standard input: a
/// button's number or title.
///
/// ```swift
/// let choice = try await askChoice(
///     "Upload failed", message: "Server unreachable",
///     buttons: [WaitAlertButton("Retry", role: .default), "Skip", WaitAlertButton("Abort", role: .cancel)])
/// ```
///
/// - Throws: `CancellationError` when the task or the user cancels; ``WaitAlertPromptError``
///   when there is no answer.
@MainActor
public func askChoice(
    _ title: String,
    message: String? = nil,
    buttons: [WaitAlertButton],
    style: WaitAlertChoicePrompt.Style = .buttons,
    timeout: Duration? = nil,
    onTimeout: WaitAlertPromptTimeout = .useDefault,
    presenter: WaitAlertPresenter? = nil
) async throws -> (index: Int, title: String) {
    precondition(!buttons.isEmpty, "askChoice needs at least one button")
    let model = WaitAlertChoicePrompt(title: title, message: message, buttons: buttons, style: style)
    switch await (presenter ?? .current).ask(.choice(model), timeout: timeout) {
    case .choice(let index): return (index, buttons[index].title)
    case .text, .cancelled: throw CancellationError()
    case .failed(let error): throw error
    case .timedOut:
        guard onTimeout == .useDefault, let index = model.defaultIndex else {
            throw WaitAlertPromptError.timedOut(prompt: title)
        }
        return (index, buttons[index].title)
    }
}

/// Asks a yes/no question: `? Overwrite 3 files? (y/N)`.
///
/// `y` or `n` answers at once, Enter gives `default`, Escape cancels. Without a terminal, a line
/// is read from standard input (`y`, `yes`, `n`, `no`, or empty for the default).
///
/// ```swift
/// if try await confirm("Overwrite 3 files?", default: false) { try overwrite() }
/// ```
///
/// - Throws: `CancellationError` when the task or the user cancels; ``WaitAlertPromptError``
///   when there is no answer.
@MainActor
public func confirm(
    _ title: String,
    message: String? = nil,
    default defaultAnswer: Bool = false,
    timeout: Duration? = nil,
    onTimeout: WaitAlertPromptTimeout = .useDefault,
    presenter: WaitAlertPresenter? = nil
) async throws -> Bool {
    let buttons = [
        WaitAlertButton("Yes", role: defaultAnswer ? .default : .normal),
        WaitAlertButton("No", role: defaultAnswer ? .normal : .default),
    ]
    let model = WaitAlertChoicePrompt(title: title, message: message, buttons: buttons, style: .confirmation)
    switch await (presenter ?? .current).ask(.choice(model), timeout: timeout) {
    case .choice(let index): return index == 0
    case .text, .cancelled: throw CancellationError()
    case .failed(let error): throw error
    case .timedOut:
        guard onTimeout == .useDefault else { throw WaitAlertPromptError.timedOut(prompt: title) }
        return defaultAnswer
    }
}

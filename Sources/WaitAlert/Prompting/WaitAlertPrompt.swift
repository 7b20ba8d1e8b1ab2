public import Observation

/// A question a program asks while it runs: what ``WaitAlertPresenter/prompt`` holds while one is
/// shown, for a UI to bind to.
@MainActor
public enum WaitAlertPrompt {
    /// A single text field: ``askText(_:message:default:placeholder:secret:maximumLength:validate:timeout:onTimeout:presenter:)``.
    case text(WaitAlertTextPrompt)
    /// Buttons, a list or a yes/no question: ``askChoice(_:message:buttons:style:timeout:onTimeout:presenter:)``
    /// and ``confirm(_:message:default:timeout:onTimeout:presenter:)``.
    case choice(WaitAlertChoicePrompt)

    /// The prompt's title.
    public var title: String {
        switch self {
        case .text(let prompt): prompt.title
        case .choice(let prompt): prompt.title
        }
    }

    /// Ends the prompt as cancelled: the caller's `ask` throws `CancellationError`.
    public func cancel() {
        switch self {
        case .text(let prompt): prompt.cancel()
        case .choice(let prompt): prompt.cancel()
        }
    }

    /// Whether it has been answered, cancelled or timed out.
    public var isFinished: Bool {
        switch self {
        case .text(let prompt): prompt.isFinished
        case .choice(let prompt): prompt.isFinished
        }
    }

    /// How it ended, for whoever waits on it.
    package var ending: PromptEnding? {
        switch self {
        case .text(let prompt): prompt.ending
        case .choice(let prompt): prompt.ending
        }
    }

    package func onEnd(_ handler: @escaping @MainActor (PromptEnding) -> Void) {
        switch self {
        case .text(let prompt): prompt.finish.onEnd(handler)
        case .choice(let prompt): prompt.finish.onEnd(handler)
        }
    }

    /// The line that stays after the answer: `? Name of the new project: demo`.
    package func recordLine(answer: String) -> String {
        let title = self.title
        let separator = title.hasSuffix(":") || title.hasSuffix("?") ? " " : ": "
        return "? " + title + separator + answer
    }

    /// Ends it because its time ran out.
    package func timeOut() {
        end(.timedOut)
    }

    /// Ends it with `ending`, unless it has ended already.
    package func end(_ ending: PromptEnding) {
        switch self {
        case .text(let prompt): prompt.finish.end(ending)
        case .choice(let prompt): prompt.finish.end(ending)
        }
    }
}

/// How a prompt ended.
package enum PromptEnding: Sendable, Equatable {
    case text(String)
    case choice(Int)
    case cancelled
    case timedOut
    /// No answer could be had (standard input ended, or gave an answer the prompt refuses).
    case failed(WaitAlertPromptError)
}

/// Why a prompt has no answer.
public enum WaitAlertPromptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing could answer: standard input ended (or is not readable) and the prompt has no
    /// default.
    case noAnswer(prompt: String)
    /// The answer read from standard input is not one the prompt accepts.
    case invalidAnswer(prompt: String, answer: String, reason: String)
    /// The prompt's time ran out.
    case timedOut(prompt: String)
    /// The question could not be asked: the program runs under another's alerts
    /// (`WAIT_ALERT_SOCKET`), which owns the terminal and could not ask it (it has ended, or does
    /// not take questions). It is never answered with its default unseen.
    case cannotAsk(prompt: String, reason: String)

    public var description: String {
        switch self {
        case .noAnswer(let prompt): "No answer to \"\(prompt)\": standard input has ended and there is no default."
        case .invalidAnswer(let prompt, let answer, let reason):
            "\"\(answer)\" does not answer \"\(prompt)\": \(reason)"
        case .timedOut(let prompt): "No answer to \"\(prompt)\" in time."
        case .cannotAsk(let prompt, let reason): "Cannot ask \"\(prompt)\": \(reason)."
        }
    }
}

/// The one ending of a prompt, delivered once to each handler.
@MainActor
package final class PromptFinish {
    package private(set) var ending: PromptEnding?
    private var handlers: [(PromptEnding) -> Void] = []

    /// Calls `handler` with the ending: at once if the prompt has ended, else when it does.
    package func onEnd(_ handler: @escaping (PromptEnding) -> Void) {
        if let ending { handler(ending) } else { handlers.append(handler) }
    }

    package func end(_ ending: PromptEnding) {
        guard self.ending == nil else { return }
        self.ending = ending
        let handlers = handlers
        self.handlers = []
        for handler in handlers { handler(ending) }
    }
}

/// The model of a text prompt: a title, an optional message, one text field, and Submit/Cancel.
///
/// A view binds ``text`` to its field, shows ``validationMessage`` under it, and calls
/// ``submit()`` or ``cancel()``.
@MainActor
@Observable
public final class WaitAlertTextPrompt {
    /// The question.
    public let title: String
    /// More about it, shown under the title.
    public let message: String?
    /// What the field holds (an answer longer than ``maximumLength`` is cut to it).
    public var text: String
    /// What an empty answer means (shown, accepted with Enter).
    public let defaultText: String?
    /// Shown in the empty field.
    public let placeholder: String?
    /// Whether the field masks what is typed (a password).
    public let isSecret: Bool
    /// The longest answer, in characters.
    public let maximumLength: Int?
    /// Why the last submitted text was refused, until the next submit.
    public private(set) var validationMessage: String?

    @ObservationIgnored private let validate: (@Sendable (String) -> String?)?
    @ObservationIgnored package let finish = PromptFinish()

    /// Makes the model of a text prompt.
    public init(
        title: String, message: String? = nil, defaultText: String? = nil, placeholder: String? = nil,
        isSecret: Bool = false, maximumLength: Int? = nil, validate: (@Sendable (String) -> String?)? = nil
    ) {
        self.title = title
        self.message = message
        self.defaultText = defaultText
        self.placeholder = placeholder
        self.isSecret = isSecret
        self.maximumLength = maximumLength.map { max($0, 1) }
        self.validate = validate
        text = ""
    }

    /// The answer ``submit()`` would give now: the text, or the default when the text is empty.
    public var answer: String {
        let text = maximumLength.map { String(self.text.prefix($0)) } ?? self.text
        return text.isEmpty ? (defaultText ?? "") : text
    }

    /// Submits the field: the answer is validated, and either accepted (the prompt ends) or
    /// refused with ``validationMessage`` set and the text kept.
    ///
    /// - Returns: whether the answer was accepted.
    @discardableResult
    public func submit() -> Bool {
        guard !isFinished else { return false }
        let answer = answer
        if let message = validate?(answer) {
            validationMessage = message
            return false
        }
        validationMessage = nil
        finish.end(.text(answer))
        return true
    }

    /// Ends the prompt without an answer: the caller's `askText` throws `CancellationError`.
    public func cancel() {
        finish.end(.cancelled)
    }

    /// Whether it has ended.
    public var isFinished: Bool { finish.ending != nil }

    package var ending: PromptEnding? { finish.ending }
}

/// A button of a choice prompt, with its role.
public struct WaitAlertButton: Sendable, Hashable, ExpressibleByStringLiteral {
    /// What a button does, for how it is shown and which keys choose it.
    public enum Role: Sendable, Hashable {
        /// An ordinary button.
        case normal
        /// Chosen with Enter.
        case `default`
        /// Chosen with Escape.
        case cancel
        /// Does something that cannot be undone (shown in red where colours are on).
        case destructive
    }

    public var title: String
    public var role: Role

    public init(_ title: String, role: Role = .normal) {
        self.title = title
        self.role = role
    }

    public init(stringLiteral title: String) {
        self.init(title)
    }
}

/// The model of a choice prompt: a title, an optional message, and buttons (or a list of
/// options) of which the user chooses one.
@MainActor
@Observable
public final class WaitAlertChoicePrompt {
    /// How the choice is shown.
    public enum Style: Sendable, Hashable {
        /// Buttons side by side.
        case buttons
        /// One option per row, scrolling within the window's height: for many options.
        case list
        /// A yes/no question (buttons "Yes" and "No").
        case confirmation
    }

    /// The question.
    public let title: String
    /// More about it.
    public let message: String?
    /// The choices, in order.
    public let buttons: [WaitAlertButton]
    public let style: Style
    /// The button a keyboard or a focus engine points at: the default one at first.
    public var selectedIndex: Int

    @ObservationIgnored package let finish = PromptFinish()

    /// Makes the model of a choice prompt; the first button with the `default` role is
    /// selected (or the first button).
    public init(title: String, message: String? = nil, buttons: [WaitAlertButton], style: Style = .buttons) {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.style = style
        selectedIndex = buttons.firstIndex { $0.role == .default } ?? 0
    }

    /// The button chosen with Enter.
    public var defaultIndex: Int? { buttons.firstIndex { $0.role == .default } }
    /// The button chosen with Escape.
    public var cancelIndex: Int? { buttons.firstIndex { $0.role == .cancel } }

    /// Chooses button `index`: the prompt ends with it. An index out of range does nothing.
    public func choose(_ index: Int) {
        guard buttons.indices.contains(index) else { return }
        selectedIndex = index
        finish.end(.choice(index))
    }

    /// Ends the prompt without a choice: the caller's `askChoice` throws `CancellationError`.
    public func cancel() {
        finish.end(.cancelled)
    }

    /// Whether it has ended.
    public var isFinished: Bool { finish.ending != nil }

    package var ending: PromptEnding? { finish.ending }
}

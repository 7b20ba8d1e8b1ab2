/// The lines through which a program reporting into another's alerts (`WAIT_ALERT_SOCKET`) asks
/// its questions there: the program that shows the alerts owns the terminal, so it asks them.
///
/// The child writes `ask` and waits; the parent asks the question as one of its own (drawn on its
/// terminal, or answered with a line of its standard input) and writes `answer` back. A question
/// that ends in the child first — its timeout, its task cancelled — is withdrawn:
///
/// ```json
/// {"v":1,"event":"ask","ask":1,"kind":"text","title":"Archive name:","default":"backup","secret":false}
/// {"v":1,"event":"answer","ask":1,"text":"photos"}
/// {"v":1,"event":"ask","ask":2,"kind":"choice","style":"confirmation","title":"Archive 4312 files?","buttons":["Yes","No"],"roles":["default","normal"]}
/// {"v":1,"event":"answer","ask":2,"choice":0}
/// {"v":1,"event":"withdraw","ask":2}
/// ```
///
/// An answer is a `text`, a `choice` (the button's index), `"cancelled":true` (Escape, Ctrl-C),
/// or an `error`: `noAnswer`, `invalidAnswer` (with `answer` and `reason`), `timedOut`, or
/// `cannotAsk` (with `reason`). A parent that takes questions says so right after its greeting
/// (``EventSocket/acceptsQuestions``); to one that does not, a question fails at once.
package enum PromptMessage: Sendable, Equatable {
    /// A question, with what it takes to ask it again elsewhere.
    case ask(Question)
    /// The child's question `ask` ended there: the parent stops asking it.
    case withdraw(ask: UInt64)
    /// How the parent's asking of question `ask` ended.
    case answer(ask: UInt64, PromptEnding)

    /// A question as it travels. (A text prompt's validation stays with the child: an answer it
    /// refuses is asked again, with the reason as its message.)
    package struct Question: Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            case text(defaultText: String?, placeholder: String?, isSecret: Bool, maximumLength: Int?)
            case choice(buttons: [WaitAlertButton], style: WaitAlertChoicePrompt.Style)
        }

        /// The child's number for it, unique on its connection.
        package var ask: UInt64
        package var title: String
        package var message: String?
        package var kind: Kind

        package init(ask: UInt64, title: String, message: String?, kind: Kind) {
            self.ask = ask
            self.title = title
            self.message = message
            self.kind = kind
        }

        /// The question `prompt` asks, numbered `ask`; `message` replaces the prompt's own.
        @MainActor
        package init(_ prompt: WaitAlertPrompt, ask: UInt64, message: String?) {
            switch prompt {
            case .text(let model):
                self.init(
                    ask: ask, title: model.title, message: message ?? model.message,
                    kind: .text(
                        defaultText: model.defaultText, placeholder: model.placeholder, isSecret: model.isSecret,
                        maximumLength: model.maximumLength))
            case .choice(let model):
                self.init(
                    ask: ask, title: model.title, message: message ?? model.message,
                    kind: .choice(buttons: model.buttons, style: model.style))
            }
        }

        /// A prompt that asks it.
        @MainActor
        package func makePrompt() -> WaitAlertPrompt {
            switch kind {
            case .text(let defaultText, let placeholder, let isSecret, let maximumLength):
                .text(
                    WaitAlertTextPrompt(
                        title: title, message: message, defaultText: defaultText, placeholder: placeholder,
                        isSecret: isSecret, maximumLength: maximumLength))
            case .choice(let buttons, let style):
                .choice(WaitAlertChoicePrompt(title: title, message: message, buttons: buttons, style: style))
            }
        }
    }

    /// Longest texts read, in characters, and most buttons.
    static let textLimit = 4096
    static let buttonLimit = 1000

    /// The message as one line of JSON, without the line feed.
    package var jsonLine: String {
        var line = "{\"v\":\(WaitAlertEvent.schemaVersion),"
        switch self {
        case .ask(let question):
            line += "\"event\":\"ask\",\"ask\":\(question.ask)"
            switch question.kind {
            case .text(let defaultText, let placeholder, let isSecret, let maximumLength):
                line += ",\"kind\":\"text\",\"title\":" + JSONText.quoted(question.title)
                if let message = question.message { line += ",\"message\":" + JSONText.quoted(message) }
                if let defaultText { line += ",\"default\":" + JSONText.quoted(defaultText) }
                if let placeholder { line += ",\"placeholder\":" + JSONText.quoted(placeholder) }
                line += ",\"secret\":\(isSecret)"
                if let maximumLength { line += ",\"maximumLength\":\(maximumLength)" }
            case .choice(let buttons, let style):
                line += ",\"kind\":\"choice\",\"style\":\"\(Self.name(of: style))\""
                line += ",\"title\":" + JSONText.quoted(question.title)
                if let message = question.message { line += ",\"message\":" + JSONText.quoted(message) }
                line += ",\"buttons\":[" + buttons.map { JSONText.quoted($0.title) }.joined(separator: ",") + "]"
                line += ",\"roles\":[" + buttons.map { "\"\(Self.name(of: $0.role))\"" }.joined(separator: ",") + "]"
            }
        case .withdraw(let ask):
            line += "\"event\":\"withdraw\",\"ask\":\(ask)"
        case .answer(let ask, let ending):
            line += "\"event\":\"answer\",\"ask\":\(ask)"
            switch ending {
            case .text(let text): line += ",\"text\":" + JSONText.quoted(text)
            case .choice(let index): line += ",\"choice\":\(index)"
            case .cancelled: line += ",\"cancelled\":true"
            case .timedOut: line += ",\"error\":\"timedOut\""
            case .failed(.timedOut): line += ",\"error\":\"timedOut\""
            case .failed(.noAnswer): line += ",\"error\":\"noAnswer\""
            case .failed(.invalidAnswer(_, let answer, let reason)):
                line += ",\"error\":\"invalidAnswer\",\"answer\":" + JSONText.quoted(answer)
                line += ",\"reason\":" + JSONText.quoted(reason)
            case .failed(.cannotAsk(_, let reason)):
                line += ",\"error\":\"cannotAsk\",\"reason\":" + JSONText.quoted(reason)
            }
        }
        return line + "}"
    }

    /// Reads one line: `nil` when it is not a question, a withdrawal or an answer (an event, or
    /// not JSON). Errors name the question `title`, which the reader knows.
    package static func read(_ line: String, title: (UInt64) -> String = { _ in "" }) -> PromptMessage? {
        // Cheap first: the event lines around these never carry the field.
        guard line.utf8.count < 1 << 20, line.contains("\"ask\""), let fields = JSONText.object(line) else {
            return nil
        }
        if let version = fields["v"] {
            guard let number = version.integer, (1...WaitAlertEvent.schemaVersion).contains(number) else { return nil }
        }
        guard let number = fields["ask"]?.integer, number >= 0 else { return nil }
        let ask = UInt64(number)
        func text(_ name: String) -> String? { fields[name]?.string.map { String($0.prefix(textLimit)) } }
        switch fields["event"]?.string {
        case "withdraw": return .withdraw(ask: ask)
        case "answer":
            if let answer = text("text") { return .answer(ask: ask, .text(answer)) }
            if let index = fields["choice"]?.integer { return .answer(ask: ask, .choice(index)) }
            if fields["cancelled"] == .bool(true) { return .answer(ask: ask, .cancelled) }
            let prompt = title(ask)
            switch fields["error"]?.string {
            case "noAnswer": return .answer(ask: ask, .failed(.noAnswer(prompt: prompt)))
            case "timedOut": return .answer(ask: ask, .failed(.timedOut(prompt: prompt)))
            case "invalidAnswer":
                let error = WaitAlertPromptError.invalidAnswer(
                    prompt: prompt, answer: text("answer") ?? "", reason: text("reason") ?? "")
                return .answer(ask: ask, .failed(error))
            case let other:
                let reason = text("reason") ?? "it answered \(TextSanitizer.line(other ?? "nothing"))"
                return .answer(ask: ask, .failed(.cannotAsk(prompt: prompt, reason: reason)))
            }
        case "ask":
            guard let title = text("title") else { return nil }
            let message = text("message")
            switch fields["kind"]?.string {
            case "text":
                var maximumLength: Int?
                if let value = fields["maximumLength"], value != .null {
                    guard let length = value.integer, length > 0 else { return nil }
                    maximumLength = length
                }
                let kind = Question.Kind.text(
                    defaultText: text("default"), placeholder: text("placeholder"),
                    isSecret: fields["secret"] == .bool(true), maximumLength: maximumLength)
                return .ask(Question(ask: ask, title: title, message: message, kind: kind))
            case "choice":
                guard let titles = fields["buttons"]?.strings, !titles.isEmpty, titles.count <= buttonLimit,
                    let style = Self.style(named: fields["style"]?.string), style != .confirmation || titles.count == 2
                else { return nil }
                let roles = fields["roles"]?.strings ?? []
                let buttons = titles.enumerated().map { index, title in
                    WaitAlertButton(
                        String(title.prefix(textLimit)),
                        role: Self.role(named: index < roles.count ? roles[index] : nil))
                }
                return .ask(
                    Question(ask: ask, title: title, message: message, kind: .choice(buttons: buttons, style: style)))
            default: return nil
            }
        default: return nil
        }
    }

    private static func name(of style: WaitAlertChoicePrompt.Style) -> String {
        switch style {
        case .buttons: "buttons"
        case .list: "list"
        case .confirmation: "confirmation"
        }
    }

    private static func style(named name: String?) -> WaitAlertChoicePrompt.Style? {
        switch name {
        case nil, "buttons": .buttons
        case "list": .list
        case "confirmation": .confirmation
        default: nil
        }
    }

    private static func name(of role: WaitAlertButton.Role) -> String {
        switch role {
        case .normal: "normal"
        case .default: "default"
        case .cancel: "cancel"
        case .destructive: "destructive"
        }
    }

    private static func role(named name: String?) -> WaitAlertButton.Role {
        switch name {
        case "default": .default
        case "cancel": .cancel
        case "destructive": .destructive
        default: .normal
        }
    }
}

/// How a prompt looks on a terminal: its lines, cut to the width, and where its caret is — a pure
/// value the prompt's driver draws in one write. A long list keeps its window steady across
/// draws: the driver takes ``choice`` back after each.
@MainActor
struct PromptLayout {
    let prompt: WaitAlertPrompt
    let editor: LineEditor
    var choice: ChoiceState
    /// A note under the field about the last key (a paste or text that was cut).
    let notice: String?
    let colors: Bool

    /// The prompt's lines, cut to the width, and where the cursor goes (`nil`: hidden).
    mutating func lines(columns: Int, rows: Int) -> (lines: [String], cursor: (row: Int, column: Int)?) {
        let width = max(columns - 1, 4)
        func cut(_ text: String) -> String { DisplayWidth.truncate(TextSanitizer.line(text), toWidth: width) }
        func styled(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let title = styled("?", "36") + " " + cut(prompt.title)
        var lines = [title]
        switch prompt {
        case .text(let model):
            if let message = model.message { lines.append(styled(cut("  " + message), "2")) }
            let field = editor.display(width: max(width - 2, 1), secret: model.isSecret)
            if editor.text.isEmpty, let hint = model.defaultText ?? model.placeholder {
                lines.append("› " + styled(cut(hint), "2"))
            } else {
                lines.append("› " + field.text)
            }
            let fieldRow = lines.count - 1
            if let notice { lines.append(styled(cut("  " + notice), "2")) }
            if let validation = model.validationMessage { lines.append(styled(cut("  ✖ " + validation), "31")) }
            return (lines, (fieldRow, 2 + (editor.text.isEmpty ? 0 : field.cursorColumn)))
        case .choice(let model):
            if let message = model.message { lines.append(styled(cut("  " + message), "2")) }
            switch model.style {
            case .confirmation:
                // The hint always shows: the question gives way first (and the caret's cell).
                let hint = model.defaultIndex == 0 ? " (Y/n) " : " (y/N) "
                let question = DisplayWidth.truncate(
                    TextSanitizer.line(prompt.title), toWidth: max(width - 2 - hint.count - 1, 1))
                lines[0] = styled("?", "36") + " " + question + hint
                return (lines, (0, 2 + DisplayWidth.of(question) + hint.count))
            case .buttons, .list:
                let buttons = buttonRow(model)
                if model.style == .buttons, DisplayWidth.of(buttons.plain) <= width {
                    lines.append(buttons.styled)
                } else {
                    let height = max(rows - 1 - lines.count, 1)
                    for index in choice.window(height: height) {
                        let marker = index == choice.selected ? "❯" : " "
                        let text = cut("\(marker) \(index + 1). \(model.buttons[index].title)")
                        lines.append(index == choice.selected ? styled(text, "1") : text)
                    }
                }
                return (lines, nil)
            }
        }
    }

    /// The buttons side by side: `[ 1 Retry ]  2 Skip  3 Abort`, the selected one bracketed (and
    /// in reverse video with colours).
    private func buttonRow(_ model: WaitAlertChoicePrompt) -> (plain: String, styled: String) {
        var plain = " "
        var styled = " "
        for (index, button) in model.buttons.enumerated() {
            let label = "\(index + 1) " + TextSanitizer.line(button.title)
            let selected = index == choice.selected
            let text = selected ? "[ \(label) ]" : "  \(label)  "
            plain += text + " "
            let color = button.role == .destructive ? "31" : ""
            if selected, colors {
                styled += "\u{1B}[7\(color.isEmpty ? "" : ";" + color)m\(text)\u{1B}[0m "
            } else if colors, !color.isEmpty {
                styled += "\u{1B}[\(color)m\(text)\u{1B}[0m "
            } else {
                styled += text + " "
            }
        }
        return (plain, styled)
    }

    /// `line` with a caret — the cell at display column `column` in reverse video, or a reversed
    /// blank after the end — skipping the line's SGR sequences.
    nonisolated static func caret(in line: String, atColumn column: Int) -> String {
        var out = ""
        var cell = 0
        var characters = line[...]
        while let character = characters.first {
            characters = characters.dropFirst()
            if character == "\u{1B}" {
                // An SGR sequence: copied whole, no cell.
                out.append(character)
                while let next = characters.first {
                    characters = characters.dropFirst()
                    out.append(next)
                    if next.isLetter { break }
                }
                continue
            }
            if cell >= column {
                return out + "\u{1B}[7m" + String(character) + "\u{1B}[27m" + characters
            }
            out.append(character)
            cell += DisplayWidth.of(character)
        }
        return out + String(repeating: " ", count: max(column - cell, 0)) + "\u{1B}[7m \u{1B}[27m"
    }
}

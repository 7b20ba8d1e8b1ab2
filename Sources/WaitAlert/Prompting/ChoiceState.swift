/// The selection among a question's options, shown as a row of buttons or as a list.
///
/// Moving wraps around at both ends, except by pages. Keys choose:
///
/// - Enter chooses the selected option.
/// - A number chooses the option it numbers (from 1). With up to 9 options one digit chooses at
///   once. With more, a number that starts a larger valid number too (`1` among 12 options:
///   1, 10, 11, 12) only selects its option and waits for another digit, which extends it
///   (`1` then `2` chooses option 12); a number that starts no larger one chooses at once. `0`
///   first, or a number beyond the options, leaves the selection unchanged and starts over.
///   Any key other than a digit starts the number over.
/// - A letter chooses the option whose title starts with it, ignoring case and leading spaces,
///   when exactly one does; otherwise nothing happens.
/// - Escape and Ctrl-D choose the cancel option when there is one and cancel otherwise; Ctrl-C
///   interrupts.
package struct ChoiceState: Sendable {
    /// What a key did to the choice.
    package enum Choice: Sendable, Equatable {
        /// Nothing changed.
        case unchanged
        /// The selection moved: the options must be drawn again.
        case changed
        /// The option at this index is the answer.
        case choose(Int)
        /// The question is dismissed without an answer.
        case cancel
        /// Ctrl-C.
        case interrupt
    }

    /// The options' titles, in order.
    package let options: [String]

    /// The option chosen by Escape, or `nil` when Escape cancels.
    package let cancelIndex: Int?

    /// The selected option's index (0 when there are no options).
    package private(set) var selected: Int

    /// How many options Page Up and Page Down move by (at least 1 is used).
    package var pageSize = 10

    /// The first option shown by the last call to ``window(height:)``.
    package private(set) var offset = 0

    /// The number typed so far among more than 9 options, or 0.
    private var typedNumber = 0

    /// A choice among `options` with `defaultIndex` selected, clamped to the options, and
    /// `cancelIndex` chosen by Escape, ignored when it is not an option's index.
    package init(options: [String], defaultIndex: Int = 0, cancelIndex: Int? = nil) {
        self.options = options
        self.selected = min(max(0, defaultIndex), max(0, options.count - 1))
        self.cancelIndex = cancelIndex.flatMap { options.indices.contains($0) ? $0 : nil }
    }

    /// Applies a key and tells what it did.
    package mutating func apply(_ key: Key) -> Choice {
        let number = typedNumber
        typedNumber = 0
        switch key {
        case .escape, .endOfInput:
            return cancelIndex.map(Choice.choose) ?? .cancel
        case .interrupt:
            return .interrupt
        case _ where options.isEmpty:
            return .unchanged
        case .enter:
            return .choose(selected)
        case .left, .up, .backTab:
            return select((selected + options.count - 1) % options.count)
        case .right, .down, .tab:
            return select((selected + 1) % options.count)
        case .home:
            return select(0)
        case .end:
            return select(options.count - 1)
        case .pageUp:
            return select(max(0, selected - max(1, pageSize)))
        case .pageDown:
            return select(min(options.count - 1, selected + max(1, pageSize)))
        case .text(let typed) where typed.count == 1:
            let character = typed.first!
            if let digit = character.wholeNumberValue, character.isASCII {
                return type(digit, after: number)
            }
            return character.isLetter ? chooseByInitial(character) : .unchanged
        default:
            return .unchanged
        }
    }

    /// The range of options to show in a list of `height` rows.
    ///
    /// The window holds the selection. It stays where it was while the selection moves inside
    /// it, scrolls just enough to follow a selection that leaves it, and never extends past the
    /// last option when the options fill it. A `height` of 0 or less shows nothing.
    package mutating func window(height: Int) -> Range<Int> {
        let rows = min(max(0, height), options.count)
        guard rows > 0 else { return offset..<offset }
        if selected < offset { offset = selected }
        if selected >= offset + rows { offset = selected - rows + 1 }
        offset = min(offset, options.count - rows)
        return offset..<offset + rows
    }

    /// Selects an option, telling whether that moved the selection.
    private mutating func select(_ index: Int) -> Choice {
        guard index != selected else { return .unchanged }
        selected = index
        return .changed
    }

    /// Reads a digit typed after `number` (0 when none was typed).
    private mutating func type(_ digit: Int, after number: Int) -> Choice {
        let value = number * 10 + digit
        guard value > 0, value <= options.count else { return .unchanged }
        if value * 10 > options.count { return .choose(value - 1) }
        typedNumber = value
        selected = value - 1
        return .changed
    }

    /// Chooses the one option whose title starts with `letter`, ignoring case.
    private func chooseByInitial(_ letter: Character) -> Choice {
        let wanted = letter.lowercased()
        let matches = options.indices.filter { index in
            options[index].first(where: { !$0.isWhitespace }).map { $0.lowercased() == wanted } ?? false
        }
        return matches.count == 1 ? .choose(matches[0]) : .unchanged
    }
}

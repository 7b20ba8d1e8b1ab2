/// The lines an overlay shows at the bottom of a terminal, and the bytes that change them.
///
/// The overlay's lines sit one under the other; between writes the cursor rests on the first row
/// of the first of them — at its start, or just after a spinner glyph — so a terminal that
/// re-wraps lines when its window shrinks keeps the cursor above everything the overlay drew,
/// and one erase-below clears it all. Overlay lines are drawn with autowrap off (`CSI ?7l`, back
/// on with `CSI ?7h` in the same write): a line drawn at a width the window no longer has is cut
/// at the margin instead of wrapping onto a row the overlay does not know about, so no resize,
/// however fast, leaves a stale line. Lines printed above the overlay wrap as usual. Each method
/// returns the bytes for one `write`, or none when nothing changes on screen.
struct OverlayScreen {
    /// How a line is coloured.
    enum Style: Hashable {
        case plain, green, red, yellow, cyan
        /// A grey between black (0) and white (1), for fading out.
        case grey(level: Double)

        private var code: String? {
            switch self {
            case .plain: nil
            case .green: "32"
            case .red: "31"
            case .yellow: "33"
            case .cyan: "36"
            case .grey(let level): "38;5;\(232 + Int((min(max(level, 0), 1) * 23).rounded()))"
            }
        }

        /// `text` wrapped in this style's SGR sequence and a reset.
        func apply(to text: String) -> String {
            guard let code else { return text }
            return "\u{1B}[\(code)m\(text)\u{1B}[0m"
        }
    }

    /// What a line of the region shows: an alert's row, a step its parent planned (by position),
    /// the summary of the rows left out, the unfinished line of a captured stream (by
    /// descriptor), or a notice under the rows (how to quit while cancelled work goes on).
    enum Key: Hashable {
        case alert(WaitAlertID)
        case planned(WaitAlertID, Int)
        case summary
        case captured(Int32)
        case notice
    }

    /// One overlay line: an indent, a spinner glyph or icon, a text, a suffix kept at its end
    /// (counts, elapsed time), a style.
    struct Line: Hashable {
        var glyph: String?
        var text: String
        var style: Style
        /// Kept whole when the line is cut to the width: the text gives way first.
        var suffix: String = ""
        /// Nesting depth; two cells each.
        var indent: Int = 0
    }

    /// The terminal's width in cells. A new width has the next ``show(_:printingAbove:)`` erase
    /// and draw every line, at the height the region has then.
    var columns = 80 {
        didSet { if columns != oldValue, !lines.isEmpty { redrawsAll = true } }
    }
    private(set) var lines: [(key: Key, line: Line)] = []
    /// Whether the next show draws every line again, whatever changed.
    private var redrawsAll = false
    /// Whether the lines are no longer on screen (see ``markErased(cursorShown:)``).
    private var isErased = false
    /// Whether the overlay hid the cursor and has not shown it again.
    private var hidesCursor = false

    var isEmpty: Bool { lines.isEmpty }

    /// Shows `desired`, the region's lines from top to bottom, after printing `above` as lines that
    /// stay above it. Lines that stay in place are rewritten only where they changed (only the
    /// glyph when nothing else did), lines added at the bottom are drawn alone, and any other
    /// change erases the region and draws it again.
    ///
    /// - Returns: the bytes for one write, or none when nothing changes on screen.
    mutating func show(_ desired: [(key: Key, line: Line)], printingAbove above: [String] = []) -> [UInt8] {
        let wasEmpty = lines.isEmpty || isErased
        let redraws = redrawsAll || isErased
        redrawsAll = false
        isErased = false
        let current = lines.map(\.key)
        let keys = desired.map(\.key)
        if !redraws, above.isEmpty, keys == current {
            var out = ""
            var changed = 0
            for (index, entry) in desired.enumerated() where entry.line != lines[index].line {
                out += rewrite(index, from: lines[index].line, to: entry.line)
                changed += 1
            }
            lines = desired
            return Self.synchronized(out, when: changed > 1)
        }
        if !redraws, above.isEmpty, !wasEmpty, keys.count > current.count, Array(keys.prefix(current.count)) == current,
            zip(desired, lines).allSatisfy({ $0.line == $1.line })
        {
            var out = Self.autowrapOff + Self.down(lines.count - 1)
            for entry in desired[lines.count...] { out += "\r\n" + render(entry.line) + Self.eraseLine }
            out += Self.up(desired.count - 1) + "\r" + Self.autowrapOn
            let added = desired.count - lines.count
            lines = desired
            return Self.synchronized(out, when: added > 1)
        }
        lines = desired
        return relayout(printing: above, wasEmpty: wasEmpty)
    }

    /// The lines are no longer on screen (the program was stopped, which erased them and showed
    /// the cursor, and continued where the shell left the cursor; or the program's output was
    /// printed over them, `cursorShown` false): the next show draws every line from the cursor's
    /// line, as if new.
    mutating func markErased(cursorShown: Bool = true) {
        isErased = true
        if cursorShown { hidesCursor = false }
    }

    /// The bytes that turn line `index` from `old` into `new`, from and back to the region's first
    /// row: only the glyph when nothing else changed.
    private func rewrite(_ index: Int, from old: Line, to new: Line) -> String {
        var glyphOnly = old
        glyphOnly.glyph = new.glyph
        if glyphOnly == new, new.style == .plain, let glyph = new.glyph, let oldGlyph = old.glyph,
            case let width = DisplayWidth.of(glyph), width == DisplayWidth.of(oldGlyph),
            new.indent * 2 + width + 2 < columns
        {
            return Self.glyphRewrite(line: index, indent: new.indent, glyph: glyph)
        }
        let line = "\r" + render(new) + Self.eraseLine
        return Self.autowrapOff
            + (index == 0 ? line + "\r" : Self.saveCursor + Self.down(index) + line + Self.restoreCursor)
            + Self.autowrapOn
    }

    /// The bytes that write `glyph` over the glyph of line `line`, from and back to the region's
    /// first row.
    static func glyphRewrite(line: Int, indent: Int, glyph: String) -> String {
        let across = indent > 0 ? "\u{1B}[\(indent * 2)C" : ""
        return line == 0
            ? "\r" + across + glyph  // the cursor stays on the first row
            : saveCursor + down(line) + "\r" + across + glyph + restoreCursor
    }

    /// Whether line `index`'s glyph can be turned by glyph-only rewrites through frames that
    /// are all `frameWidth` wide (`nil`: they differ): a plain line whose glyph has that width,
    /// and room for it.
    func turnsGlyph(ofLine index: Int, throughFramesOfWidth frameWidth: Int?) -> Bool {
        guard let frameWidth, lines.indices.contains(index), !isErased, !redrawsAll else { return false }
        let line = lines[index].line
        guard line.style == .plain, let glyph = line.glyph else { return false }
        return line.indent * 2 + frameWidth + 2 < columns && DisplayWidth.of(glyph) == frameWidth
    }

    /// Takes the glyphs something else wrote over the lines since (by line), so the next show
    /// compares with what is on screen.
    mutating func adoptGlyphs(_ glyphs: [Int: String]) {
        for (index, glyph) in glyphs where lines.indices.contains(index) && lines[index].line.glyph != nil {
            lines[index].line.glyph = glyph
        }
    }

    private mutating func relayout(printing above: [String], wasEmpty: Bool) -> [UInt8] {
        var out = wasEmpty ? "" : "\r" + Self.eraseFromCursorRow
        for text in above { out += text + "\r\n" }
        if !lines.isEmpty { out += Self.autowrapOff }
        for (index, entry) in lines.enumerated() {
            if index > 0 { out += "\r\n" }
            out += "\r" + render(entry.line) + Self.eraseLine
        }
        if !lines.isEmpty { out += Self.up(lines.count - 1) + "\r" + Self.autowrapOn }
        if lines.isEmpty, hidesCursor || !wasEmpty { out += Self.showCursor }
        if !lines.isEmpty, !hidesCursor || wasEmpty { out = Self.hideCursor + out }
        hidesCursor = !lines.isEmpty
        return Self.synchronized(out, when: above.count + lines.count > 1)
    }

    /// `out` as one synchronized update (mode 2026) when it changes more than one line: a
    /// terminal that supports it shows the frame whole or not at all, never half drawn; others
    /// ignore the mode.
    static func synchronized(_ out: String, when changesSeveralLines: Bool) -> [UInt8] {
        guard changesSeveralLines, !out.isEmpty else { return Array(out.utf8) }
        return Array((beginSynchronized + out + endSynchronized).utf8)
    }

    static let beginSynchronized = "\u{1B}[?2026h"
    static let endSynchronized = "\u{1B}[?2026l"

    /// The line's content, cut to one cell less than the width so the terminal never wraps it:
    /// the indent, the glyph, then the text cut so that the suffix and the text's own trailing
    /// count ("12/40", "45%") survive.
    private func render(_ line: Line) -> String {
        let available = max(columns - 1, 1)
        let indent = String(repeating: " ", count: min(line.indent * 2, max(available - 2, 0)))
        var room = available - indent.count
        var content = indent
        if let glyph = line.glyph {
            let glyphWidth = DisplayWidth.of(glyph)
            guard room > glyphWidth + 1 else {
                return line.style.apply(to: content + DisplayWidth.truncate(glyph, toWidth: room))
            }
            content += glyph + " "
            room -= glyphWidth + 1
        }
        let suffixWidth = DisplayWidth.of(line.suffix)
        if suffixWidth < room - 1 {
            content += DisplayWidth.truncateKeepingEnd(line.text, toWidth: room - suffixWidth) + line.suffix
        } else {
            content += DisplayWidth.truncate(line.text + line.suffix, toWidth: room)
        }
        return line.style.apply(to: content)
    }

    /// Saving the cursor and going back to it: a row below the first is reached and left without
    /// counting rows back up, so a window made shorter meanwhile (which may delete the rows below
    /// the cursor, as tmux does) cannot send the cursor above the region.
    static let saveCursor = "\u{1B}7"
    static let restoreCursor = "\u{1B}8"
    static let eraseLine = "\u{1B}[K"
    /// Erases the cursor's row and every row below, without an erase-below issued at the top-left
    /// corner (which tmux takes for a clear screen, and copies the whole screen into its
    /// history): the row first, then, from the row below, the rest.
    static let eraseFromCursorRow = "\u{1B}[2K" + saveCursor + "\u{1B}[B" + eraseBelow + restoreCursor
    static let eraseBelow = "\u{1B}[J"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let autowrapOff = "\u{1B}[?7l"
    static let autowrapOn = "\u{1B}[?7h"
    static func down(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)B" : "" }
    static func up(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)A" : "" }
}

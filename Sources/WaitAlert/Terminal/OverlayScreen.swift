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
        case plain, green, red, yellow
        /// A grey between black (0) and white (1), for fading out.
        case grey(level: Double)

        private var code: String? {
            switch self {
            case .plain: nil
            case .green: "32"
            case .red: "31"
            case .yellow: "33"
            case .grey(let level): "38;5;\(232 + Int((min(max(level, 0), 1) * 23).rounded()))"
            }
        }

        /// `text` wrapped in this style's SGR sequence and a reset.
        func apply(to text: String) -> String {
            guard let code else { return text }
            return "\u{1B}[\(code)m\(text)\u{1B}[0m"
        }
    }

    /// One overlay line: a spinner glyph or icon, a text, a style.
    struct Line: Hashable {
        var glyph: String?
        var text: String
        var style: Style
    }

    /// The terminal's width in cells.
    var columns = 80
    private var lines: [(id: WaitAlertID, line: Line)] = []

    var isEmpty: Bool { lines.isEmpty }

    func contains(_ id: WaitAlertID) -> Bool { lines.contains { $0.id == id } }

    /// Shows `line` for alert `id`: appended under the others if new, else rewritten in place —
    /// only the glyph when nothing else changed.
    mutating func update(_ id: WaitAlertID, to line: Line) -> [UInt8] {
        guard let index = lines.firstIndex(where: { $0.id == id }) else {
            return append(id, line)
        }
        let old = lines[index].line
        guard old != line else { return [] }
        lines[index].line = line
        var out = Self.down(index)
        if old.text == line.text, old.style == line.style, line.style == .plain,
            let glyph = line.glyph, let oldGlyph = old.glyph,
            case let width = DisplayWidth.of(glyph), width == DisplayWidth.of(oldGlyph), width + 2 < columns
        {
            out += "\r" + glyph + Self.up(index)  // the cursor stays on the line's first row
        } else {
            out =
                Self.autowrapOff + out + "\r" + render(line) + Self.eraseLine + Self.up(index) + "\r" + Self.autowrapOn
        }
        return Array(out.utf8)
    }

    /// Removes alert `id`'s line and prints `above` as lines that stay above the overlay.
    mutating func remove(_ id: WaitAlertID, printingAbove above: [String]) -> [UInt8] {
        let wasEmpty = lines.isEmpty
        lines.removeAll { $0.id == id }
        return relayout(printing: above, wasEmpty: wasEmpty)
    }

    /// Prints `above` as lines that stay above the overlay, then redraws it.
    mutating func print(_ above: [String]) -> [UInt8] {
        relayout(printing: above, wasEmpty: lines.isEmpty)
    }

    /// Erases and redraws every line (after the terminal's width changed).
    mutating func redraw() -> [UInt8] {
        lines.isEmpty ? [] : relayout(printing: [], wasEmpty: false)
    }

    /// Draws every line again from the cursor's line, as if new: after the program was stopped
    /// (its lines erased) and continued where the shell left the cursor.
    mutating func drawAfresh() -> [UInt8] {
        relayout(printing: [], wasEmpty: true)
    }

    private mutating func append(_ id: WaitAlertID, _ line: Line) -> [UInt8] {
        var out: String
        if lines.isEmpty {
            out = Self.hideCursor + Self.autowrapOff + "\r" + render(line) + Self.eraseLine + "\r"
        } else {
            out =
                Self.autowrapOff + Self.down(lines.count - 1) + "\r\n" + render(line) + Self.eraseLine
                + Self.up(lines.count) + "\r"
        }
        out += Self.autowrapOn
        lines.append((id, line))
        return Array(out.utf8)
    }

    private func relayout(printing above: [String], wasEmpty: Bool) -> [UInt8] {
        var out = wasEmpty ? "" : "\r" + Self.eraseBelow
        for text in above { out += text + "\r\n" }
        if !lines.isEmpty { out += Self.autowrapOff }
        for (index, entry) in lines.enumerated() {
            if index > 0 { out += "\r\n" }
            out += "\r" + render(entry.line) + Self.eraseLine
        }
        if !lines.isEmpty { out += Self.up(lines.count - 1) + "\r" + Self.autowrapOn }
        if lines.isEmpty, !wasEmpty { out += Self.showCursor }
        if wasEmpty, !lines.isEmpty { out = Self.hideCursor + out }
        return Array(out.utf8)
    }

    /// The line's content, cut to one cell less than the width so the terminal never wraps it.
    private func render(_ line: Line) -> String {
        let available = max(columns - 1, 1)
        let content: String
        if let glyph = line.glyph {
            let textWidth = available - DisplayWidth.of(glyph) - 1
            content =
                textWidth > 0
                ? glyph + " " + DisplayWidth.truncate(line.text, toWidth: textWidth)
                : DisplayWidth.truncate(glyph, toWidth: available)
        } else {
            content = DisplayWidth.truncate(line.text, toWidth: available)
        }
        return line.style.apply(to: content)
    }

    static let eraseLine = "\u{1B}[K"
    static let eraseBelow = "\u{1B}[J"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let autowrapOff = "\u{1B}[?7l"
    static let autowrapOn = "\u{1B}[?7h"
    static func down(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)B" : "" }
    static func up(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)A" : "" }
}

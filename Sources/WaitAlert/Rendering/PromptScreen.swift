/// What a question drawn on the terminal has on screen, and the bytes that draw it, erase it and
/// replace it with its record line: the question's counterpart of ``OverlayScreen``, pure, so
/// every frame can be checked without a terminal.
///
/// Lines printed above the question (the program's output, log lines) go out in the same write,
/// before it is drawn again under them. The cursor rests on the question's first row, at its
/// start, as the region's does: a terminal that re-wraps lines when the window narrows keeps it
/// above every line of the question, so the next draw erases them all. The text field shows a
/// caret of its own (``PromptLayout``).
struct PromptScreen: Equatable {
    /// The rows the question takes on screen; 0 when nothing of it is drawn.
    private(set) var rows = 0

    /// Whether any of the question is on screen.
    var isDrawn: Bool { rows > 0 }

    /// Someone else erased the question (the relay printed over it; a stop): nothing of it is on
    /// screen, and the next draw draws every line.
    mutating func markErased() {
        rows = 0
    }

    /// Prints `above` over the question and draws `lines` (the caret already in them) under it,
    /// in one synchronized update.
    mutating func show(_ lines: [String], printingAbove above: [String] = []) -> [UInt8] {
        var out = OverlayScreen.beginSynchronized + erasing() + printing(above)
        out += OverlayScreen.autowrapOff + OverlayScreen.hideCursor
        out += lines.map { "\r" + $0 + OverlayScreen.eraseLine }.joined(separator: "\r\n")
        out += OverlayScreen.up(lines.count - 1) + "\r" + OverlayScreen.autowrapOn
        out += OverlayScreen.endSynchronized
        rows = lines.count
        return Array(out.utf8)
    }

    /// Erases the question (a stop: the terminal is given back).
    mutating func erase() -> [UInt8] {
        defer { rows = 0 }
        return Array(erasing().utf8)
    }

    /// Erases the question for good, turns bracketed paste off and shows the cursor, then prints
    /// `above` and the question's `record` line (`? Name of the new project: demo`; none when
    /// empty).
    mutating func end(printingAbove above: [String], record: String) -> [UInt8] {
        var out = erasing() + Self.endPaste + OverlayScreen.showCursor + printing(above)
        if !record.isEmpty { out += TextSanitizer.line(record) + "\r\n" }
        rows = 0
        return Array(out.utf8)
    }

    /// Turns bracketed paste on: a paste reaches the question as one key.
    static let beginPaste = "\u{1B}[?2004h"
    /// Turns bracketed paste off.
    static let endPaste = "\u{1B}[?2004l"

    /// Back to the question's first row, erasing it and everything under it.
    private func erasing() -> String {
        rows > 0 ? "\r" + OverlayScreen.eraseFromCursorRow : ""
    }

    private func printing(_ lines: [String]) -> String {
        lines.map { "\r" + $0 + OverlayScreen.eraseLine + "\r\n" }.joined()
    }
}

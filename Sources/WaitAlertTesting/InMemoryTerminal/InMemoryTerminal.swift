import Synchronization
public import Testing
public import WaitAlert

/// A terminal that keeps its screen in memory, for asserting on what a user would see.
///
/// `InMemoryTerminal` interprets the bytes written to it like a terminal emulator, so tests can check
/// the resulting screen (``lines``, ``screen``, ``cursor``) instead of comparing raw escape sequences.
/// It understands the subset of VT100/ANSI that a one-line overlay needs:
///
/// - Printable text, placed one grapheme cluster at a time. A cluster takes as many cells as its display
///   width; a wide character occupies its cell and a continuation cell, and overwriting either half blanks
///   the other. A zero-width cluster joins the cell before the cursor.
/// - Autowrap as in xterm: writing into the last column leaves the cursor there with a pending wrap, and the
///   next printable character goes to the start of the following line.
/// - The controls CR, LF, BS, TAB and BEL. LF moves to the start of the next line, as it does behind a tty
///   that translates LF to CR LF (the default output processing); VT and FF act like LF.
/// - The control sequences `CSI K` and `CSI J` (erase, modes 0, 1 and 2), `CSI A`/`B`/`C`/`D` (relative cursor
///   motion), `CSI G` and `CSI H`/`f` (absolute cursor position), `CSI ?25 l/h` (cursor visibility), `CSI ?2004 h/l` (bracketed paste),
///   `CSI ?7 l/h` (autowrap), `CSI m` (text style, tracked by ``isStyled`` only), `CSI s`/`u` and
///   `ESC 7`/`ESC 8` (save and restore the cursor).
///
/// Any other escape sequence, control string or control character is ignored and recorded in
/// ``unknownSequences``, so a test can assert that a renderer emitted nothing unexpected. Bytes are decoded as
/// UTF-8 (invalid bytes become U+FFFD), and both characters and escape sequences may be split across writes.
///
/// The screen has a fixed number of rows; a line feed on the bottom row scrolls the screen, moving its top
/// line into ``scrollback``. ``resize(columns:rows:)`` either cuts lines to the new width, as xterm does, or
/// re-wraps them, as tmux and VTE do, depending on `reflowsOnResize`.
///
/// ``checkInvariants(_:)`` has every later write checked against the rules of a live region drawn under
/// committed output (see ``Invariants``), and ``invariantViolations`` lists what broke them.
///
/// All members are thread-safe.
public final class InMemoryTerminal: WaitAlertTerminal {
    let state: Mutex<TerminalState>

    /// Whether the terminal reports itself as interactive.
    ///
    /// The terminal interprets escape sequences either way; a test of non-interactive output can assert that
    /// ``output`` contains no escape byte.
    public let isInteractive: Bool

    /// Whether ``resize(columns:rows:)`` re-wraps lines that no longer fit instead of cutting them.
    public let reflowsOnResize: Bool

    /// Creates a blank terminal with the cursor at the top-left corner.
    ///
    /// - Parameters:
    ///   - columns: The width of the screen in cells; at least 1.
    ///   - rows: The height of the screen in lines; at least 1.
    ///   - isInteractive: The value of ``isInteractive``.
    ///   - reflowsOnResize: Whether resizing re-wraps lines (tmux, VTE) instead of cutting them (xterm).
    public init(columns: Int = 80, rows: Int = 24, isInteractive: Bool = true, reflowsOnResize: Bool = false) {
        precondition(columns >= 1 && rows >= 1, "InMemoryTerminal needs at least one column and one row")
        self.state = Mutex(TerminalState(columns: columns, rows: rows))
        self.isInteractive = isInteractive
        self.reflowsOnResize = reflowsOnResize
    }

    /// The current width of the screen in cells; never `nil`.
    public var columns: Int? {
        state.withLock { $0.screen.columns }
    }

    /// The current height of the screen in lines; never `nil`.
    public var rows: Int? {
        state.withLock { $0.screen.rows }
    }

    /// Interprets `bytes` and applies them to the screen.
    ///
    /// - Returns: `true`, or `false` after ``close()``, in which case nothing is applied or counted.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.bytesWritten += bytes.count
            state.writeCount += 1
            state.output += bytes
            state.screen.trace = FrameTrace()
            for byte in bytes {
                state.parser.advance(byte, performer: &state.screen)
            }
            state.checker?.check(write: bytes, screen: state.screen)
            return true
        }
    }

    /// Whether the program runs in the terminal's foreground; set it to `false` to test what a
    /// renderer does as a background job (`bg`), and back to `true` for `fg`.
    public var isForeground: Bool {
        get { state.withLock { $0.isForeground } }
        set { state.withLock { $0.isForeground = newValue } }
    }

    /// Makes every later write fail, as a closed pipe does.
    public func close() {
        state.withLock { $0.isClosed = true }
    }

    /// The screen's lines from top to bottom, without trailing spaces and without trailing empty lines.
    public var lines: [String] {
        state.withLock { $0.screen.visibleLines }
    }

    /// ``lines`` joined with newlines.
    public var screen: String {
        lines.joined(separator: "\n")
    }

    /// The lines scrolled off the top of the screen, oldest first, without trailing spaces.
    public var scrollback: [String] {
        state.withLock { $0.screen.scrollback }
    }

    /// Everything still printed: ``scrollback`` followed by ``lines``.
    public var transcript: [String] {
        state.withLock { $0.screen.scrollback + $0.screen.visibleLines }
    }

    /// The cursor position, 0-based; the column is the last one while a wrap is pending.
    public var cursor: (row: Int, column: Int) {
        state.withLock { ($0.screen.cursorRow, $0.screen.cursorColumn) }
    }

    /// Whether the cursor is shown; `CSI ?25l` hides it and `CSI ?25h` shows it again.
    public var isCursorVisible: Bool {
        state.withLock { $0.screen.isCursorVisible }
    }

    /// Whether bracketed paste (`CSI ?2004h`, set while a prompt reads the keyboard) is on.
    public var isPasteBracketed: Bool {
        state.withLock { $0.screen.isPasteBracketed }
    }

    /// Whether a synchronized update (`CSI ?2026h`) is open: a frame begun and not ended.
    public var isInSynchronizedUpdate: Bool {
        state.withLock { $0.screen.isSynchronizing }
    }

    /// What the terminal's tab or taskbar shows, from the latest `OSC 9;4` (also listed in
    /// ``unknownSequences``, since it changes nothing on screen).
    public var taskbar: TaskbarState {
        state.withLock { $0.screen.taskbar }
    }

    /// How many `OSC 9;4` sequences were written.
    public var taskbarUpdates: Int {
        state.withLock { $0.screen.taskbarUpdates }
    }

    /// A taskbar progress state, as `OSC 9;4;state;value` sets it.
    public enum TaskbarState: Sendable, Hashable {
        case cleared
        case percent(Int)
        case error(Int)
        case indeterminate
        case paused(Int)

        /// The state an `ESC ] 9;4;state;value` sequence (ended by `ESC \` or BEL) sets, or `nil`
        /// for any other sequence.
        init?(sequence bytes: [UInt8]) {
            var text = String(decoding: bytes, as: UTF8.self)
            guard text.hasPrefix("\u{1B}]9;4;") else { return nil }
            text.removeFirst("\u{1B}]9;4;".count)
            if text.hasSuffix("\u{1B}\\") { text.removeLast(2) } else if text.hasSuffix("\u{07}") { text.removeLast() }
            let fields = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            let value = fields.count > 1 ? fields[1] ?? 0 : 0
            switch fields.first ?? nil {
            case 0: self = .cleared
            case 1: self = .percent(value)
            case 2: self = .error(value)
            case 3: self = .indeterminate
            case 4: self = .paused(value)
            default: return nil
            }
        }
    }

    /// How many synchronized updates (`CSI ?2026h … CSI ?2026l`) have begun.
    public var synchronizedUpdates: Int {
        state.withLock { $0.screen.synchronizedUpdates }
    }

    /// Whether any text style (bold, color, inverse, and so on) set with `CSI m` is still in effect.
    public var isStyled: Bool {
        state.withLock { !$0.screen.style.isEmpty }
    }

    /// The number of BEL characters received.
    public var bellCount: Int {
        state.withLock { $0.screen.bellCount }
    }

    /// The number of bytes accepted since creation or the last ``resetCounters()``.
    public var bytesWritten: Int {
        state.withLock { $0.bytesWritten }
    }

    /// The number of accepted calls to ``write(_:)`` since creation or the last ``resetCounters()``.
    public var writeCount: Int {
        state.withLock { $0.writeCount }
    }

    /// The bytes accepted since creation or the last ``resetCounters()``, in order.
    public var output: [UInt8] {
        state.withLock { $0.output }
    }

    /// The escape sequences, control strings and control characters that the terminal ignored, in order.
    ///
    /// Each entry is the complete sequence as received, including its leading ESC.
    public var unknownSequences: [String] {
        state.withLock { $0.screen.unknownSequences }
    }

    /// Changes the size of the screen, as when the user resizes the window.
    ///
    /// Without reflow, every line is cut or padded to the new width and the cursor column is clamped. With
    /// reflow, lines joined by autowrap are joined again and every line is wrapped to the new width; the cursor
    /// stays on the cell it was on. Only the screen is reflowed, not ``scrollback``.
    ///
    /// When the screen gets shorter, empty lines below the cursor are dropped first, then lines above the cursor
    /// move to ``scrollback``, and only then are lines below the cursor cut off, so the cursor stays on screen.
    /// When it gets taller, empty lines are added at the bottom.
    ///
    /// - Parameters:
    ///   - columns: The new width in cells; at least 1.
    ///   - rows: The new height in lines, or `nil` to keep the current height.
    public func resize(columns: Int, rows: Int? = nil) {
        precondition(columns >= 1 && (rows ?? 1) >= 1, "InMemoryTerminal needs at least one column and one row")
        state.withLock { state in
            state.screen.resize(columns: columns, rows: rows ?? state.screen.rows, reflow: reflowsOnResize)
            state.checker?.rebase(on: state.screen)
        }
    }

    /// Sets ``bytesWritten``, ``writeCount`` and ``bellCount`` to zero and empties ``output``.
    ///
    /// The screen, the cursor and ``unknownSequences`` are kept, so a test can measure what one step costs.
    public func resetCounters() {
        state.withLock { state in
            state.bytesWritten = 0
            state.writeCount = 0
            state.output = []
            state.screen.bellCount = 0
        }
    }
}

extension InMemoryTerminal: CustomStringConvertible {
    /// The size, the cursor and the screen framed by `|`, with a `^` under the cursor's cell.
    ///
    /// Lines below both the last non-empty line and the cursor are left out.
    public var description: String {
        state.withLock { state in
            let screen = state.screen
            var header = "InMemoryTerminal \(screen.columns)x\(screen.rows)"
            header += ", cursor \(screen.cursorRow):\(screen.cursorColumn)"
            if !screen.isCursorVisible { header += " (hidden)" }
            if !screen.scrollback.isEmpty { header += ", \(screen.scrollback.count) lines of scrollback" }
            var result = [header]
            let lines = screen.visibleLines
            for row in 0..<max(lines.count, screen.cursorRow + 1) {
                result.append("|" + (row < lines.count ? lines[row] : ""))
                if row == screen.cursorRow {
                    result.append(" " + String(repeating: " ", count: screen.cursorColumn) + "^")
                }
            }
            return result.joined(separator: "\n")
        }
    }
}

extension InMemoryTerminal: CustomTestStringConvertible {
    /// The framed screen (see ``description``), so a failing expectation shows what a user would
    /// have seen.
    public var testDescription: String { description }
}

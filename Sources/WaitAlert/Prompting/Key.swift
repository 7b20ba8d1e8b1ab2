/// A key press or editing command read from a terminal in raw mode, as ``KeyParser`` decodes it.
package enum Key: Sendable, Equatable {
    /// Printable text typed at the keyboard: one or more characters, never a control or part of
    /// an escape sequence. Characters typed in quick succession may arrive as one `text`.
    case text(String)
    /// Return or Enter (CR or LF; CR LF counts once).
    case enter
    /// The Escape key alone.
    case escape
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace (DEL or BS).
    case backspace
    /// Forward delete.
    case delete
    /// Left arrow or Ctrl-B.
    case left
    /// Right arrow or Ctrl-F.
    case right
    /// Up arrow.
    case up
    /// Down arrow.
    case down
    /// Home or Ctrl-A.
    case home
    /// End or Ctrl-E.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// One word to the left: Ctrl- or Alt-Left, or Alt-B.
    case wordLeft
    /// One word to the right: Ctrl- or Alt-Right, or Alt-F.
    case wordRight
    /// Delete from the cursor to the start of the line (Ctrl-U).
    case killToStart
    /// Delete the word before the cursor (Ctrl-W or Alt-Backspace).
    case killWordBefore
    /// Delete from the cursor to the end of the line (Ctrl-K).
    case killToEnd
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// Ctrl-Z.
    case suspend
    /// Text pasted while bracketed paste mode is on, exactly as the terminal sent it: it may hold
    /// line breaks, controls and escape sequences, so it must be cleaned before it is shown.
    case paste(String)
    /// The bracketed paste that just ended was longer than ``KeyParser/maximumPasteBytes``: only
    /// its start came as ``paste(_:)``, the rest was dropped.
    case pasteCut
}

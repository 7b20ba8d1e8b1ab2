extension TextSanitizer {
    /// Whether `text` leaves anything visible once sanitized as a text is for a line
    /// (``line(_:)``): `false` for an empty or blank text, and for one made only of control
    /// characters and escape sequences (`"\u{1B}[0m"`, a colour reset written alone on a line).
    package static func showsSomething(_ text: String) -> Bool {
        line(text).contains { !$0.isWhitespace }
    }
}

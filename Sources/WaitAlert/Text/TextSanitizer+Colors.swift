extension TextSanitizer {
    /// A line of a program's own output made safe to print above an overlay, keeping its colours.
    ///
    /// Select Graphic Rendition sequences (`ESC [` digits, `;` and `:` then `m`) are kept, and a
    /// reset is added at the end when there was one, so a colour never leaks into the overlay;
    /// everything else is cleaned as by ``line(_:)``: cursor movements, erases, titles, controls.
    package static func keepingColors(_ text: String) -> String {
        guard text.utf8.contains(0x1B) else { return line(text) }
        return cleaned(text, keepingColors: true)
    }
}

extension TextSanitizer {
    /// A line of a program's own output made safe to print above an overlay, keeping its colours.
    ///
    /// Select Graphic Rendition sequences (`ESC [` digits, `;` and `:` then `m`) are kept, and a
    /// reset is added at the end when there was one, so a colour never leaks into the overlay;
    /// everything else is cleaned as by ``line(_:)``: cursor movements, erases, titles, controls.
    package static func keepingColors(_ text: String) -> String {
        guard text.utf8.contains(0x1B) else { return line(text) }
        var output = ""
        var plain = Substring.UnicodeScalarView()
        var keptStyle = false
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if let end = selectGraphicRenditionEnd(in: scalars, from: index) {
                output += line(String(plain))
                plain.removeAll()
                output += String(scalars[index..<end])
                keptStyle = true
                index = end
            } else {
                plain.append(scalars[index])
                scalars.formIndex(after: &index)
            }
        }
        output += line(String(plain))
        return keptStyle ? output + "\u{1B}[0m" : output
    }

    /// The end of the SGR sequence starting at `start`, if one does.
    private static func selectGraphicRenditionEnd(
        in scalars: String.UnicodeScalarView, from start: String.UnicodeScalarView.Index
    ) -> String.UnicodeScalarView.Index? {
        guard scalars[start] == "\u{1B}" else { return nil }
        var index = scalars.index(after: start)
        guard index < scalars.endIndex, scalars[index] == "[" else { return nil }
        scalars.formIndex(after: &index)
        while index < scalars.endIndex {
            switch scalars[index] {
            case "0"..."9", ";", ":": scalars.formIndex(after: &index)
            case "m": return scalars.index(after: index)
            default: return nil
            }
        }
        return nil
    }
}

/// The number of terminal cells text occupies, and cutting text to a number of cells.
///
/// A grapheme cluster takes 0, 1 or 2 cells. Its base — the first scalar that is not
/// zero-width — decides: East Asian Wide and Fullwidth characters (``wideRanges``) and
/// characters with emoji presentation take 2 cells, controls, combining marks (Mn, Me),
/// format characters (Cf, such as the zero-width joiner), line and paragraph separators and
/// Hangul medial vowels and final consonants take 0, everything else takes 1. A cluster whose
/// base is an emoji also takes 2 cells when it asks for emoji presentation with U+FE0F, carries a
/// skin-tone modifier or joins another emoji with U+200D, so keycaps, flags, skin tones and ZWJ
/// families count as one 2-cell cluster. East Asian Ambiguous characters count as 1 cell.
package enum DisplayWidth {
    /// Cells a grapheme cluster occupies in a terminal: 0, 1 or 2.
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var index = scalars.startIndex
        var width = 0
        while index < scalars.endIndex, width == 0 {
            width = cells(scalars[index])
            scalars.formIndex(after: &index)
        }
        guard width == 1, index < scalars.endIndex,
            scalars[scalars.index(before: index)].properties.isEmoji
        else { return width }
        var afterJoiner = false
        for scalar in scalars[index...] {
            let properties = scalar.properties
            if scalar == "\u{FE0F}" || properties.isEmojiModifier || (afterJoiner && properties.isEmoji) {
                return 2
            }
            afterJoiner = scalar == "\u{200D}"
        }
        return 1
    }

    /// Cells a string occupies (sum over its grapheme clusters).
    package static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy(isPrintableASCII) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// `text` cut to at most `width` cells, never splitting a grapheme cluster.
    ///
    /// When the text does not fit, the result is the longest prefix that fits in `width - 1`
    /// cells followed by "…" (1 cell). Text that fits is returned unchanged; a `width` of 0 or
    /// less gives "".
    package static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if text.utf8.allSatisfy(isPrintableASCII) {
            guard text.utf8.count > width else { return text }
            return String(decoding: text.utf8.prefix(width - 1), as: UTF8.self) + "…"
        }
        var used = 0
        var cut = text.startIndex  // End of the longest prefix that leaves room for "…".
        var index = text.startIndex
        while index < text.endIndex {
            used += of(text[index])
            if used > width { return String(text[..<cut]) + "…" }
            text.formIndex(after: &index)
            if used < width { cut = index }
        }
        return text
    }

    /// `text` cut to `width` cells like ``truncate(_:toWidth:)``, except that a count at its end
    /// survives: when the last word holds a digit ("12/40", "45%", "3.2s") and takes at most half
    /// the width, the cut falls before it — `Compiling SomeVeryLongTa… 12/40`.
    package static func truncateKeepingEnd(_ text: String, toWidth width: Int) -> String {
        guard of(text) > width else { return text }
        guard let space = text.lastIndex(of: " ") else { return truncate(text, toWidth: width) }
        let last = text[text.index(after: space)...]
        let lastWidth = of(String(last))
        guard last.contains(where: \.isNumber), lastWidth * 2 <= width, lastWidth + 2 < width else {
            return truncate(text, toWidth: width)
        }
        return truncate(String(text[..<space]), toWidth: width - lastWidth - 1) + " " + last
    }

    /// Whether a UTF-8 byte is a printable ASCII character, which is always one 1-cell cluster.
    private static func isPrintableASCII(_ byte: UInt8) -> Bool {
        byte &- 0x20 < 0x5F
    }

    /// Cells a single scalar occupies when it is the base of a cluster.
    private static func cells(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return value == 0xAD ? 0 : 1 }
        if isZeroWidth(scalar) { return 0 }
        if isWide(value) { return 2 }
        if value >= 0x231A, scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Whether a scalar draws nothing by itself.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF: return true  // Hangul jungseong and jongseong.
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }

    /// Whether a code point is East Asian Wide or Fullwidth, by binary search in ``wideRanges``.
    private static func isWide(_ value: UInt32) -> Bool {
        let ranges = wideRanges
        guard let first = ranges.first, let last = ranges.last,
            value >= first.lowerBound, value <= last.upperBound
        else { return false }
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if value < ranges[middle].lowerBound {
                high = middle
            } else if value > ranges[middle].upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}

/// JSON text (RFC 8259) for the event stream: strings quoted and escaped, seconds as decimals.
enum JSONText {
    /// `text` as a JSON string, quotes included: `"`, `\` and every control character (C0, DEL and
    /// C1) escaped, everything else as it is (the stream is UTF-8).
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `duration` in seconds with millisecond precision and no exponent: `0.412`, `12.000`,
    /// `-0.005`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        var milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        // Round half away from zero on the first dropped digit.
        let rest = attoseconds % 1_000_000_000_000_000
        if rest >= 500_000_000_000_000 { milliseconds += 1 } else if rest <= -500_000_000_000_000 { milliseconds -= 1 }
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = milliseconds.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

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

extension JSONText {
    /// The largest whole number read as one: below 2⁵³, so every whole number up to it is exact
    /// as a double.
    static let largestInteger = 8_999_999_999_999_999

    /// A value in a JSON object's field, as the event stream reads it: strings, numbers, `true`,
    /// `false`, `null` and arrays of them; objects inside are read (so the line stays valid) but
    /// not kept.
    enum Value: Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case array([Value])
        case nested

        /// The value as a whole number, when it is one that fits.
        var integer: Int? {
            guard case .number(let number) = self, number.rounded() == number,
                abs(number) <= Double(JSONText.largestInteger)
            else { return nil }
            return Int(number)
        }

        var string: String? {
            if case .string(let text) = self { text } else { nil }
        }

        /// The value as an array of strings, when it is one.
        var strings: [String]? {
            guard case .array(let values) = self else { return nil }
            var strings: [String] = []
            for value in values {
                guard let text = value.string else { return nil }
                strings.append(text)
            }
            return strings
        }
    }

    /// The fields of `line`, one JSON object, or `nil` when it is not one (RFC 8259, with nesting
    /// at most 16 deep). A field that comes twice keeps its last value.
    static func object(_ line: String) -> [String: Value]? {
        var reader = Reader(bytes: Array(line.utf8))
        reader.skipWhitespace()
        guard let fields = reader.object(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.isAtEnd ? fields : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func object(depth: Int) -> [String: Value]? {
            guard depth < 16, take(UInt8(ascii: "{")) else { return nil }
            var fields: [String: Value] = [:]
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return fields }
            while true {
                skipWhitespace()
                guard let name = string() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value(depth: depth) else { return nil }
                fields[name] = value
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}")) ? fields : nil
            }
        }

        mutating func array(depth: Int) -> [Value]? {
            guard depth < 16, take(UInt8(ascii: "[")) else { return nil }
            var values: [Value] = []
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return values }
            while true {
                skipWhitespace()
                guard let value = value(depth: depth) else { return nil }
                values.append(value)
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "]")) ? values : nil
            }
        }

        mutating func value(depth: Int) -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "{"): return object(depth: depth + 1) == nil ? nil : .nested
            case UInt8(ascii: "["): return array(depth: depth + 1).map(Value.array)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map(Value.number)
            }
        }

        mutating func literal(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else {
                return false
            }
            index += word.count
            return true
        }

        mutating func number() -> Double? {
            let start = index
            _ = take(UInt8(ascii: "-"))
            guard digits() else { return nil }
            if take(UInt8(ascii: ".")) { guard digits() else { return nil } }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() else { return nil }
            }
            return Double(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        mutating func digits() -> Bool {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index > start
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ reader: Reader, upTo end: Int) {
                scalars.append(contentsOf: String(decoding: reader.bytes[run..<end], as: UTF8.self).unicodeScalars)
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(self, upTo: index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { return nil }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                flush(self, upTo: index)
                index += 1
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(code) {
                        // A high surrogate: its low half must follow.
                        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
                            (0xDC00..<0xE000).contains(low)
                        else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    scalars.append(scalar)
                default: return nil
                }
                run = index
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var code: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                code = code << 4 + UInt32(digit)
            }
            index += 4
            return code
        }
    }
}

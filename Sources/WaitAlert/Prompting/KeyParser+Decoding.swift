/// What bytes mean: control bytes, control and SS3 sequences as keys, and a paste's UTF-8.
extension KeyParser {
    /// The key a C0 control or DEL stands for, or `nil` for one that is dropped.
    static func controlKey(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x0D, 0x0A: .enter
        case 0x7F, 0x08: .backspace
        case 0x09: .tab
        case 0x01: .home
        case 0x05: .end
        case 0x02: .left
        case 0x06: .right
        case 0x15: .killToStart
        case 0x17: .killWordBefore
        case 0x0B: .killToEnd
        case 0x03: .interrupt
        case 0x04: .endOfInput
        case 0x1A: .suspend
        default: nil
        }
    }

    /// The key `ESC O` and a final byte stand for, or `nil`.
    static func singleShiftKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "d"): .wordLeft
        case UInt8(ascii: "c"): .wordRight
        default: cursorKey(final)
        }
    }

    /// The arrow, Home or End key a final byte of `CSI` or `SS3` names, or `nil`.
    static func cursorKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// The key a control sequence stands for, or `nil` for one that is dropped.
    static func controlSequenceKey(parameters: [UInt8], final: UInt8) -> Key? {
        // Intermediates, private markers (`<`…`?`) and sub-parameters (`:`) mean other sequences.
        guard parameters.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == UInt8(ascii: ";") }) else { return nil }
        let numbers = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            .map { Int(String(decoding: $0, as: UTF8.self)) }
        let first = parameters.isEmpty ? nil : numbers[0]
        switch final {
        case UInt8(ascii: "~"):
            guard numbers.count <= 2 else { return nil }
            switch first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            default: return nil
            }
        case UInt8(ascii: "Z"):
            return parameters.isEmpty ? .backTab : nil
        default:
            guard let key = cursorKey(final), numbers.count <= 2, first == nil || first == 1 else { return nil }
            let modifier = (numbers.count == 2 ? numbers[1] : nil) ?? 1
            // xterm's modifier is 1 + Shift 1 + Alt 2 + Ctrl 4 + Meta 8.
            guard modifier > 1, (modifier - 1) & 0b1110 != 0 else { return key }
            switch key {
            case .left: return .wordLeft
            case .right: return .wordRight
            default: return key
            }
        }
    }

    /// UTF-8 bytes decoded as text, invalid bytes dropped instead of replaced.
    static func decodeDroppingInvalid(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
            case .error: continue
            case .emptyInput: return text
            }
        }
    }

    /// How many of `bytes` come before a UTF-8 character cut short at their end.
    static func completeUTF8Prefix(of bytes: [UInt8]) -> Int {
        var start = bytes.count
        while start > 0, bytes.count - start < 3, bytes[start - 1] & 0xC0 == 0x80 {
            start -= 1
        }
        guard start > 0 else { return bytes.count }
        let lead = bytes[start - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - (start - 1) < length ? start - 1 : bytes.count
    }

}

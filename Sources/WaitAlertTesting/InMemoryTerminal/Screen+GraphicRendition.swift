// Select Graphic Rendition (`CSI … m`): which text style is in effect, tracked for `InMemoryTerminal.isStyled`.

extension InMemoryTerminal.Screen {
    /// `CSI … m`; returns `false` when any attribute is not supported or an extended color is malformed.
    mutating func selectGraphicRendition(_ parameters: [[Int?]]) -> Bool {
        guard !parameters.isEmpty else {
            style = []
            return true
        }
        var isSupported = true
        var index = 0
        while index < parameters.count {
            let parameter = parameters[index]
            index += 1
            let code = parameter[0] ?? 0
            if parameter.count > 1 {
                // Colon form: 4:n underline style, 38:…, 48:…, 58:… extended colors.
                switch code {
                case 4 where (parameter[1] ?? 0) == 0: style.remove(.underline)
                case 4: style.insert(.underline)
                case 38: style.insert(.foreground)
                case 48: style.insert(.background)
                case 58: style.insert(.underlineColor)
                default: isSupported = false
                }
                continue
            }
            switch code {
            case 0: style = []
            case 1: style.insert(.bold)
            case 2: style.insert(.faint)
            case 3: style.insert(.italic)
            case 4, 21: style.insert(.underline)
            case 5, 6: style.insert(.blink)
            case 7: style.insert(.inverse)
            case 8: style.insert(.hidden)
            case 9: style.insert(.strikethrough)
            case 22: style.remove([.bold, .faint])
            case 23: style.remove(.italic)
            case 24: style.remove(.underline)
            case 25: style.remove(.blink)
            case 27: style.remove(.inverse)
            case 28: style.remove(.hidden)
            case 29: style.remove(.strikethrough)
            case 30...37, 90...97: style.insert(.foreground)
            case 39: style.remove(.foreground)
            case 40...47, 100...107: style.insert(.background)
            case 49: style.remove(.background)
            case 53: style.insert(.overline)
            case 55: style.remove(.overline)
            case 59: style.remove(.underlineColor)
            case 38, 48, 58:
                // Semicolon form: 5;index or 2;red;green;blue.
                let mode = index < parameters.count ? parameters[index][0] : nil
                let argumentCount =
                    switch mode {
                    case 5: 1
                    case 2: 3
                    default: Int.max
                    }
                guard argumentCount <= parameters.count - index - 1 else { return false }
                index += 1 + argumentCount
                style.insert(code == 38 ? .foreground : code == 48 ? .background : .underlineColor)
            default:
                isSupported = false
            }
        }
        return isSupported
    }
}

extension InMemoryTerminal {
    /// The parts of a control sequence (ESC [ …), as the parser hands it to the screen.
    struct ControlSequence {
        /// A leading `<`, `=`, `>` or `?`.
        var privateMarker: UInt8?
        /// The `;`-separated parameters, each with its `:`-separated sub-parameters; `nil` where a value is empty.
        var parameters: [[Int?]]
        var intermediates: [UInt8]
        var final: UInt8

        /// Parses `bytes`, which start with ESC [ and end with the final byte; `nil` when malformed.
        init?(_ bytes: [UInt8]) {
            final = bytes[bytes.count - 1]
            var body = bytes[2..<(bytes.count - 1)]
            if let first = body.first, (0x3C...0x3F).contains(first) {
                privateMarker = first
                body = body.dropFirst()
            }
            let parameterEnd = body.firstIndex { (0x20...0x2F).contains($0) } ?? body.endIndex
            intermediates = Array(body[parameterEnd...])
            guard intermediates.allSatisfy({ (0x20...0x2F).contains($0) }) else { return nil }

            parameters = []
            let parameterBytes = body[..<parameterEnd]
            guard !parameterBytes.isEmpty else { return }
            for parameter in parameterBytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                var values: [Int?] = []
                for field in parameter.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
                    var value: Int?
                    for byte in field {
                        guard (0x30...0x39).contains(byte) else { return nil }
                        value = min((value ?? 0) * 10 + Int(byte - 0x30), 65_535)
                    }
                    values.append(value)
                }
                parameters.append(values)
            }
        }

        /// The value of parameter `index`, or `nil` when it is absent or empty.
        func value(at index: Int) -> Int? {
            index < parameters.count ? parameters[index][0] : nil
        }

        /// A count parameter: absent, empty and 0 all mean 1.
        func count(at index: Int) -> Int {
            max(1, value(at: index) ?? 1)
        }

        var hasSubparameters: Bool {
            parameters.contains { $0.count > 1 }
        }
    }
}

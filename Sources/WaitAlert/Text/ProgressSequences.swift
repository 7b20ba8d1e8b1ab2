/// Reads the progress a command reports to the terminal's tab or taskbar — `OSC 9;4` (ConEmu's
/// sequence, written by cargo, systemd, dnf5 and others) — from its output, across reads, with
/// ``EscapeSequenceTokenizer``: OSCs are recognised as the sanitizers recognise them. Pure.
///
/// `ESC ] 9 ; 4 ; STATE [; PERCENT] (BEL | ESC \)`: state 1 sets the percentage, 2 (an error)
/// and 4 (paused) set it too when they carry one, 3 is progress of unknown size, 0 clears it.
package struct ProgressSequences: Sendable {
    /// What a sequence says.
    package enum Report: Equatable, Sendable {
        /// A percentage, from 0 to 100.
        case percent(Int)
        /// Progress of unknown size, or no progress any more.
        case unknown
        /// The error state (`2`): the work is failing, at the percentage when one is given.
        case failing(Int?)
    }

    private var tokenizer = EscapeSequenceTokenizer(.output)

    package init() {}

    /// The longest payload read: longer OSCs (titles, links) are skipped, not read.
    private static let limit = EscapeSequenceTokenizer.maximumStoredBytes

    /// The reports in `bytes`, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Report] {
        var reports: [Report] = []
        for byte in bytes {
            var token = tokenizer.consume(byte)
            if case .interrupted = token { token = tokenizer.consume(byte) }
            if case .sequence(.operatingSystemCommand) = token, tokenizer.parameterCount <= Self.limit,
                let report = Self.report(tokenizer.parameters)
            {
                reports.append(report)
            }
        }
        return reports
    }

    /// The report of an OSC payload, when it is a well-formed `9;4;…` one.
    private static func report(_ payload: [UInt8]) -> Report? {
        let fields = payload.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard fields.count >= 3, fields[0] == "9", fields[1] == "4", let state = Int(fields[2]) else { return nil }
        let percent = fields.count > 3 ? Int(fields[3]).map { min(max($0, 0), 100) } : nil
        switch state {
        case 0, 3: return .unknown
        case 2: return .failing(percent)
        case 1, 4: return percent.map(Report.percent)
        default: return nil
        }
    }
}

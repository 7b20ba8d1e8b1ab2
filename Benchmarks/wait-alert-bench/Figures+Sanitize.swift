import WaitAlert

/// What reading escape sequences costs: untrusted text made safe for a line, a command's
/// captured output read as the supervisor reads it, raw output sanitized byte by byte as a
/// signal handler replays it, and typed input read as keys.
extension Figures {
    func sanitizing() -> [Figure] {
        [
            Self.hostileTextFigure(quick: quick), Self.capturedOutputFigure(quick: quick),
            Self.rawOutputFigure(quick: quick), Self.keyInputFigure(quick: quick),
            Self.eventLinesFigure(quick: quick),
        ]
    }

    /// A command's standard error passed through while its event lines are taken out (`wait-alert
    /// -- ssh host 'WAIT_ALERT_PROGRESS=json tool'` on a pipe): compiler-like lines with one event
    /// line in eight, read 4 KiB at a time, each event line parsed; against cutting the same reads
    /// into lines, as display output is (the least a reader of lines does).
    private static func eventLinesFigure(quick: Bool) -> Figure {
        var output: [UInt8] = []
        for index in 0..<(quick ? 8_000 : 32_000) {
            output += Array("   Compiling crate-\(index) v0.1.\(index % 10) (/work/crates/crate-\(index))\n".utf8)
            if index % 8 == 0 {
                output +=
                    Array(
                        #"{"v":1,"event":"progress","id":\#(index % 40 + 2),"time":\#(index).250,"completed":\#(index),"total":40000,"unit":"count"}"#
                            .utf8) + [0x0A]
            }
        }
        let bytes = Double(output.count)
        let reads = Self.reads(of: output, size: 4096)
        var kept = 0
        let subject = bestOfThree {
            var filter = EventLineFilter()
            for read in reads {
                kept &+= filter.feed(read) { WaitAlertEvent.received($0) != nil }.count
            }
        }
        let baseline = bestOfThree {
            var lines = OutputLines()
            for read in reads { kept &+= lines.feed(read, at: .zero).count }
        }
        blackHole(kept)
        return perByte(
            "event lines taken from output", bytes: bytes, subject: subject, baseline: baseline,
            baselineName: "lines cut alone", within: 1)
    }

    /// `TextSanitizer.line` over text full of sequences and controls, against copying the text.
    private static func hostileTextFigure(quick: Bool) -> Figure {
        let piece = "evil\u{1B}[2J\u{1B}]0;pwned\u{07}\tsecond\u{1B}[1;31mred\u{1B}[0m line 漢字\u{9B}2K é\r\n"
        let text = String(repeating: piece, count: quick ? 4_000 : 16_000)
        let bytes = Double(text.utf8.count)
        var kept = 0
        let subject = bestOfThree {
            kept &+= TextSanitizer.line(text).utf8.count
        }
        let baseline = bestOfThree {
            kept &+= String(decoding: Array(text.utf8), as: UTF8.self).utf8.count
        }
        blackHole(kept)
        return perByte(
            "sanitize hostile text", bytes: bytes, subject: subject, baseline: baseline, baselineName: "copy",
            within: 6)
    }

    /// A command's coloured output with taskbar progress, read 4 KiB at a time as the supervisor
    /// reads it: progress sequences read, lines cut, each line tested for something to show and
    /// made safe with its colours kept; against cutting the lines alone.
    private static func capturedOutputFigure(quick: Bool) -> Figure {
        var output: [UInt8] = []
        for index in 0..<(quick ? 4_000 : 16_000) {
            let line =
                "\u{1B}[1m\u{1B}[32m   Compiling\u{1B}[0m crate-\(index) v0.1.\(index % 10) (/work/crates/crate-\(index))\n"
                + (index % 8 == 0 ? "\u{1B}]9;4;1;\(index % 100)\u{1B}\\" : "")
            output += line.utf8
        }
        let bytes = Double(output.count)
        let reads = Self.reads(of: output, size: 4096)
        var kept = 0
        let subject = bestOfThree {
            var progress = ProgressSequences()
            var lines = OutputLines()
            for read in reads {
                kept &+= progress.feed(read).count
                for line in lines.feed(read, at: .zero) where TextSanitizer.showsSomething(line) {
                    kept &+= TextSanitizer.keepingColors(line).utf8.count
                }
            }
        }
        let baseline = bestOfThree {
            var lines = OutputLines()
            for read in reads { kept &+= lines.feed(read, at: .zero).count }
        }
        blackHole(kept)
        return perByte(
            "captured output", bytes: bytes, subject: subject, baseline: baseline, baselineName: "lines cut alone",
            within: 4)
    }

    /// `RawOutputSanitizer` over coloured output with titles and progress, filtered in place 4 KiB
    /// at a time, against the least a byte filter does: dropping C0 controls but line feeds.
    private static func rawOutputFigure(quick: Bool) -> Figure {
        var output: [UInt8] = []
        for index in 0..<(quick ? 4_000 : 16_000) {
            output += Array(
                ("\u{1B}[1m\u{1B}[32m   Compiling\u{1B}[0m crate-\(index) v0.1 (/work/漢字/crate-\(index)) é\r\n"
                    + (index % 8 == 0 ? "\u{1B}]0;title \(index)\u{07}\u{1B}]9;4;1;\(index % 100)\u{1B}\\" : "")).utf8)
        }
        let bytes = Double(output.count)
        let start = RawOutputSanitizer.maximumHeld
        var buffer = [UInt8](repeating: 0, count: 4096 + start)
        var kept = 0
        let subject = bestOfThree {
            var sanitizer = RawOutputSanitizer()
            for offset in stride(from: 0, to: output.count, by: 4096) {
                let count = min(4096, output.count - offset)
                buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.advanced(by: start).copyMemory(
                        from: output.withUnsafeBytes { $0.baseAddress! + offset }, byteCount: count)
                    kept &+= sanitizer.filter(raw, input: start..<start + count)
                }
            }
        }
        let baseline = bestOfThree {
            for offset in stride(from: 0, to: output.count, by: 4096) {
                let count = min(4096, output.count - offset)
                buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.advanced(by: start).copyMemory(
                        from: output.withUnsafeBytes { $0.baseAddress! + offset }, byteCount: count)
                    var written = 0
                    for index in start..<start + count {
                        let byte = raw[index]
                        if byte >= 0x20 || byte == 0x0A {
                            raw[written] = byte
                            written += 1
                        }
                    }
                    kept &+= written
                }
            }
        }
        blackHole(kept)
        return perByte(
            "raw output replayed", bytes: bytes, subject: subject, baseline: baseline,
            baselineName: "controls dropped", within: 4)
    }

    /// `KeyParser` over typed text, arrows, word motions and a bracketed paste, read 64 bytes at a
    /// time, against decoding the reads as UTF-8 text.
    private static func keyInputFigure(quick: Bool) -> Figure {
        let piece =
            "hello wörld 漢字\u{1B}[D\u{1B}[1;5C\u{1B}OA\u{1B}b\u{7F}\u{1B}[3~\u{1B}[200~pasted\r\ntext\u{1B}[201~\r"
        let input = Array(String(repeating: piece, count: quick ? 2_000 : 8_000).utf8)
        let bytes = Double(input.count)
        let reads = Self.reads(of: input, size: 64)
        var kept = 0
        let subject = bestOfThree {
            var parser = KeyParser()
            for read in reads { kept &+= parser.feed(read).count }
        }
        let baseline = bestOfThree {
            for read in reads { kept &+= String(decoding: read, as: UTF8.self).utf8.count }
        }
        blackHole(kept)
        return perByte(
            "keys read", bytes: bytes, subject: subject, baseline: baseline, baselineName: "reads decoded",
            within: 100)
    }

    /// `bytes` as the reads of `size` bytes a reader gets.
    private static func reads(of bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
    }

    /// The figure of `subject` seconds over `bytes` against `baseline` seconds over the same
    /// bytes, each as nanoseconds a byte, the subject within `limit` times the baseline.
    private static func perByte(
        _ name: String, bytes: Double, subject: Double, baseline: Double, baselineName: String, within limit: Int
    ) -> Figure {
        let ratio = subject / baseline
        return Figure(
            name: "\(name), \(Int(bytes) / 1024) KiB",
            measured: "\(format(subject * 1e9 / bytes, 2)) ns/byte",
            baseline: "\(baselineName) \(format(baseline * 1e9 / bytes, 2)) ns/byte",
            budget: "≤ \(limit)× (\(format(ratio))×)", passed: ratio <= Double(limit))
    }

    /// The shortest of three timings of `body`, in seconds.
    private static func bestOfThree(_ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            body()
            best = min(best, (ContinuousClock.now - start).seconds)
        }
        return best
    }
}

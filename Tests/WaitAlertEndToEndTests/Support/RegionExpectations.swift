// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlert

    /// Expects nothing of a demo's region left on screen or in the scrollback (no spinner, header
    /// or summary line, nor any line `isRegionLine` recognises), the cursor visible under the last
    /// line, no style, no sequence the terminal does not know but those `isExpectedUnknown`
    /// accepts, and the terminal modes as before.
    func expectTheRegionGone(
        _ demo: DemoProcess, _ transcript: [String], isRegionLine: (String) -> Bool,
        isExpectedUnknown: (String) -> Bool = { _ in false }, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let spinner = Set(Spinner.brailleDots.frames.flatMap(\.unicodeScalars))
        let stale = transcript.filter { line in
            line.unicodeScalars.contains(where: spinner.contains) || line.contains(" · ") || line.hasPrefix("… ")
                || isRegionLine(line)
        }
        #expect(
            stale.isEmpty, "lines of the region left behind\n\(numbered(transcript))", sourceLocation: sourceLocation)
        #expect(
            demo.screen.cursor == (demo.screen.lines.count, 0),
            "the prompt comes back under the last line\n\(demo.report)", sourceLocation: sourceLocation)
        #expect(demo.screen.isCursorVisible, "\(demo.report)", sourceLocation: sourceLocation)
        #expect(!demo.screen.isStyled, "no colour left on\n\(demo.report)", sourceLocation: sourceLocation)
        let unknown = demo.screen.unknownSequences.filter { !isExpectedUnknown($0) }
        #expect(unknown.isEmpty, "\(unknown.map { escaped($0.utf8) })", sourceLocation: sourceLocation)
        #expect(demo.modesAtExit == demo.modesBefore, sourceLocation: sourceLocation)
    }

    /// Lines, numbered, for a failing expectation.
    func numbered(_ lines: [String]) -> String {
        lines.enumerated().map { "\($0.offset)\t\($0.element)" }.joined(separator: "\n")
    }
#endif

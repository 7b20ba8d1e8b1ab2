import Testing
import WaitAlert
import WaitAlertTesting

/// The task region on a terminal that checks the region's invariants after every write
/// (``InMemoryTerminal/Invariants``), in the situations where it once broke them.
@Suite("Task region invariants")
@MainActor
struct RegionInvariantTests {
    static let spinner = Set(Spinner.brailleDots.frames.flatMap(\.unicodeScalars))

    static func spinnerLines(_ lines: [String]) -> [String] {
        lines.filter { $0.unicodeScalars.contains { spinner.contains($0) } }
    }

    /// Twenty tasks running under one alert, on `terminal`: a region of 21 rows.
    static func start(_ terminal: InMemoryTerminal) -> (WaitAlertTestBed, TerminalOverlay, Task<Void, any Error>) {
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            _ = try await withWaitAlert("Building", presenter: bed.presenter) { build in
                try await build.tasks(for: Array(0..<20), title: { "Compiling Module\($0)" }) { index, _ in
                    try await bed.clock.sleep(for: .seconds(3) + .milliseconds(index * 10))
                }
            }
        }
        return (bed, overlay, work)
    }

    /// A window that gets narrower and shorter at once: the lines are laid out again for the new
    /// height before anything is drawn (they were once drawn again as they were, taller than the
    /// window, which scrolled spinner lines into the scrollback for good).
    @Test(arguments: [false, true])
    func aWindowThatShrinksInBothDirections(reflows: Bool) async throws {
        let terminal = InMemoryTerminal(columns: 80, rows: 30, reflowsOnResize: reflows)
        terminal.checkInvariants()
        let (bed, overlay, work) = Self.start(terminal)
        await bed.advance(by: .seconds(1))
        #expect(Self.spinnerLines(terminal.lines).count == 21, "\(terminal)")

        terminal.resize(columns: 60, rows: 8)
        overlay.terminalDidResize()
        #expect(terminal.invariantViolations.isEmpty, "\(terminal.invariantViolations)\n\(terminal)")
        #expect(Self.spinnerLines(terminal.lines).count <= 7, "\(terminal)")

        try await bed.run(until: work)
        await bed.run()
        terminal.markEnd()
        #expect(terminal.invariantViolations.isEmpty, "\(terminal.invariantViolations)\n\(terminal)")
        #expect(Self.spinnerLines(terminal.transcript).isEmpty, "\(terminal.transcript)")
        #expect(
            terminal.checkCommitted((0..<20).map { "✔ Compiling Module\($0) (" } + ["✔ Building ("]) {
                $0.hasPrefix($1)
            }.isEmpty)
    }

    /// Back in the foreground after the window got shorter in the background: the lines are
    /// drawn afresh, laid out for the new height (they were once drawn as they were first).
    @Test func backInTheForegroundInAShorterWindow() async throws {
        let terminal = InMemoryTerminal(columns: 80, rows: 30)
        let (bed, _, work) = Self.start(terminal)
        await bed.advance(by: .seconds(1))
        // Ctrl-Z erased the lines (the guard's job on standard error); then `bg`.
        terminal.write(Array("\r\u{1B}[J\u{1B}[?25h$ bg\r\n".utf8))
        terminal.isForeground = false
        await bed.advance(by: .milliseconds(500))
        terminal.resize(columns: 80, rows: 8)
        terminal.write(Array("$ fg\r\n".utf8))
        terminal.checkInvariants()
        terminal.isForeground = true
        await bed.advance(by: .milliseconds(100))
        #expect(terminal.invariantViolations.isEmpty, "\(terminal.invariantViolations)\n\(terminal)")
        #expect((1...7).contains(Self.spinnerLines(terminal.lines).count), "\(terminal)")

        try await bed.run(until: work)
        await bed.run()
        terminal.markEnd()
        #expect(terminal.invariantViolations.isEmpty, "\(terminal.invariantViolations)\n\(terminal)")
        #expect(Self.spinnerLines(terminal.transcript).isEmpty, "\(terminal.transcript)")
    }
}

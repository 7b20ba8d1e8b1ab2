import Testing
import WaitAlert
import WaitAlertTesting

/// The overlay as a background job (Ctrl-Z, then `bg`), and back in the foreground (`fg`): in the
/// background not one escape byte is written, log lines and final lines still print as plain
/// lines, and the foreground gets the lines drawn afresh.
@Suite("Overlay in the background")
@MainActor
struct OverlayPlacementTests {
    let terminal = InMemoryTerminal(columns: 40, rows: 10)
    let bed: WaitAlertTestBed

    init() {
        bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, colors: .always, integration: .none)])
    }

    @Test func inTheBackgroundOnlyPlainLinesAreWritten() async {
        let alert = showWaitAlert("Syncing…", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        #expect(OverlayTests.isSpinnerLine(terminal.lines[0], text: "Syncing…"))
        // Ctrl-Z erased the line (the guard's job on standard error); then `bg`.
        terminal.write(Array("\r\u{1B}[J\u{1B}[?25h[1]+  Stopped\r\n$ bg\r\n$ ".utf8))
        terminal.isForeground = false
        terminal.resetCounters()
        alert.update("Still syncing…")
        alert.log("synced a.txt")
        await bed.advance(by: .seconds(2))
        alert.succeed("Synced")
        await bed.run()
        #expect(!terminal.output.contains(0x1B), "\(String(decoding: terminal.output, as: UTF8.self))")
        #expect(terminal.lines == ["[1]+  Stopped", "$ bg", "$ synced a.txt", "✔ Synced (3.0s)"])
        #expect(terminal.isCursorVisible)
    }

    @Test func backInTheForegroundTheLinesAreDrawnAgain() async {
        let alert = showWaitAlert("Syncing…", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        terminal.write(Array("\r\u{1B}[J\u{1B}[?25h$ bg\r\n$ ".utf8))
        terminal.isForeground = false
        await bed.advance(by: .seconds(1))
        terminal.write(Array("fg\r\n".utf8))
        terminal.isForeground = true
        await bed.advance(by: .milliseconds(80))
        #expect(terminal.lines.count == 3, "\(terminal)")
        #expect(OverlayTests.isSpinnerLine(terminal.lines[2], text: "Syncing…"), "\(terminal)")
        #expect(!terminal.isCursorVisible)
        alert.succeed("Synced")
        await bed.run()
        #expect(terminal.lines == ["$ bg", "$ fg", "✔ Synced (2.1s)"], "\(terminal)")
        #expect(terminal.isCursorVisible)
    }

    @Test func startedInTheBackgroundItNeverDraws() async {
        terminal.isForeground = false
        let alert = showWaitAlert("Syncing…", presenter: bed.presenter)
        await bed.advance(to: .seconds(2))
        alert.fail("Disk full")
        showToast("A toast is not a record", presenter: bed.presenter)
        await bed.run()
        #expect(!terminal.output.contains(0x1B))
        #expect(terminal.lines == ["✖ Disk full"])
    }

    /// A transient ending that happens in the background leaves its record as a plain line, and
    /// is not drawn again once the program is back in the foreground.
    @Test func aTransientEndingInTheBackgroundIsPrintedOnce() async {
        let terminal = InMemoryTerminal(columns: 40, rows: 10)
        let bed = WaitAlertTestBed(renderers: [
            TerminalOverlay(terminal: terminal, ending: .transient, colors: .never, integration: .none)
        ])
        let alert = showWaitAlert("Syncing…", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        terminal.write(Array("\r\u{1B}[J".utf8))
        terminal.isForeground = false
        alert.succeed()
        await bed.advance(by: .milliseconds(200))
        terminal.isForeground = true
        await bed.run()
        #expect(terminal.lines == ["✔ Syncing (1.0s)"], "\(terminal)")
    }
}

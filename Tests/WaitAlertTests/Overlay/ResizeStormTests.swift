import Synchronization
import Testing
import WaitAlert
import WaitAlertTesting

/// Window resizes at any pace, with the overlay drawing at widths the window no longer has (as it
/// does during a storm, between the resize and the `SIGWINCH` that reports it): no stale spinner
/// line is ever left, on a terminal that cuts lines on resize (xterm) or re-wraps them (tmux, VTE).
@Suite("Resize storms")
@MainActor
struct ResizeStormTests {
    /// A terminal whose reported width lags behind its real one until the test says the resize
    /// has been noticed.
    final class LaggingTerminal: WaitAlertTerminal {
        let screen: InMemoryTerminal
        private let reported: Mutex<Int>

        init(_ screen: InMemoryTerminal) {
            self.screen = screen
            reported = Mutex(screen.columns ?? 80)
        }

        var columns: Int? { reported.withLock { $0 } }
        var isInteractive: Bool { true }
        func write(_ bytes: [UInt8]) -> Bool { screen.write(bytes) }

        /// Resizes the window; the overlay keeps seeing the old width.
        func resize(columns: Int) { screen.resize(columns: columns) }
        /// The overlay learns the real width.
        func notice() { reported.withLock { $0 = screen.columns ?? 80 } }
    }

    @Test(arguments: [false, true])
    func noStaleLineWhateverTheResizePattern(reflows: Bool) async {
        for seed in PropertyRuns.seeds(of: 60) {
            var rng = SplitMix64(seed: seed)
            let screen = InMemoryTerminal(columns: 60, rows: 12, reflowsOnResize: reflows)
            let terminal = LaggingTerminal(screen)
            let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
            let bed = WaitAlertTestBed(timing: try! .terminal.with(grace: .zero), renderers: [overlay])
            let count = 1 + rng.next(below: 3)
            let alerts = (0..<count).map {
                showWaitAlert("Job \($0) " + String(repeating: "漢x", count: 8 + $0 * 9), presenter: bed.presenter)
            }
            await bed.advance(by: .milliseconds(100))
            for step in 0..<40 {
                switch rng.next(below: 6) {
                case 0, 1: terminal.resize(columns: 8 + rng.next(below: 70))
                case 2:
                    terminal.notice()
                    overlay.terminalDidResize()
                case 3:
                    alerts[rng.next(below: count)].update(
                        "Step \(step) " + String(repeating: "y", count: rng.next(below: 70)))
                case 4: alerts[rng.next(below: count)].log("log \(step)")
                default: break
                }
                await bed.advance(by: .milliseconds(Int64(10 + rng.next(below: 120))))
            }
            terminal.resize(columns: 60)  // wide enough for every final line to read whole
            terminal.notice()
            overlay.terminalDidResize()
            for (index, alert) in alerts.enumerated() { alert.succeed("Done \(index)") }
            await bed.run()
            let everything = screen.transcript
            let stale = everything.filter { line in line.unicodeScalars.contains { Self.spinner.contains($0) } }
            #expect(stale.isEmpty, "seed \(seed), reflows \(reflows): stale lines \(stale)\n\(screen)")
            for index in 0..<count {
                let finals = everything.filter { $0.hasPrefix("✔ Done \(index) (") }
                #expect(finals.count == 1, "seed \(seed), reflows \(reflows): final line \(index)\n\(everything)")
            }
            #expect(screen.isCursorVisible)
            if !stale.isEmpty { return }
        }
    }

    /// Resizes of width and height at any pace, each reported as `SIGWINCH` reports it: the
    /// region waits for the window to keep its size (on the presenter's clock, here a manual
    /// one), and no stale spinner line is left, in the scrollback either.
    @Test(arguments: [false, true])
    func noStaleLineWhenResizesOfBothSidesSettle(reflows: Bool) async {
        for seed in PropertyRuns.seeds(of: 60) {
            var rng = SplitMix64(seed: seed)
            let screen = InMemoryTerminal(columns: 60, rows: 12, reflowsOnResize: reflows)
            let overlay = TerminalOverlay(terminal: screen, colors: .never, integration: .none)
            let bed = WaitAlertTestBed(timing: try! .terminal.with(grace: .zero), renderers: [overlay])
            let count = 1 + rng.next(below: 4)
            let alerts = (0..<count).map {
                showWaitAlert("Job \($0) " + String(repeating: "x", count: 8 + $0 * 9), presenter: bed.presenter)
            }
            await bed.advance(by: .milliseconds(100))
            for step in 0..<60 {
                switch rng.next(below: 5) {
                case 0, 1, 2:
                    screen.resize(columns: 8 + rng.next(below: 70), rows: 2 + rng.next(below: 14))
                    overlay.windowResized()
                case 3:
                    alerts[rng.next(below: count)].update(
                        "Step \(step) " + String(repeating: "y", count: rng.next(below: 70)))
                default: alerts[rng.next(below: count)].log("log \(step)")
                }
                await bed.advance(by: .milliseconds(Int64(5 + rng.next(below: 250))))
            }
            screen.resize(columns: 60, rows: 12)
            overlay.windowResized()
            await bed.advance(by: .milliseconds(200))
            for (index, alert) in alerts.enumerated() { alert.succeed("Done \(index)") }
            await bed.run()
            let everything = screen.transcript
            let stale = everything.filter { line in line.unicodeScalars.contains { Self.spinner.contains($0) } }
            #expect(stale.isEmpty, "seed \(seed), reflows \(reflows): stale lines \(stale)\n\(screen)")
            for index in 0..<count {
                let finals = everything.filter { $0.hasPrefix("✔ Done \(index) (") }
                #expect(finals.count == 1, "seed \(seed), reflows \(reflows): final line \(index)\n\(everything)")
            }
            if !stale.isEmpty { return }
        }
    }

    /// The region is not drawn while a resize settles, and is drawn again once the window has
    /// kept its size for the settling time of the presenter's clock.
    @Test func aResizeSettlesOnThePresentersClock() async {
        let screen = InMemoryTerminal(columns: 60, rows: 12)
        let overlay = TerminalOverlay(terminal: screen, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: try! .terminal.with(grace: .zero), renderers: [overlay])
        let alert = showWaitAlert("Syncing " + String(repeating: "x", count: 40), presenter: bed.presenter)
        await bed.advance(by: .milliseconds(100))
        #expect(screen.lines.contains { $0.hasSuffix("xxx") })
        screen.resize(columns: 40, rows: 10)
        overlay.windowResized()
        screen.resetCounters()
        await bed.advance(by: .milliseconds(140))
        #expect(screen.bytesWritten == 0, "drawn before the resize settled")
        await bed.advance(by: .milliseconds(20))
        #expect(screen.bytesWritten > 0)
        #expect(screen.lines.contains { $0.contains(" Syncing xxx") }, "\(screen)")
        alert.succeed("Synced")
        await bed.run()
    }

    private static let spinner = Set(Spinner.brailleDots.frames.flatMap(\.unicodeScalars))
}

import Synchronization
import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Spinner glyphs turned off the main actor: the frame as a function of time, the bytes of a
/// frame, and an overlay whose draws and frames take turns.
@Suite("Spinner ticker")
struct SpinnerTickerTests {
    let spinner = Spinner.brailleDots

    @Test func aSlotContinuesTheFrameItWasDrawnWith() {
        // Drawn showing frame 7 at 1.03 s (grid step 12): 80 ms later frame 8, then 9, then 0.
        let slot = SpinnerTicker.Slot(line: 0, indent: 0, spinner: spinner, frame: 7, at: .milliseconds(1030))
        #expect(slot.glyph(at: .milliseconds(1030)) == spinner.frames[7])
        #expect(slot.glyph(at: .milliseconds(1039)) == spinner.frames[7], "same grid step")
        #expect(slot.glyph(at: .milliseconds(1040)) == spinner.frames[8])
        #expect(slot.glyph(at: .milliseconds(1120)) == spinner.frames[9])
        #expect(slot.glyph(at: .milliseconds(1200)) == spinner.frames[0])
        #expect(slot.glyph(at: .seconds(1030)) == spinner.frames[(7 + 12875 - 12) % 10])
    }

    @Test func aSlotMatchesTheTimeline() {
        // Whatever instant a row was drawn at, the slot shows what the timeline would show later.
        var timeline = WaitAlertTimeline(text: "Working", timing: try! .terminal.with(grace: .zero), at: .zero)
        _ = timeline.advance(to: .milliseconds(5))
        for drawnAt in stride(from: 5, to: 900, by: 37).map(Duration.milliseconds) {
            let snapshot = timeline.snapshot(at: drawnAt)
            guard let frame = snapshot.spinnerFrame, let spinner = snapshot.spinner else {
                Issue.record("no spinner at \(drawnAt)")
                return
            }
            let slot = SpinnerTicker.Slot(line: 0, indent: 0, spinner: spinner, frame: frame, at: drawnAt)
            for later in stride(from: 0, to: 2000, by: 13).map(Duration.milliseconds) {
                #expect(slot.glyph(at: drawnAt + later) == timeline.snapshot(at: drawnAt + later).spinnerGlyph)
            }
        }
    }

    @Test func aFrameRewritesOnlyTheGlyphsThatChanged() {
        var plan = SpinnerTicker.Plan()
        plan.append(.init(line: 0, indent: 0, spinner: spinner, frame: 0, at: .zero), showing: "⠋")
        // The second one is already a frame ahead.
        plan.append(.init(line: 2, indent: 1, spinner: spinner, frame: 0, at: .zero), showing: "⠙")
        let bytes = String(decoding: plan.frame(at: .milliseconds(80)), as: UTF8.self)
        #expect(bytes == "\r⠙")
        let both = String(decoding: plan.frame(at: .milliseconds(160)), as: UTF8.self)
        #expect(both == "\u{1B}[?2026h\r⠹\u{1B}7\u{1B}[2B\r\u{1B}[2C⠹\u{1B}8\u{1B}[?2026l")
        #expect(plan.frame(at: .milliseconds(200)).isEmpty, "nothing changed")
        #expect(plan.shown == ["⠹", "⠹"])
    }

    /// An overlay on the system clock turns its spinners with the ticker, never with `render`;
    /// a draw in between takes the glyphs the ticker wrote, and the screen stays right.
    @Test @MainActor func theOverlayAndTheTickerTakeTurns() throws {
        let clock = Mutex(Duration.zero)
        let terminal = InMemoryTerminal(columns: 40, rows: 10)
        terminal.checkInvariants()
        let overlay = InteractiveOverlay(terminal: terminal, ending: .persistent, colors: false, integration: .none)
        overlay.didAttach(
            to: WaitAlertRendererContext(cancelAllWork: { false }, systemClockNow: { clock.withLock { $0 } }))
        #expect(overlay.drawsSpinnerFramesItself)
        let ticker = try #require(overlay.spinnerTicker)
        func snapshot(_ text: String, at instant: Duration, parent: WaitAlertID? = nil) -> WaitAlertSnapshot {
            let frame = spinner.frameIndex(after: instant)
            return WaitAlertSnapshot(
                text: text, spinnerFrame: frame, spinnerGlyph: spinner.frames[frame], spinner: spinner,
                parent: parent, depth: parent == nil ? 0 : 1)
        }
        let top = WaitAlertID.next()
        let child = WaitAlertID.next()
        overlay.render(snapshot("Building", at: .zero), of: top, at: .zero)
        overlay.render(snapshot("Core", at: .zero, parent: top), of: child, at: .zero)
        overlay.flush(at: .zero)
        #expect(terminal.lines.prefix(2) == ["⠋ Building · 0/1", "  ⠋ Core"])

        clock.withLock { $0 = .milliseconds(85) }
        ticker.tick()
        #expect(terminal.lines.prefix(2) == ["⠙ Building · 0/1", "  ⠙ Core"])
        let written = terminal.bytesWritten
        ticker.tick()
        #expect(terminal.bytesWritten == written, "the same frame is not written twice")

        // A text change drawn at 170 ms, from a snapshot of that instant.
        clock.withLock { $0 = .milliseconds(170) }
        overlay.render(snapshot("Core: 3/40", at: .milliseconds(170), parent: top), of: child, at: .milliseconds(170))
        overlay.flush(at: .milliseconds(170))
        #expect(terminal.lines[1] == "  ⠹ Core: 3/40")
        clock.withLock { $0 = .milliseconds(250) }
        ticker.tick()
        #expect(terminal.lines.prefix(2) == ["⠸ Building · 0/1", "  ⠸ Core: 3/40"])
        #expect(terminal.invariantViolations.isEmpty, "\(terminal.invariantViolations)")
    }

    @Test @MainActor func underATestClockFramesComeThroughRender() {
        let overlay = InteractiveOverlay(
            terminal: InMemoryTerminal(columns: 40, rows: 10), ending: .persistent, colors: false, integration: .none)
        overlay.didAttach(to: WaitAlertRendererContext(cancelAllWork: { false }))
        #expect(!overlay.drawsSpinnerFramesItself)
        #expect(overlay.spinnerTicker == nil)
    }
}

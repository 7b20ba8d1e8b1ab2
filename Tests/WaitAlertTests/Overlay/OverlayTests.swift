import Testing
import WaitAlert
import WaitAlertTesting

/// The terminal overlay, asserted on the screen of an in-memory terminal.
@Suite("Terminal overlay")
@MainActor
struct OverlayTests {
    let terminal: InMemoryTerminal
    let bed: WaitAlertTestBed

    init() {
        terminal = InMemoryTerminal(columns: 40, rows: 10)
        bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, colors: .never, integration: .none)])
    }

    static func isSpinnerLine(_ line: String, text: String) -> Bool {
        guard let glyph = line.unicodeScalars.first else { return false }
        return Spinner.brailleDots.frames.contains(String(glyph)) && line.hasSuffix(" " + text)
    }

    @Test func seedTimelineOnScreen() async {
        let alert = showWaitAlert(SeedTimeline.title, presenter: bed.presenter)
        await bed.advance(to: .milliseconds(499))
        #expect(terminal.lines.isEmpty)
        #expect(terminal.isCursorVisible)
        await bed.advance(to: .milliseconds(500))
        #expect(terminal.lines == ["⠋ Doing Something"])
        #expect(!terminal.isCursorVisible)
        for (at, text) in SeedTimeline.updates {
            await bed.advance(to: at)
            alert.update(text)
            await bed.settle()
            #expect(terminal.lines.count == 1)
            #expect(Self.isSpinnerLine(terminal.lines[0], text: text), "\(terminal)")
        }
        await bed.advance(to: SeedTimeline.end.at)
        alert.succeed(SeedTimeline.end.text)
        await bed.settle()
        #expect(terminal.lines == ["✔ Done (4.5s)"])
        #expect(terminal.isCursorVisible)
        #expect(terminal.cursor == (row: 1, column: 0))
        await bed.run()
        #expect(terminal.lines == ["✔ Done (4.5s)"])
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func idleFrameCostsAtMostEightBytes() async {
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        let before = terminal.lines
        terminal.resetCounters()
        await bed.advance(by: .milliseconds(80))
        #expect(terminal.writeCount == 1)
        #expect(terminal.bytesWritten <= 8)
        #expect(terminal.lines != before)  // the glyph moved on
        #expect(terminal.lines[0].hasSuffix(" Working"))
        alert.dismiss()
        await bed.run()
        #expect(terminal.lines.isEmpty)
        #expect(terminal.isCursorVisible)
    }

    /// A new text rewrites its line in one write: autowrap off, carriage return, glyph, space, the
    /// text, erase to the end of the line, carriage return, autowrap on — 20 bytes around it.
    @Test func textChangeCostsItsBytesPlusTwenty() async {
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        terminal.resetCounters()
        let text = "Compressing 12 files…"
        alert.update(text)
        await bed.settle()
        #expect(terminal.writeCount == 1)
        #expect(terminal.bytesWritten <= text.utf8.count + 20)
        #expect(Self.isSpinnerLine(terminal.lines[0], text: text))
        alert.dismiss()
        await bed.run()
    }

    @Test func hostileTextIsMadeHarmless() async {
        let alert = showWaitAlert("Start", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        alert.update("evil\u{1B}[2J\u{1B}]0;pwned\u{07}\nsecond\rline")
        alert.log("one\u{1B}[31m\nt\u{202E}wo\u{9B}2J")
        await bed.settle()
        #expect(terminal.lines.count == 3)
        #expect(terminal.lines[0] == "one")
        #expect(terminal.lines[1] == "two")
        #expect(Self.isSpinnerLine(terminal.lines[2], text: "evil second line"), "\(terminal)")
        alert.fail("bad\u{1B}[?25h\u{1B}P1$r\u{1B}\\ thing")
        await bed.run()
        #expect(terminal.lines.last == "✖ bad thing")
        #expect(terminal.unknownSequences.isEmpty)
        #expect(terminal.bellCount == 0)
        #expect(!terminal.isStyled)
    }

    @Test func textIsCutToTheWidthByDisplayWidth() async {
        let alert = showWaitAlert("漢字👨‍👩‍👧 " + String(repeating: "長い文章", count: 20), presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        let line = terminal.lines[0]
        #expect(DisplayWidth.of(line) <= 39)
        #expect(line.hasSuffix("…"))
        #expect(line.contains("👨‍👩‍👧"))
        alert.dismiss()
        await bed.run()
    }

    @Test func logLinesPrintAboveInOrderNoneLost() async {
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        alert.log("before it shows")
        await bed.settle()
        #expect(terminal.lines == ["before it shows"])
        await bed.advance(to: .seconds(1))
        for index in 0..<5 { alert.log("line \(index)") }
        await bed.settle()
        #expect(Array(terminal.lines.prefix(6)) == ["before it shows"] + (0..<5).map { "line \($0)" })
        #expect(Self.isSpinnerLine(terminal.lines[6], text: "Working"))
        alert.succeed("Done")
        await bed.run()
        #expect(terminal.lines.last == "✔ Done (1.0s)")
        #expect(terminal.lines.count == 7)
    }

    @Test func twoAlertsStackAndEachEndsInItsOwnLine() async {
        let first = showWaitAlert("First", presenter: bed.presenter)
        await bed.advance(to: .milliseconds(200))
        let second = showWaitAlert("Second", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        #expect(terminal.lines.count == 2)
        #expect(Self.isSpinnerLine(terminal.lines[0], text: "First"))
        #expect(Self.isSpinnerLine(terminal.lines[1], text: "Second"))
        second.fail("Second broke")
        await bed.advance(to: .milliseconds(1100))  // "Second" showed at 0.7 s: held until 1.1 s
        #expect(terminal.lines.count == 2)
        #expect(terminal.lines[0] == "✖ Second broke")
        #expect(Self.isSpinnerLine(terminal.lines[1], text: "First"))
        await bed.advance(by: .milliseconds(500))
        first.log("a log line")
        first.succeed("First done")
        await bed.run()
        #expect(terminal.lines == ["✖ Second broke", "a log line", "✔ First done (1.6s)"])
        #expect(terminal.isCursorVisible)
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test func neverShownAlertStillLeavesItsFinalLine() async throws {
        let value = try await withWaitAlert("Quick", presenter: bed.presenter) { _ in 5 }
        await bed.run()
        #expect(value == 5)
        #expect(terminal.lines == ["✔ Quick (0.0s)"])
        #expect(!terminal.output.contains(0x1B))
    }

    @Test(arguments: [false, true])
    func shrinkingTheWindowLeavesNoGarbage(reflows: Bool) async {
        let terminal = InMemoryTerminal(columns: 60, rows: 10, reflowsOnResize: reflows)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(renderers: [overlay])
        let alert = showWaitAlert(String(repeating: "wide 漢字 ", count: 10), presenter: bed.presenter)
        alert.log("above")
        await bed.advance(to: .seconds(1))
        terminal.resize(columns: 20)
        overlay.terminalDidResize()
        await bed.advance(by: .milliseconds(80))
        #expect(terminal.lines.count == 2, "\(terminal)")
        #expect(terminal.lines[0] == "above")
        #expect(DisplayWidth.of(terminal.lines[1]) <= 19)
        #expect(terminal.lines[1].hasSuffix("…"))
        alert.succeed("Done")
        await bed.run()
        #expect(terminal.lines == ["above", "✔ Done (1.1s)"])
    }

    @Test func aWidthChangeBetweenAlertsIsPickedUp() async {
        let first = showWaitAlert("First", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        first.succeed("First done")
        await bed.run()
        terminal.resize(columns: 12)  // no resize notification reaches the overlay
        let second = showWaitAlert("A second, much longer text", presenter: bed.presenter)
        await bed.advance(by: .seconds(1))
        #expect(terminal.lines.count == 2, "\(terminal)")
        #expect(DisplayWidth.of(terminal.lines[1]) <= 11)
        #expect(terminal.lines[1].hasSuffix("…"))
        second.dismiss()
        await bed.run()
    }

    @Test func transientModeFadesThenClearsTheLine() async {
        let terminal = InMemoryTerminal(columns: 40, rows: 10)
        let bed = WaitAlertTestBed(renderers: [
            TerminalOverlay(terminal: terminal, ending: .transient, colors: .always, integration: .none)
        ])
        let alert = showWaitAlert("Working", presenter: bed.presenter)
        await bed.advance(to: .seconds(1))
        alert.succeed("Done")
        await bed.settle()
        #expect(terminal.lines == ["✔ Done"])
        #expect(String(decoding: terminal.output, as: UTF8.self).contains("\u{1B}[32m✔ Done\u{1B}[0m"))
        await bed.advance(to: .milliseconds(2100))
        #expect(terminal.lines == ["✔ Done"])  // still reading, now in greys
        #expect(String(decoding: terminal.output, as: UTF8.self).contains("\u{1B}[38;5;"))  // grey levels
        await bed.run()
        #expect(terminal.lines.isEmpty)
        #expect(terminal.isCursorVisible)
        #expect(!terminal.isStyled)
    }

    @Test func toastIsATransientLineWithoutSpinner() async {
        showToast("Saved", presenter: bed.presenter)
        await bed.settle()
        #expect(terminal.lines == ["Saved"])
        await bed.run()
        #expect(terminal.lines.isEmpty)
        #expect(terminal.isCursorVisible)
    }

    @Test func brokenTerminalStopsDrawingWithoutFailingTheWork() async throws {
        let gate = TestGate()
        let task = Task {
            try await withWaitAlert("Working", presenter: bed.presenter) { alert in
                try await gate.wait()
                alert.update("still working")
                return "value"
            }
        }
        _ = await bed.recorder.snapshot()
        await bed.advance(to: .seconds(1))
        terminal.close()
        await bed.advance(by: .milliseconds(160))
        gate.open()
        #expect(try await task.value == "value")
        await bed.run()
        #expect(bed.recorder.latest?.phase == .gone)
    }
}

@Suite("Overlay when not interactive")
@MainActor
struct PlainOverlayTests {
    @Test func writesPlainLinesAndNotOneEscapeByte() async {
        let terminal = InMemoryTerminal(columns: 80, rows: 20, isInteractive: false)
        let bed = WaitAlertTestBed(renderers: [TerminalOverlay(terminal: terminal, colors: .always, integration: .none)]
        )
        let alert = showWaitAlert("Doing Something", presenter: bed.presenter)
        let script: [(ms: Int, text: String)] = [
            (1000, "Getting there…"), (1100, "Faster"), (1200, "Fastest"), (2600, "Really…"),
            (3000, "Just about there…"),
        ]
        for step in script {
            await bed.advance(to: .milliseconds(step.ms))
            alert.update(step.text)
            alert.log("log at \(step.ms)")
        }
        await bed.advance(to: .milliseconds(4500))
        alert.succeed("Done")
        await bed.run()
        #expect(!terminal.output.contains(0x1B))
        #expect(
            terminal.transcript == [
                "Doing Something",
                "log at 1000", "log at 1100", "log at 1200",
                "Fastest",  // held back until a second after "Doing Something", latest wins
                "log at 2600",
                "Really…",
                "log at 3000",
                "Just about there…",
                "✔ Done (4.5s)",
            ])
    }

    @Test func colorPolicyFollowsTheEnvironment() {
        #expect(ColorPolicy.environment.usesColor(interactive: true, variables: [:]))
        #expect(!ColorPolicy.environment.usesColor(interactive: false, variables: [:]))
        #expect(!ColorPolicy.environment.usesColor(interactive: true, variables: ["NO_COLOR": "1"]))
        #expect(ColorPolicy.environment.usesColor(interactive: true, variables: ["NO_COLOR": ""]))
        #expect(ColorPolicy.environment.usesColor(interactive: false, variables: ["CLICOLOR_FORCE": "1"]))
        #expect(ColorPolicy.environment.usesColor(interactive: false, variables: ["FORCE_COLOR": "true"]))
        #expect(!ColorPolicy.environment.usesColor(interactive: false, variables: ["FORCE_COLOR": "0"]))
        #expect(
            !ColorPolicy.environment.usesColor(interactive: true, variables: ["NO_COLOR": "1", "FORCE_COLOR": "1"]))
        #expect(!ColorPolicy.never.usesColor(interactive: true))
    }
}

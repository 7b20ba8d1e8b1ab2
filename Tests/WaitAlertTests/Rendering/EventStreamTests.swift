import Testing
import WaitAlertTesting

@testable import WaitAlert

/// The event stream: its JSON lines, what a presenter's alerts make of it, and the overlay modes
/// that write it or keep quiet.
@Suite("Event stream")
@MainActor
struct EventStreamTests {
    /// The fields of `line`, one JSON object, as plain values (numbers as `Double`, or `Int` when
    /// whole). (The end-to-end tests parse the stream with Foundation's parser too.)
    static func object(_ line: String) throws -> [String: Any] {
        let fields = try #require(JSONText.object(line), "a JSON object: \(line)")
        return fields.compactMapValues { value -> Any? in
            switch value {
            case .string(let text): text
            case .number(let number): value.integer.map { $0 as Any } ?? number
            case .bool(let flag): flag
            case .null, .array, .nested: nil
            }
        }
    }

    /// A number field as seconds.
    static func seconds(_ value: Any?) -> Double? {
        (value as? Double) ?? (value as? Int).map(Double.init)
    }

    /// The JSON lines `terminal` was written, parsed.
    static func events(_ terminal: InMemoryTerminal) throws -> [[String: Any]] {
        let text = String(decoding: terminal.output, as: UTF8.self)
        #expect(text.isEmpty || text.hasSuffix("\n"), "every line ended")
        return try text.split(separator: "\n").map { try object(String($0)) }
    }

    // MARK: - Lines

    @Test func eachKindOfEventHasItsLine() {
        let parent = WaitAlertID()
        let child = WaitAlertID()
        let (p, c) = (parent.rawValue, child.rawValue)
        let lines = [
            WaitAlertEvent(.start(title: "Building…"), alert: parent, time: .zero),
            WaitAlertEvent(.start(title: "Core"), alert: child, parent: parent, time: .milliseconds(12)),
            WaitAlertEvent(.text("Linking…"), alert: parent, time: .seconds(1)),
            WaitAlertEvent(.progress(completed: 12, total: 40, unit: .named("files")), alert: child, time: .seconds(2)),
            WaitAlertEvent(.progress(completed: 5, total: nil, unit: .bytes), alert: child, time: .seconds(2)),
            WaitAlertEvent(.progressUnknown, alert: child, time: .seconds(2)),
            WaitAlertEvent(.log("warning: x"), alert: child, time: .milliseconds(2500)),
            WaitAlertEvent(.log("printed"), alert: nil, time: .milliseconds(2500)),
            WaitAlertEvent(
                .end(outcome: .success(nil), text: "Core", elapsed: .milliseconds(2988)), alert: child,
                time: .seconds(3)),
            WaitAlertEvent(
                .end(outcome: .dismissed, text: nil, elapsed: .seconds(3)), alert: parent, time: .seconds(3)),
        ].map(\.jsonLine)
        #expect(
            lines == [
                #"{"v":1,"event":"start","id":\#(p),"time":0.000,"title":"Building…"}"#,
                #"{"v":1,"event":"start","id":\#(c),"parent":\#(p),"time":0.012,"title":"Core"}"#,
                #"{"v":1,"event":"text","id":\#(p),"time":1.000,"text":"Linking…"}"#,
                #"{"v":1,"event":"progress","id":\#(c),"time":2.000,"completed":12,"total":40,"unit":"files"}"#,
                #"{"v":1,"event":"progress","id":\#(c),"time":2.000,"completed":5,"unit":"bytes"}"#,
                #"{"v":1,"event":"progress","id":\#(c),"time":2.000,"completed":null}"#,
                #"{"v":1,"event":"log","id":\#(c),"time":2.500,"line":"warning: x"}"#,
                #"{"v":1,"event":"log","time":2.500,"line":"printed"}"#,
                #"{"v":1,"event":"end","id":\#(c),"time":3.000,"outcome":"success","text":"Core","elapsed":2.988}"#,
                #"{"v":1,"event":"end","id":\#(p),"time":3.000,"outcome":"dismissed","elapsed":3.000}"#,
            ])
    }

    @Test func everyOutcomeHasAName() {
        let outcomes: [WaitAlertOutcome] = [
            .success("a"), .failure("b"), .cancelled, .timedOut, .dismissed, .skipped(nil),
        ]
        #expect(
            outcomes.map(WaitAlertEvent.name(of:)) == [
                "success", "failure", "cancelled", "timedOut", "dismissed", "skipped",
            ])
    }

    /// What was reported reaches the stream as it was, escaped so every line stays one line of
    /// valid JSON: quotes, backslashes, line breaks, escape sequences, C1 controls and the
    /// JavaScript line separators.
    @Test func hostileTextStaysOneLineOfValidJSON() throws {
        let hostile =
            "a \"quoted\" \\ back\nslash\r\t\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m\u{7F}\u{2028}\u{2029}漢字👨‍👩‍👧 end"
        let line = WaitAlertEvent(.text(hostile), alert: WaitAlertID(), time: .zero).jsonLine
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(
            line.hasSuffix(
                #","text":"a \"quoted\" \\ back\nslash\r\t\u001b[2J\u001b]0;pwned\u0007\u009b31m\u007f\u2028\u2029漢字👨‍👩‍👧 end"}"#
            ))
        #expect(try Self.object(line)["text"] as? String == hostile)
    }

    @Test func timesAreSecondsToTheMillisecond() {
        #expect(JSONText.seconds(.zero) == "0.000")
        #expect(JSONText.seconds(.microseconds(499)) == "0.000")
        #expect(JSONText.seconds(.microseconds(500)) == "0.001")
        #expect(JSONText.seconds(.milliseconds(1234)) == "1.234")
        #expect(JSONText.seconds(.seconds(86_400)) == "86400.000")
        #expect(JSONText.seconds(.milliseconds(-5)) == "-0.005")
    }

    // MARK: - From a presenter

    /// A group with a child task that reports progress and logs, one that fails, and a new text:
    /// every event once, in order, timed from the stream's beginning, with the child tasks'
    /// parent named at their start, including the task that ended within its grace delay.
    @Test func aGroupsEventsInOrder() async throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [EventStreamRenderer(terminal: terminal)])
        await bed.advance(to: .seconds(1))
        let work = bed.start {
            try await withWaitAlert("Building…", success: "Built") { alert in
                try await alert.task("Core") { core in
                    core.progress(completed: 0, total: 4, unit: .named("files"))
                    for file in 1...4 {
                        try await bed.clock.sleep(for: .milliseconds(500))
                        core.progress(completed: file, total: 4, unit: .named("files"))
                    }
                    core.log("warning: unused")
                }
                alert.update("Linking…")
                do {
                    try await alert.task("Quick") { _ in throw CancellationError() }
                } catch {}
                try await bed.clock.sleep(for: .seconds(1))
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let events = try Self.events(terminal)
        let kinds = events.map { "\($0["event"] ?? "?")" }
        #expect(kinds.first == "start" && kinds.last == "end")
        #expect(events.allSatisfy { $0["v"] as? Int == 1 })
        let ids = Set(events.compactMap { $0["id"] as? Int })
        #expect(ids.count == 3, "the group and two child tasks: \(events)")
        let top = try #require(events.first?["id"] as? Int)
        let starts = events.filter { $0["event"] as? String == "start" }
        #expect(starts.map { $0["title"] as? String } == ["Building…", "Core", "Quick"])
        #expect(starts.dropFirst().allSatisfy { $0["parent"] as? Int == top })
        #expect(starts.first?["parent"] == nil)
        #expect(Self.seconds(starts.first?["time"]) == 0, "the stream begins with its first event")
        let progress = events.filter { $0["event"] as? String == "progress" }.compactMap { $0["completed"] as? Int }
        #expect(progress.last == 4 && progress.count >= 3 && progress == progress.sorted(), "\(progress)")
        #expect(events.contains { $0["event"] as? String == "log" && $0["line"] as? String == "warning: unused" })
        #expect(events.contains { $0["event"] as? String == "text" && $0["text"] as? String == "Linking…" })
        let ends = events.filter { $0["event"] as? String == "end" }
        #expect(ends.map { $0["outcome"] as? String } == ["success", "cancelled", "success"])
        #expect(ends.last?["text"] as? String == "Built")
        #expect(ends.last?["id"] as? Int == top)
        let times = events.compactMap { Self.seconds($0["time"]) }
        #expect(times.count == events.count && times == times.sorted(), "\(times)")
        #expect(Self.seconds(ends.last?["elapsed"]) == 3, "the work ran 3 s: \(ends)")
        #expect(Self.seconds(ends.last?["time"]) == 3, "from the stream's beginning, 1 s in: \(ends)")
    }

    /// A million `advance` calls make a handful of progress events, not a million lines.
    @Test func progressIsCoalesced() async throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [EventStreamRenderer(terminal: terminal)])
        let work = bed.start {
            try await withWaitAlert("Counting") { alert in
                for _ in 0..<10 {
                    for _ in 0..<100_000 { alert.advance(by: 1, totalBy: 1) }
                    try await bed.clock.sleep(for: .milliseconds(100))
                }
            }
        }
        try await bed.run(until: work)
        await bed.run()
        let progress = try Self.events(terminal).filter { $0["event"] as? String == "progress" }
        #expect(progress.count <= 12, "\(progress.count) progress events")
        #expect(progress.last?["completed"] as? Int == 1_000_000)
    }

    /// Lines the program prints on standard error through the presenter join the stream as log
    /// events without an alert; standard output is left to the presenter.
    @Test func printedLinesJoinTheStream() throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let renderer = EventStreamRenderer(terminal: terminal)
        #expect(renderer.print("to stderr", to: .standardError))
        #expect(!renderer.print("to stdout", to: .standardOutput))
        let events = try Self.events(terminal)
        #expect(events.count == 1)
        #expect(events.first?["line"] as? String == "to stderr" && events.first?["id"] == nil)
    }

    // MARK: - Modes

    @Test func modesAreNamedAsBuildKitNamesThem() {
        #expect(
            TerminalOverlay.Mode.allCases.map(\.rawValue) == [
                "auto", "tty", "plain", "json", "off", "accessible", "agent", "github", "gitlab",
            ])
        #expect(TerminalOverlay.Mode(rawValue: "fancy") == nil)
    }

    /// A mode's name reads in any case, as `WAIT_ALERT_PROGRESS` does, and prints as its raw
    /// value: what a command-line option needs.
    @Test func aModeReadsFromItsNameInAnyCase() {
        for mode in TerminalOverlay.Mode.allCases {
            #expect(TerminalOverlay.Mode(mode.description) == mode && mode.description == mode.rawValue)
            #expect(TerminalOverlay.Mode(mode.rawValue.uppercased()) == mode)
        }
        #expect(TerminalOverlay.Mode("Plain") == .plain && "\(TerminalOverlay.Mode.json)" == "json")
        for name in ["fancy", "", " json", "json ", "js on"] { #expect(TerminalOverlay.Mode(name) == nil, "\(name)") }
        #expect(TerminalOverlay.Mode.chosen(by: ["WAIT_ALERT_PROGRESS": "JSON"]).mode == .json)
    }

    /// Runs an alert that updates, logs and fails through an overlay in `mode` on an interactive
    /// in-memory terminal.
    static func failingRun(_ mode: TerminalOverlay.Mode) async throws -> InMemoryTerminal {
        let terminal = InMemoryTerminal(columns: 60, rows: 10)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none, mode: mode)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        struct Unreachable: Error, CustomStringConvertible {
            var description: String { "host unreachable" }
        }
        let work = bed.start {
            try await withWaitAlert("Fetching…") { alert in
                try await bed.clock.sleep(for: .seconds(1))
                alert.update("Still fetching…")
                alert.log("retrying")
                try await bed.clock.sleep(for: .seconds(1))
                throw Unreachable()
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        return terminal
    }

    @Test func jsonModeWritesTheStreamAndNoEscapeByte() async throws {
        let terminal = try await Self.failingRun(.json)
        #expect(!terminal.output.contains(0x1B))
        let events = try Self.events(terminal)
        // The log line comes at once; the new text when it shows (the title is read first).
        #expect(events.map { $0["event"] as? String } == ["start", "log", "text", "end"])
        #expect(events.last?["outcome"] as? String == "failure")
        #expect(events.last?["text"] as? String == "Fetching: host unreachable")
    }

    @Test func plainModeWritesLinesOnAnInteractiveTerminal() async throws {
        let terminal = try await Self.failingRun(.plain)
        #expect(!terminal.output.contains(0x1B))
        #expect(terminal.transcript.filter { !$0.isEmpty }.last == "✖ Fetching: host unreachable")
        #expect(terminal.transcript.contains("retrying"))
    }

    @Test func offModeWritesOnlyTheFailure() async throws {
        let terminal = try await Self.failingRun(.off)
        #expect(terminal.transcript.filter { !$0.isEmpty } == ["✖ Fetching: host unreachable"])
    }

    /// A failure within the grace delay, before anything showed, leaves its final line too; and
    /// one of a child task, under its group's.
    @Test(arguments: [TerminalOverlay.Mode.off, .plain])
    func aFailureWithinTheGraceDelayLeavesItsFinalLine(_ mode: TerminalOverlay.Mode) async throws {
        struct Unreadable: Error, CustomStringConvertible {
            var description: String { "cannot read b.txt" }
        }
        let terminal = InMemoryTerminal(columns: 60, rows: 10)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none, mode: mode)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Hashing 2 files", failure: { _ in "Hashing: stopped" }) { alert in
                try await alert.tasks(for: ["a.txt", "b.txt"]) {
                    "Hashing \($0)"
                } operation: { name, _ in
                    if name == "b.txt" { throw Unreadable() }
                }
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        let lines = terminal.transcript.filter { !$0.isEmpty }
        #expect(lines.suffix(2) == ["✖ Hashing b.txt: cannot read b.txt", "✖ Hashing: stopped"], "\(terminal)")
        if mode == .off { #expect(lines.count == 2, "\(terminal)") }
    }

    @Test func offModeWritesNothingForASuccess() async throws {
        let terminal = InMemoryTerminal(columns: 60, rows: 10)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none, mode: .off)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Fetching…") { _ in try await bed.clock.sleep(for: .seconds(2)) }
        }
        try await bed.run(until: work)
        await bed.run()
        #expect(terminal.output.isEmpty)
    }

    @Test func autoModeDrawsOnAnInteractiveTerminal() async throws {
        let terminal = try await Self.failingRun(.auto)
        #expect(terminal.output.contains(0x1B))
        #expect(terminal.transcript.filter { !$0.isEmpty }.last == "✖ Fetching: host unreachable")
    }
}

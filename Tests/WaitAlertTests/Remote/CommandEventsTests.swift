import Testing
import WaitAlertTesting

@testable import WaitAlert

/// The WaitAlert events a command prints — a program run with `WAIT_ALERT_PROGRESS=json`, here
/// or on another machine — show as rows of the alert that runs it; streams of several machines
/// merge by their wall-clock times.
@Suite("Events a command prints")
@MainActor
struct CommandEventsTests {
    let recorder = RecordingRenderer()
    let bed: WaitAlertTestBed

    init() {
        bed = WaitAlertTestBed(timing: .immediate, renderers: [recorder])
    }

    @Test func eventLinesBecomeRowsAndOtherLinesStayOutput() async throws {
        let script = #"""
            echo '{"v":1,"event":"start","id":7,"time":0.000,"began":1795933738.512,"title":"Remote build"}' >&2
            echo '{"v":1,"event":"start","id":8,"parent":7,"time":0.010,"title":"Compiling Core"}' >&2
            echo 'plain output'
            echo '{"v":1,"event":"log","id":8,"time":0.020,"line":"warning: unused"}' >&2
            echo '{"v":1,"event":"end","id":8,"time":0.500,"outcome":"success","text":"Compiling Core","elapsed":0.490}' >&2
            echo '{"v":1,"event":"end","id":7,"time":0.600,"outcome":"failure","text":"Remote build: 1 failed","elapsed":0.600}' >&2
            echo '{"v":1,"event":"bogus"}'
            """#
        let result = try await withWaitAlert("ssh host", presenter: bed.presenter) { alert in
            try await alert.run("sh", "-c", script, keeping: 5)
        }
        await bed.run()
        #expect(result.lastLines == ["plain output", #"{"v":1,"event":"bogus"}"#], "an event line is no output")
        let remote = try #require(recorder.alert(titled: "Remote build"))
        let core = try #require(recorder.alert(titled: "Compiling Core"))
        let host = try #require(recorder.alert(titled: "ssh host"))
        #expect(recorder.snapshots(of: remote).first?.parent == host)
        #expect(recorder.snapshots(of: core).first?.parent == remote)
        #expect(recorder.logs(of: core) == ["warning: unused"])
        #expect(recorder.finalText(of: remote) == "Remote build: 1 failed")
        #expect(!recorder.texts.contains { $0.hasPrefix("{\"v\":1,\"event\":\"start\"") })
    }

    @Test func rowsLeftOpenEndAsCancelledWhenTheCommandEnds() async throws {
        let script = #"""
            echo '{"v":1,"event":"start","id":1,"time":0.000,"title":"Deploying"}' >&2
            echo '{"v":1,"event":"start","id":2,"parent":1,"time":0.100,"title":"Uploading"}' >&2
            exit 255
            """#
        await #expect(throws: WaitAlertCommandError.self) {
            try await withWaitAlert("ssh host", presenter: self.bed.presenter) { alert in
                try await alert.run("sh", "-c", script)
            }
        }
        await bed.run()
        for title in ["Deploying", "Uploading"] {
            let row = try #require(recorder.alert(titled: title))
            #expect(recorder.snapshots(of: row).last?.outcome == .cancelled, "\(title)")
        }
    }

    /// A hostile stream: an id started twice, escape sequences in a title — handled as the
    /// socket handles them: the second start is counted and said once, the title shown as text.
    @Test func eventsThatCannotApplyAreCountedOnce() async throws {
        let script = #"""
            echo '{"v":1,"event":"start","id":1,"time":0.000,"title":"Deploy \u001b[2J\u0007"}' >&2
            echo '{"v":1,"event":"start","id":1,"time":0.001,"title":"Again"}' >&2
            echo '{"v":1,"event":"end","id":1,"time":0.002,"outcome":"success"}' >&2
            """#
        try await withWaitAlert("ssh host", presenter: bed.presenter) { alert in
            try await alert.run("sh", "-c", script)
        }
        await bed.run()
        let host = try #require(recorder.alert(titled: "ssh host"))
        #expect(recorder.logs(of: host) == ["wait-alert: the command printed 1 event that could not apply; ignored"])
        #expect(recorder.alert(titled: "Again") == nil)
        #expect(
            recorder.alert(titled: "Deploy \u{1B}[2J\u{07}") != nil, "the text as reported; a terminal sanitizes it")
    }

    /// A flood of events (more than wait for the main actor at once) all apply, in order; and an
    /// event line longer than a display line's limit is still one event, never output.
    @Test func aFloodAndALongLineOfEventsApply() async throws {
        let long = String(repeating: "x", count: 20_000)
        let script = #"""
            echo '{"v":1,"event":"start","id":1,"time":0,"title":"Flood"}' >&2
            i=1; while [ $i -le 10000 ]; do printf '{"v":1,"event":"progress","id":1,"time":1,"completed":%d,"total":10000}\n' $i >&2; i=$((i+1)); done
            echo '{"v":1,"event":"log","id":1,"time":2,"line":"\#(long)"}' >&2
            echo '{"v":1,"event":"end","id":1,"time":3,"outcome":"success","text":"Flooded"}' >&2
            echo done
            """#
        let result = try await withWaitAlert("ssh host", presenter: bed.presenter) { alert in
            try await alert.run("sh", "-c", script, keeping: 3)
        }
        await bed.run()
        #expect(result.lastLines == ["done"])
        let flood = try #require(recorder.alert(titled: "Flood"))
        let completed = recorder.snapshots(of: flood).compactMap { $0.progress?.completed }
        #expect(completed.last == 10_000 && completed == completed.sorted(), "in order")
        #expect(recorder.logs(of: flood).map(\.count) == [4096], "one event, its text cut as the socket cuts it")
        #expect(recorder.finalText(of: flood) == "Flooded")
    }

    @Test func streamsOfSeveralMachinesMergeByTheirWallClockTimes() {
        let first = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":1,"time":0.000,"began":1000.000,"title":"A"}
            {"v":1,"event":"end","id":1,"time":3.000,"outcome":"success","elapsed":3.000}
            """)
        let second = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":1,"time":0.000,"began":1001.500,"title":"B"}
            {"v":1,"event":"end","id":1,"time":0.500,"outcome":"success","elapsed":0.500}
            """)
        #expect(first.began == 1000 && second.began == 1001.5)
        let merged = WaitAlertRecording(merging: [first, second])
        #expect(merged.began == 1000)
        #expect(merged.events.map(\.time) == [.zero, .milliseconds(1500), .seconds(2), .seconds(3)])
        #expect(merged.events.map(\.id) == [1, 2, 2, 1], "each stream's ids stay its own")
        if case .start(let title) = merged.events[1].kind {
            #expect(title == "B")
        } else {
            Issue.record("\(merged.events)")
        }
        #expect(merged.duration == .seconds(3))
        // A stream that does not say when it began begins with the earliest.
        let undated = WaitAlertRecording(#"{"v":1,"event":"start","id":5,"time":0.250,"title":"C"}"#)
        #expect(
            WaitAlertRecording(merging: [second, undated]).events.map(\.time) == [
                .zero, .milliseconds(250), .milliseconds(500),
            ])
    }

    /// Two streams in one text — runs appended to one file, or files joined with `cat` — are read
    /// as their merge: a later line that says when its stream began starts the next one.
    @Test func streamsJoinedInOneTextAreReadAsTheirMerge() {
        let joined = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":1,"time":0.000,"began":1000.000,"title":"A"}
            {"v":1,"event":"end","id":1,"time":3.000,"outcome":"success","elapsed":3.000}
            not an event
            {"v":1,"event":"start","id":1,"time":0.000,"began":1001.500,"title":"B"}
            {"v":1,"event":"end","id":1,"time":0.500,"outcome":"success","elapsed":0.500}
            """)
        #expect(joined.began == 1000)
        #expect(joined.events.map(\.time) == [.zero, .milliseconds(1500), .seconds(2), .seconds(3)])
        #expect(joined.events.map(\.id) == [1, 2, 2, 1], "the second stream's ids are its own")
        #expect(joined.skippedLines == [3], "counted in the whole text")
        // One stream stays as it was read: its `began` is on its first line only.
        let single = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":4,"time":0.000,"began":1000.000,"title":"A"}
            {"v":1,"event":"end","id":4,"time":1.000,"outcome":"success","elapsed":1.000}
            """)
        #expect(single.events.map(\.id) == [4, 4])
    }

    /// How long a child waits for the socket's answer — longer over a slow link.
    @Test func theSocketTimeoutIsReadInSecondsOrMilliseconds() {
        #expect(EventSocket.milliseconds(in: "5s") == 5000)
        #expect(EventSocket.milliseconds(in: "1500ms") == 1500)
        #expect(EventSocket.milliseconds(in: "2.5") == 2500)
        #expect(EventSocket.milliseconds(in: "120S") == 120_000)
        for bad in ["", "s", "0", "-1s", "121s", "five", "nan", "inf", "0.0001"] {
            #expect(EventSocket.milliseconds(in: bad) == nil, "\(bad)")
        }
    }

    @Test func theFirstLineOfAStreamSaysWhenItBegan() async throws {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [EventStreamRenderer(terminal: terminal, wallClock: { 1_795_933_738.5124 })])
        let work = bed.start {
            try await withWaitAlert("One") { _ in try await bed.clock.sleep(for: .seconds(1)) }
        }
        try await bed.run(until: work)
        await bed.run()
        let lines = String(decoding: terminal.output, as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.contains(#""time":0.000,"began":1795933738.512,"#) == true, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { !$0.contains("began") })
        #expect(WaitAlertEvent.received(String(lines[0]))?.began == 1_795_933_738.512)
    }
}

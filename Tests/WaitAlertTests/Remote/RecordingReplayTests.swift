import Testing
import WaitAlertTesting

@testable import WaitAlert

/// Recorded event streams played again: on a presenter, at their pace or faster, and in the test
/// bed.
@Suite("Recordings played again")
@MainActor
struct RecordingReplayTests {
    /// The lines of a stream with its alert ids renumbered in order of appearance, so two streams
    /// of the same work compare equal whatever ids their alerts got.
    static func normalized(_ terminal: InMemoryTerminal) throws -> [String] {
        var ids: [Int: Int] = [:]
        return try EventStreamTests.events(terminal).map { event in
            event.sorted { $0.key < $1.key }.map { key, value in
                guard key == "id" || key == "parent", let id = value as? Int else { return "\(key)=\(value)" }
                if ids[id] == nil { ids[id] = ids.count + 1 }
                return "\(key)=#\(ids[id]!)"
            }.joined(separator: " ")
        }
    }

    /// A group with a task that reports progress and logs, one that fails within its grace
    /// delay, a new text and a printed line, recorded as JSON lines.
    static func recordedBuild() async throws -> InMemoryTerminal {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [EventStreamRenderer(terminal: terminal, wallClock: { 1_795_933_738.512 })])
        struct Broken: Error {}
        let work = bed.start {
            try await withWaitAlert("Building…", success: "Built") { alert in
                try await alert.task("Core") { core in
                    for file in 1...4 {
                        try await bed.clock.sleep(for: .milliseconds(500))
                        core.progress(completed: file, total: 4, unit: .named("files"))
                    }
                    core.log("warning: unused")
                }
                alert.update("Linking…")
                await WaitAlertPresenter.current.print("linked 4 files", to: .standardError)
                _ = try? await alert.task("Quick") { _ in throw Broken() }
                try await bed.clock.sleep(for: .seconds(1))
            }
        }
        try await bed.run(until: work)
        await bed.run()
        return terminal
    }

    /// Playing a recording does what the recorded program did: the stream written while it plays
    /// is the recording itself, event for event and instant for instant.
    @Test func playingARecordingWritesTheSameStream() async throws {
        let original = try await Self.recordedBuild()
        let recording = WaitAlertRecording(String(decoding: original.output, as: UTF8.self))
        #expect(recording.skippedLines.isEmpty)
        #expect(recording.eventCount > 10)

        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [EventStreamRenderer(terminal: terminal, wallClock: { 1_795_933_738.512 })])
        await bed.play(recording)
        let played = try Self.normalized(terminal)
        let recorded = try Self.normalized(original)
        #expect(played == recorded, "\(zip(played, recorded).filter { $0 != $1 }.prefix(3))")
        #expect(played.contains { $0.contains("event=log") && $0.contains("linked 4 files") && !$0.contains("id=") })
        #expect(played.contains { $0.contains("outcome=failure") })
    }

    /// A recording plays on an overlay like the program that made it: the test bed feeds it to an
    /// in-memory terminal, and the screen keeps its final lines.
    @Test func aRecordingShowsOnAnInMemoryTerminal() async throws {
        let original = try await Self.recordedBuild()
        let terminal = InMemoryTerminal(columns: 60, rows: 12)
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        terminal.checkInvariants()
        await bed.play(WaitAlertRecording(String(decoding: original.output, as: UTF8.self)))
        terminal.markEnd()
        let lines = terminal.committedLines
        #expect(lines.contains("linked 4 files"))
        #expect(lines.contains { $0.hasPrefix("✖ Quick") })
        #expect(lines.last?.hasPrefix("✔ Built") == true, "\(lines)")
    }

    /// Lines that are not events are skipped and numbered; events without a time happen with the
    /// one before them; a faster speed divides every instant; an alert the recording leaves open
    /// ends as cancelled when it ends.
    @Test func aHandWrittenRecordingPlaysFaster() async throws {
        let recording = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":7,"time":0,"title":"Deploying…"}
            not an event
            {"event":"text","id":7,"text":"Uploading…","time":4}\r
            {"v":99,"event":"text","id":7,"text":"from a newer version"}

            {"event":"progress","id":7,"completed":40,"total":100}
            {"event":"text","id":7,"text":"Restarting…","time":8}
            {"event":"log","id":7,"line":"restarted","time":1e300}
            """)
        #expect(recording.skippedLines == [2, 4])
        #expect(recording.eventCount == 5)
        #expect(recording.duration == .seconds(8), "a time beyond 10⁹ s is no time")
        let bed = WaitAlertTestBed(timing: .terminal)
        await bed.play(recording, speed: 4)
        let alert = try #require(bed.recorder.alert(titled: "Deploying…"))
        let snapshots = bed.recorder.snapshots(of: alert)
        let uploading = try #require(snapshots.first { $0.text == "Uploading…" })
        #expect(uploading.textSince == .seconds(1))
        #expect(uploading.progress?.completed == 40)
        let restarting = try #require(snapshots.first { $0.text == "Restarting…" })
        #expect(restarting.textSince == .seconds(2))
        #expect(bed.recorder.logs == ["restarted"])
        #expect(snapshots.last?.outcome == .cancelled)
    }

    /// A byte-order mark before the first line is no part of it; the presenter's timeout does
    /// not apply to a recording's alerts (the recording says when they end), so it never stops
    /// the playing.
    @Test func aMarkedFileAndAPresentersTimeout() async throws {
        let recording = WaitAlertRecording(
            "\u{FEFF}" + #"{"v":1,"event":"start","id":1,"time":0,"title":"Long"}"# + "\n"
                + #"{"v":1,"event":"start","id":2,"time":1,"title":"Other"}"# + "\n"
                + #"{"v":1,"event":"end","id":1,"time":9,"outcome":"success","text":"Long done"}"# + "\n"
                + #"{"v":1,"event":"end","id":2,"time":10,"outcome":"success","text":"Other done"}"#)
        #expect(recording.skippedLines.isEmpty && recording.eventCount == 4)
        let bed = WaitAlertTestBed(timing: try .terminal.withTimeout(.seconds(5)))
        await bed.play(recording)
        #expect(bed.now >= .seconds(10))
        let outcomes = bed.recorder.snapshots.compactMap(\.outcome)
        #expect(outcomes.contains(.success("Long done")) && outcomes.contains(.success("Other done")), "\(outcomes)")
        #expect(!outcomes.contains(.timedOut) && !outcomes.contains(.cancelled), "\(outcomes)")
    }

    /// A pause of the recording longer than 10 seconds (here 31 years) is shortened to 10
    /// seconds, and a line says how long it was; shorter ones are played as they are.
    @Test func aLongPauseIsShortenedAndSaid() async throws {
        let recording = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":1,"time":0,"title":"Waiting"}
            {"v":1,"event":"text","id":1,"time":9,"text":"Nine seconds in"}
            {"v":1,"event":"text","id":1,"time":999999999,"text":"Decades later"}
            {"v":1,"event":"end","id":1,"time":999999999.5,"outcome":"success","text":"Done"}
            """)
        let bed = WaitAlertTestBed(timing: .terminal)
        await bed.play(recording)
        let nine = try #require(bed.recorder.snapshots.first { $0.text == "Nine seconds in" })
        #expect(nine.textSince == .seconds(9), "a pause of 9 s plays as it is")
        let later = try #require(bed.recorder.snapshots.first { $0.text == "Decades later" })
        #expect(later.textSince == .seconds(19))
        #expect(bed.recorder.latest?.outcome == .success("Done"))
        #expect(
            bed.recorder.printed == [
                "wait-alert: the recording has no event for 277777h 47m here; playing on in 10.0s"
            ])
    }

    /// What a recording says the recorded program printed (a `log` without an `id`) is shown
    /// sanitized, as the texts of its alerts are: no escape sequence of a shared recording
    /// reaches the terminal, whatever the renderer.
    @Test func printedLinesOfARecordingAreSanitized() async throws {
        let recording = WaitAlertRecording(
            #"{"v":1,"event":"log","time":0,"line":"\u001b]0;pwned\u0007title \u001b[?1049hscreen\u001b[31m red\nnext"}"#
        )
        let bed = WaitAlertTestBed(timing: .terminal)
        await bed.play(recording)
        #expect(bed.recorder.printed == ["title screen red", "next"])
    }

    /// Cancelling the task that plays a recording ends the playing and the alerts it opened.
    @Test func cancellingThePlayingEndsItsAlerts() async throws {
        let recording = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":1,"time":0,"title":"Long"}
            {"v":1,"event":"text","id":1,"time":60,"text":"never"}
            """)
        let bed = WaitAlertTestBed(timing: .terminal)
        let presenter = bed.presenter
        let playing = bed.start { await presenter.play(recording) }
        await bed.advance(to: .seconds(2))
        playing.cancel()
        try await bed.run(until: playing)
        await bed.run()
        #expect(!bed.recorder.texts.contains("never"))
        #expect(bed.recorder.latest?.outcome == .cancelled)
        #expect(bed.now < .seconds(60))
    }

    /// No speed, however odd, fails to play or overflows: a speed that is not positive plays at
    /// the original pace, an infinite one at once.
    @Test(arguments: [0, -3, Double.nan, 1e-300, Double.infinity])
    func oddSpeedsPlay(_ speed: Double) async throws {
        let recording = WaitAlertRecording(
            """
            {"v":1,"event":"start","id":1,"time":0,"title":"Job"}
            {"v":1,"event":"end","id":1,"time":3,"outcome":"success","text":"Done"}
            """)
        let bed = WaitAlertTestBed(timing: .terminal)
        let presenter = bed.presenter
        let playing = bed.start { await presenter.play(recording, speed: speed) }
        if speed == .infinity {
            try await bed.run(until: playing)
            #expect(bed.now == .zero, "every event at once")
        } else if speed > 0 {
            await bed.advance(to: .seconds(4))
            playing.cancel()  // the end is a century away
            try await bed.run(until: playing)
            #expect(bed.recorder.latest?.outcome == .cancelled)
        } else {
            try await bed.run(until: playing)
            #expect(bed.now == .seconds(3), "at the original pace")
            #expect(bed.recorder.latest?.outcome == .success("Done"))
        }
        await bed.run()
    }
}

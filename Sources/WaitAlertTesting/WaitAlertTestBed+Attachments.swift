import Testing
import WaitAlert

extension WaitAlertTestBed {
    /// One file of what the bed showed: its name (after the test's) and its contents.
    package struct Shown: Sendable, Equatable {
        package var name: String
        package var contents: String
    }

    /// What the bed showed, as the files it attaches to a failing test:
    ///
    /// - `wait-alert-events.ndjson`: the event stream of its alerts, as ``EventStreamRenderer``
    ///   writes it for `WAIT_ALERT_PROGRESS=json`;
    /// - `wait-alert-recorded.txt`: what ``recorder`` saw, each change at its time on ``clock``;
    /// - `wait-alert-screen.txt`, when it draws on an ``InMemoryTerminal`` (a `TerminalOverlay`,
    ///   a `LineRenderer` or an `EventStreamRenderer` among its renderers): each such terminal's
    ///   screen, its cursor, and its transcript.
    package var whatItShowed: [Shown] {
        var shown = [
            Shown(name: "wait-alert-events.ndjson", contents: eventStream),
            Shown(name: "wait-alert-recorded.txt", contents: recorded),
        ]
        if !terminals.isEmpty { shown.append(Shown(name: "wait-alert-screen.txt", contents: screens)) }
        return shown
    }

    /// Attaches ``whatItShowed`` to the current test, named after it
    /// (`importShowsEachStep.wait-alert-events.ndjson`), at the line that made the bed; once.
    /// Outside a test, it does nothing.
    package func attachWhatItShowed() {
        guard !hasAttached, let test = Test.current else { return }
        hasAttached = true
        let prefix = Self.fileName(forTestNamed: test.name)
        for file in whatItShowed {
            TestIssues.attach(file.contents, named: "\(prefix).\(file.name)", sourceLocation: madeAt)
        }
    }

    /// Records `message` as an issue at `sourceLocation`, and attaches what the bed showed: at
    /// the end of the test when it runs under ``TestBedAttachmentsTrait`` (which sees the issue),
    /// else now.
    func recordIssue(_ message: String, sourceLocation: SourceLocation) {
        TestIssues.record(message, sourceLocation: sourceLocation)
        if attachmentsScope == nil { attachWhatItShowed() }
    }

    /// A file name for the attachments of the test named `testName`: its name up to the
    /// parameters (`importShowsEachStep()` gives `importShowsEachStep`), without a path separator.
    package static func fileName(forTestNamed testName: String) -> String {
        let name = testName.prefix { $0 != "(" }
        let safe = String(name.map { "/\\:".contains($0) ? "-" : $0 })
        return safe.isEmpty ? "test" : safe
    }

    // MARK: - The files

    /// The event stream of the recorded alerts: the recorder's calls, at their instants, played
    /// through an ``EventStreamRenderer``.
    private var eventStream: String {
        let sink = InMemoryTerminal(columns: 1_000, rows: 1, isInteractive: false)
        let stream = EventStreamRenderer(terminal: sink, wallClock: { nil })
        for (event, instant) in zip(recorder.events, recorder.instants) {
            switch event {
            case .snapshot(let snapshot, let alert): stream.render(snapshot, of: alert, at: instant)
            case .log(let line, let alert): stream.log(line, from: alert)
            case .printed(let line, let output): _ = stream.print(line, to: output)
            case .suspended, .resumed: break
            }
            stream.flush(at: instant)
        }
        return String(decoding: sink.output, as: UTF8.self)
    }

    /// What the recorder saw, a line for each change: an alert's phase, text, progress or
    /// ending (spinner frames left out), a log line, a printed line.
    private var recorded: String {
        let alerts = recorder.alerts
        var lines = [
            "What the test bed's recorder saw: \(alerts.count) alert\(alerts.count == 1 ? "" : "s"), "
                + "times on the bed's clock (now \(Self.seconds(now))).",
            "Texts shown: " + recorder.texts.map { "\"\($0)\"" }.joined(separator: ", "),
            "",
        ]
        var last: [WaitAlertID: String] = [:]
        for (event, instant) in zip(recorder.events, recorder.instants) {
            let time = Self.seconds(instant).padded(to: 9)
            switch event {
            case .snapshot(let snapshot, let alert):
                let change = Self.describe(snapshot)
                guard last[alert] != change else { continue }
                let parent = last[alert] == nil ? snapshot.parent.map { " (in \($0))" } ?? "" : ""
                last[alert] = change
                lines.append("\(time)\(alert)\(parent): \(change)")
            case .log(let line, let alert): lines.append("\(time)\(alert) logged \"\(line)\"")
            case .printed(let line, let output):
                let name = output == .standardOutput ? "standard output" : "standard error"
                lines.append("\(time)printed on \(name): \"\(line)\"")
            case .suspended: lines.append("\(time)suspended")
            case .resumed: lines.append("\(time)resumed")
            }
        }
        if recorder.events.isEmpty { lines.append("(nothing: no alert was shown, no line printed)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each in-memory terminal's screen, framed, with its cursor, and its transcript.
    private var screens: String {
        terminals.enumerated().map { index, terminal in
            let heading = terminals.count == 1 ? "" : "Terminal \(index + 1) of \(terminals.count)\n"
            return heading + terminal.description + "\n\nTranscript (the scrollback, then the screen):\n"
                + terminal.transcript.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// `visible "Loading…" 3/10`, `ended: failure "Importing: disk full"`, `gone`.
    private static func describe(_ snapshot: WaitAlertSnapshot) -> String {
        if snapshot.phase == .gone { return "gone" }
        var text = "\(snapshot.phase) \"\(snapshot.text)\""
        if let progress = snapshot.progress {
            text += " \(progress.completed)" + (progress.total.map { "/\($0)" } ?? "")
        }
        if let outcome = snapshot.outcome {
            text += ", ended: \(name(of: outcome))" + (snapshot.finalText.map { " \"\($0)\"" } ?? "")
        }
        return text
    }

    private static func name(of outcome: WaitAlertOutcome) -> String {
        switch outcome {
        case .success: "success"
        case .failure: "failure"
        case .cancelled: "cancelled"
        case .timedOut: "timed out"
        case .dismissed: "dismissed"
        case .skipped: "skipped"
        case .warning: "warning"
        case .info: "info"
        }
    }

    /// `1.250s`.
    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "\(milliseconds / 1_000).\(String(milliseconds % 1_000 + 1_000).dropFirst())s"
    }

    /// The in-memory terminals `renderers` draw on, each once.
    static func inMemoryTerminals(of renderers: [any WaitAlertRenderer]) -> [InMemoryTerminal] {
        var found: [InMemoryTerminal] = []
        for renderer in renderers {
            let terminal: (any WaitAlertTerminal)? =
                switch renderer {
                case let overlay as TerminalOverlay: overlay.terminal
                case let lines as LineRenderer: lines.terminal
                case let stream as EventStreamRenderer: stream.terminal
                default: nil
                }
            if let terminal = terminal as? InMemoryTerminal, !found.contains(where: { $0 === terminal }) {
                found.append(terminal)
            }
        }
        return found
    }
}

extension String {
    /// The string padded with spaces to `length` characters (never cut).
    fileprivate func padded(to length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}

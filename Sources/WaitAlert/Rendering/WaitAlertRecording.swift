/// A recorded event stream — the lines `WAIT_ALERT_PROGRESS=json` or an ``EventStreamRenderer``
/// wrote — ready to play again with ``WaitAlertPresenter/play(_:speed:)``.
///
/// Reading never fails: a line that is not an event of a version this library knows is skipped
/// and its number kept in ``skippedLines``; blank lines are ignored. Events without a `time` (a
/// line written by hand) happen with the event before them.
public struct WaitAlertRecording: Sendable {
    /// The events, in the order they were written.
    let events: [WaitAlertEvent.Received]
    /// The numbers (counted from 1) of the lines that are not events.
    public let skippedLines: [Int]

    /// Reads a recording: the text of a file of JSON lines, one event a line.
    public init(_ text: some StringProtocol) {
        var events: [WaitAlertEvent.Received] = []
        var skipped: [Int] = []
        var time = Duration.zero
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // A byte-order mark some editors put first is no part of the line.
            let line = index == 0 && line.first == "\u{FEFF}" ? line.dropFirst() : line
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard var event = WaitAlertEvent.received(String(line)) else {
                skipped.append(index + 1)
                continue
            }
            time = max(time, event.time ?? time)
            event.time = time
            events.append(event)
        }
        self.events = events
        skippedLines = skipped
    }

    /// How many events the recording holds.
    public var eventCount: Int { events.count }

    /// When its last event happened: how long it plays at its original pace.
    public var duration: Duration { events.last?.time ?? .zero }
}

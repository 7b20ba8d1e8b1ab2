/// A recorded event stream — the lines `WAIT_ALERT_PROGRESS=json` or an ``EventStreamRenderer``
/// wrote — ready to play again with ``WaitAlertPresenter/play(_:speed:)``.
///
/// Reading never fails: a line that is not an event of a version this library knows is skipped
/// and its number kept in ``skippedLines``; blank lines are ignored. Events without a `time` (a
/// line written by hand) happen with the event before them. A text that holds several streams one
/// after another — runs appended to one file, files joined with `cat` — is read as their merge
/// (``init(merging:)``): each event that says when its stream began (`began`) after the first
/// event starts another stream.
public struct WaitAlertRecording: Sendable {
    /// The events, in the order they were written.
    let events: [WaitAlertEvent.Received]
    /// The numbers (counted from 1) of the lines that are not events.
    public let skippedLines: [Int]
    /// When the stream began on the wall clock, in seconds since 1970 (its first line's
    /// `began`); `nil` for a stream that does not say.
    public let began: Double?

    /// Reads a recording: the text of a file of JSON lines, one event a line.
    public init(_ text: some StringProtocol) {
        var streams: [[WaitAlertEvent.Received]] = []
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
            if event.began != nil, !events.isEmpty {
                streams.append(events)
                events = []
                time = .zero
            }
            time = max(time, event.time ?? time)
            event.time = time
            events.append(event)
        }
        streams.append(events)
        let read =
            streams.count == 1
            ? WaitAlertRecording(events: events)
            : WaitAlertRecording(merging: streams.map(WaitAlertRecording.init(events:)))
        self.events = read.events
        skippedLines = skipped
        began = read.began
    }

    /// One stream's events, read already.
    private init(events: [WaitAlertEvent.Received]) {
        self.events = events
        skippedLines = []
        began = events.lazy.compactMap(\.began).first
    }

    /// The streams of `recordings` — written on several machines, or by several programs — as
    /// one, each event at its time on the wall clock: a stream that says when it began
    /// (``began``) is placed there; one that does not begins with the earliest. Ids stay each
    /// stream's own (they are numbered again so that none meets another's), and events of the
    /// same time keep their order, the earlier recording's first. The skipped lines are the
    /// first recording's.
    public init(merging recordings: [WaitAlertRecording]) {
        let origin = recordings.compactMap(\.began).min()
        var merged: [(time: Duration, source: Int, index: Int, event: WaitAlertEvent.Received)] = []
        var ids: [Int: [UInt64: UInt64]] = [:]
        var next: UInt64 = 1
        func renumbered(_ id: UInt64?, of source: Int) -> UInt64? {
            guard let id else { return nil }
            if let known = ids[source]?[id] { return known }
            defer { next += 1 }
            ids[source, default: [:]][id] = next
            return next
        }
        for (source, recording) in recordings.enumerated() {
            let offset =
                origin.flatMap { origin in
                    recording.began.map { Duration.milliseconds(Int64((($0 - origin) * 1000).rounded())) }
                } ?? .zero
            for (index, var event) in recording.events.enumerated() {
                event.time = (event.time ?? .zero) + offset
                event.id = renumbered(event.id, of: source)
                event.parent = renumbered(event.parent, of: source)
                event.began = nil
                merged.append((event.time ?? .zero, source, index, event))
            }
        }
        merged.sort { ($0.time, $0.source, $0.index) < ($1.time, $1.source, $1.index) }
        events = merged.map(\.event)
        skippedLines = recordings.first?.skippedLines ?? []
        began = origin
    }

    /// How many events the recording holds.
    public var eventCount: Int { events.count }

    /// When its last event happened: how long it plays at its original pace.
    public var duration: Duration { events.last?.time ?? .zero }
}

/// One event of what alerts do, as the event stream tells it: an alert or child task starts, shows
/// a new text, reports progress, logs a line, ends.
///
/// ``EventStreamRenderer`` writes each event as one line of JSON (``jsonLine``), the stream's
/// schema, version ``schemaVersion``:
///
/// ```json
/// {"v":1,"event":"start","id":4,"time":0.000,"title":"Building…"}
/// {"v":1,"event":"start","id":5,"parent":4,"time":0.012,"title":"Compiling Core"}
/// {"v":1,"event":"progress","id":5,"time":0.520,"completed":12,"total":40,"unit":"files"}
/// {"v":1,"event":"text","id":4,"time":1.000,"text":"Linking…"}
/// {"v":1,"event":"log","id":5,"time":1.204,"line":"warning: unused variable"}
/// {"v":1,"event":"end","id":5,"time":2.310,"outcome":"success","text":"Compiling Core","elapsed":2.298}
/// ```
///
/// Every line has `v` (the schema version), `event`, `time` (seconds since the stream began,
/// to the millisecond) and, but for a line the program printed around the alerts and a question
/// it asks, `id` (unique within the stream). A `start` names the `parent` of a child task. Text fields carry what was
/// reported, escaped as JSON strings, without the sanitizing a terminal applies.
public struct WaitAlertEvent: Sendable, Hashable {
    /// The version of the schema ``jsonLine`` writes, its `v`. A reader ignores fields it does not
    /// know; a new version is made only for a change a reader written for this one would misread.
    public static let schemaVersion = 1

    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The alert began, showing `title` (`"event":"start","title":…`).
        case start(title: String)
        /// The alert's text changed (`"event":"text","text":…`).
        case text(String)
        /// The work reported how far it has gone (`"event":"progress","completed":…`, `"total"`
        /// when known, `"unit"`: `count`, `bytes`, `binaryBytes` or the name of the caller's unit).
        case progress(completed: Int, total: Int?, unit: WaitAlertProgressUnit)
        /// The work no longer knows how far it has gone (`"event":"progress","completed":null`).
        case progressUnknown
        /// The work says it is failing while it goes on, or no longer (`"event":"failing",
        /// "failing":true`): a command's `OSC 9;4;2` under `wait-alert`.
        case failing(Bool)
        /// Cancelling the work was asked for (`"event":"cancelling"`) — Ctrl-C, a cancelled task,
        /// a failed sibling — and the work goes on until it notices; its `end` follows.
        case cancelling
        /// A log line (`"event":"log","line":…`); without an alert, a line the program printed
        /// around the alerts.
        case log(String)
        /// The alert ended (`"event":"end","outcome":…`, `success`, `failure`, `cancelled`,
        /// `timedOut`, `dismissed`, `skipped`, `warning` or `info`; `"text"`, its final message, when it has one;
        /// `"reason"`, a skip's reason; `"elapsed"`, how long the work ran, in seconds).
        case end(outcome: WaitAlertOutcome, text: String?, elapsed: Duration)
        /// The program asks a question and waits for its answer on standard input
        /// (`"event":"question","title":…`; see ``Question``). The answer follows as a `log`
        /// line without an `id`, the line a terminal keeps: `? Upload failed: Skip`.
        case question(Question)
    }

    /// A question the program asks, as the stream tells it: `"title"`; `"message"` when it has
    /// one; `"kind"`: `text`, `choice` or `confirmation`; `"buttons"`, a choice's (or a
    /// confirmation's) buttons in order; `"default"`, the text or the button an empty answer
    /// takes, when there is one; `"secret":true` for a text that is not shown.
    ///
    /// ```json
    /// {"v":1,"event":"question","time":1.204,"title":"Upload failed","message":"The server did not answer.","kind":"choice","buttons":["Retry","Skip","Abort"],"default":"Retry"}
    /// {"v":1,"event":"log","time":3.518,"line":"? Upload failed: Skip"}
    /// ```
    public struct Question: Sendable, Hashable {
        /// What kind of answer it takes.
        public enum Kind: String, Sendable, Hashable {
            /// A line of text.
            case text
            /// One of its buttons, by number or title.
            case choice
            /// Yes or no.
            case confirmation
        }

        public var title: String
        public var message: String?
        public var kind: Kind
        /// The buttons' titles, in order; none for a text.
        public var buttons: [String]
        /// The text, or the title of the button, that an empty answer takes.
        public var defaultAnswer: String?
        /// Whether the text typed is not shown (a password); its answer is logged as `********`.
        public var isSecret: Bool

        /// Makes a question.
        public init(
            title: String, message: String? = nil, kind: Kind, buttons: [String] = [], defaultAnswer: String? = nil,
            isSecret: Bool = false
        ) {
            self.title = title
            self.message = message
            self.kind = kind
            self.buttons = buttons
            self.defaultAnswer = defaultAnswer
            self.isSecret = isSecret
        }
    }

    /// What happened.
    public var kind: Kind
    /// The alert it happened to; `nil` for a line the program printed around the alerts.
    public var alert: WaitAlertID?
    /// The alert's parent, for the `start` of a child task.
    public var parent: WaitAlertID?
    /// When it happened: the time since the stream began.
    public var time: Duration
    /// On the first event of a stream: when the stream began, on the wall clock, in seconds since
    /// 1970-01-01 00:00 UTC (`"began":1795933738.512`), so that streams written on several
    /// machines can be merged and played in order. `nil` on every other event.
    public var began: Double?

    /// Makes an event.
    public init(_ kind: Kind, alert: WaitAlertID?, parent: WaitAlertID? = nil, time: Duration) {
        self.kind = kind
        self.alert = alert
        self.parent = parent
        self.time = time
    }

    /// The event as one line of JSON, without the line feed.
    public var jsonLine: String {
        var line = "{\"v\":\(Self.schemaVersion),\"event\":\"\(name)\""
        if let alert { line += ",\"id\":\(alert.rawValue)" }
        if let parent { line += ",\"parent\":\(parent.rawValue)" }
        line += ",\"time\":" + JSONText.seconds(time)
        if let began, began.isFinite, began >= 0, began < 1e11 {
            line += ",\"began\":" + JSONText.seconds(.milliseconds(Int64((began * 1000).rounded())))
        }
        switch kind {
        case .start(let title): line += ",\"title\":" + JSONText.quoted(title)
        case .text(let text): line += ",\"text\":" + JSONText.quoted(text)
        case .progress(let completed, let total, let unit):
            line += ",\"completed\":\(completed)"
            if let total { line += ",\"total\":\(total)" }
            line += ",\"unit\":" + JSONText.quoted(Self.name(of: unit))
        case .progressUnknown: line += ",\"completed\":null"
        case .failing(let failing): line += ",\"failing\":\(failing)"
        case .cancelling: break
        case .log(let text): line += ",\"line\":" + JSONText.quoted(text)
        case .end(let outcome, let text, let elapsed):
            line += ",\"outcome\":\"\(Self.name(of: outcome))\""
            if let text { line += ",\"text\":" + JSONText.quoted(text) }
            if case .skipped(let reason?) = outcome { line += ",\"reason\":" + JSONText.quoted(reason) }
            line += ",\"elapsed\":" + JSONText.seconds(elapsed)
        case .question(let question):
            line += ",\"title\":" + JSONText.quoted(question.title)
            if let message = question.message { line += ",\"message\":" + JSONText.quoted(message) }
            line += ",\"kind\":\"\(question.kind.rawValue)\""
            if !question.buttons.isEmpty {
                line += ",\"buttons\":[" + question.buttons.map(JSONText.quoted).joined(separator: ",") + "]"
            }
            if let answer = question.defaultAnswer { line += ",\"default\":" + JSONText.quoted(answer) }
            if question.isSecret { line += ",\"secret\":true" }
        }
        return line + "}"
    }

    /// The `event` field.
    private var name: String {
        switch kind {
        case .start: "start"
        case .text: "text"
        case .progress, .progressUnknown: "progress"
        case .failing: "failing"
        case .cancelling: "cancelling"
        case .log: "log"
        case .end: "end"
        case .question: "question"
        }
    }

    /// The `unit` field: a named unit goes by its name.
    static func name(of unit: WaitAlertProgressUnit) -> String {
        switch unit {
        case .count: "count"
        case .bytes: "bytes"
        case .binaryBytes: "binaryBytes"
        case .named(let name): name
        }
    }

    /// The `outcome` field.
    static func name(of outcome: WaitAlertOutcome) -> String {
        switch outcome {
        case .success: "success"
        case .failure: "failure"
        case .cancelled: "cancelled"
        case .timedOut: "timedOut"
        case .dismissed: "dismissed"
        case .skipped: "skipped"
        case .warning: "warning"
        case .info: "info"
        }
    }
}

extension WaitAlertEvent {
    /// An event read from a line another process wrote: its kind, and the alert ids as that
    /// process numbered them (`nil` for the alert the process reports into).
    package struct Received: Hashable, Sendable {
        var kind: Kind
        var id: UInt64?
        var parent: UInt64?
        /// When the event happened, since the stream began; `nil` when the line gives no time
        /// (a line a script wrote by hand), or one that is negative or beyond 10⁹ seconds.
        var time: Duration? = nil
        /// When the stream began on the wall clock (seconds since 1970), on its first line.
        var began: Double? = nil
    }

    /// Reads one line of the stream written by another process (``jsonLine``, or a line a script
    /// wrote by hand): `nil` when it is not a JSON object, names no event this version knows, has
    /// a newer `v`, or lacks a field its event needs. Texts longer than `limit` characters are
    /// cut.
    package static func received(_ line: String, limit: Int = 4096) -> Received? {
        guard let fields = JSONText.object(line) else { return nil }
        if let version = fields["v"] {
            guard let number = version.integer, (1...schemaVersion).contains(number) else { return nil }
        }
        func text(_ name: String) -> String? { fields[name]?.string.map { String($0.prefix(limit)) } }
        func number(_ name: String) -> UInt64?? {
            guard let value = fields[name], value != .null else { return .some(nil) }
            guard let number = value.integer, number >= 0 else { return nil }
            return .some(UInt64(number))
        }
        guard let id = number("id"), let parent = number("parent"), let event = fields["event"]?.string else {
            return nil
        }
        let kind: Kind
        switch event {
        case "start":
            guard let title = text("title") else { return nil }
            kind = .start(title: title)
        case "text":
            guard let value = text("text") else { return nil }
            kind = .text(value)
        case "progress":
            guard let completed = fields["completed"], completed != .null else {
                kind = .progressUnknown
                break
            }
            guard let count = completed.integer else { return nil }
            let total = fields["total"]?.integer
            kind = .progress(completed: count, total: total, unit: Self.unit(named: text("unit")))
        case "log":
            guard let value = text("line") else { return nil }
            kind = .log(value)
        case "failing":
            guard case .bool(let failing) = fields["failing"] else { return nil }
            kind = .failing(failing)
        case "cancelling":
            kind = .cancelling
        case "end":
            guard var outcome = Self.outcome(named: fields["outcome"]?.string, text: text("text")) else { return nil }
            if case .skipped = outcome { outcome = .skipped(text("reason")) }
            kind = .end(outcome: outcome, text: text("text"), elapsed: .zero)
        case "question":
            // Read so that a recording with questions plays (its answers are log lines); the
            // players ask nothing, and the buttons are not read.
            guard let title = text("title"), let asked = Question.Kind(rawValue: fields["kind"]?.string ?? "") else {
                return nil
            }
            kind = .question(
                Question(
                    title: title, message: text("message"), kind: asked, defaultAnswer: text("default"),
                    isSecret: fields["secret"] == .bool(true)))
        default:
            return nil
        }
        var time: Duration?
        if case .number(let seconds) = fields["time"], seconds >= 0, seconds <= 1e9 {
            time = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        var began: Double?
        if case .number(let seconds) = fields["began"], seconds >= 0, seconds < 1e11 { began = seconds }
        return Received(kind: kind, id: id, parent: parent, time: time, began: began)
    }

    /// The largest count or total a line another process wrote carries (a larger one makes the
    /// line not an event).
    package static let largestNumber = JSONText.largestInteger

    /// The unit a `unit` field names; a name of no built-in unit is the caller's own.
    package static func unit(named name: String?) -> WaitAlertProgressUnit {
        switch name {
        case nil, "count": .count
        case "bytes": .bytes
        case "binaryBytes": .binaryBytes
        case let name?: .named(name)
        }
    }

    /// The outcome an `outcome` field names, with the final `text` where the outcome carries one.
    static func outcome(named name: String?, text: String?) -> WaitAlertOutcome? {
        switch name {
        case "success": .success(text)
        case "failure": .failure(text ?? "failed")
        case "cancelled": .cancelled
        case "timedOut": .timedOut
        case "dismissed": .dismissed
        case "skipped": .skipped(nil)
        case "warning": .warning(text ?? "")
        case "info": .info(text ?? "")
        default: nil
        }
    }
}

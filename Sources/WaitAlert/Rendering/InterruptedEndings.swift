/// What a forced exit leaves of the alerts it interrupts — a second Ctrl-C while cancelled work
/// still runs ends the program at once — and what the display says meanwhile.
///
/// A pure record fed the snapshots of a presenter's alerts: the top-level wait alerts whose work
/// still runs, each with its title and the instant it began, in the order they began. Each leaves
/// the final line `⚠ Building: interrupted after 3.1s` at a forced exit, the time told by whoever
/// writes it then; the text up to the time is ``Ending/text``.
struct InterruptedEndings {
    /// The final line of one interrupted alert, up to how long its work ran.
    struct Ending: Hashable {
        /// `⚠ Building: interrupted after `.
        var text: String
        /// When the alert began, on the clock of the snapshots' instants.
        var began: Duration
    }

    /// What the display says while cancelled work goes on and one more Ctrl-C would end the
    /// program.
    static let hint = "Press Ctrl-C again to quit"

    private var titles: [WaitAlertID: (title: String, began: Duration)] = [:]
    /// The alerts whose work runs, in the order they began (their ids).
    private var running: [WaitAlertID] = []

    init() {}

    /// Takes `snapshot` of `alert` at `instant`.
    mutating func apply(_ snapshot: WaitAlertSnapshot, of alert: WaitAlertID, at instant: Duration) {
        guard snapshot.parent == nil, snapshot.kind == .waitAlert else { return }
        if titles[alert] == nil { titles[alert] = (TextSanitizer.line(snapshot.text), instant) }
        let runs = snapshot.outcome == nil && snapshot.phase < .lingering
        if runs, !running.contains(alert) {
            running.insert(alert, at: running.firstIndex { $0 > alert } ?? running.endIndex)
        } else if !runs {
            running.removeAll { $0 == alert }
        }
        if snapshot.phase == .gone { titles[alert] = nil }
    }

    /// The final lines a forced exit leaves now, oldest alert first.
    var endings: [Ending] {
        running.compactMap { alert in
            guard let entry = titles[alert] else { return nil }
            let name = WaitAlertOutcome.name(fromTitle: entry.title)
            let text = "⚠ " + (name.isEmpty ? "Interrupted" : name + ": interrupted") + " after "
            return Ending(text: text, began: entry.began)
        }
    }
}

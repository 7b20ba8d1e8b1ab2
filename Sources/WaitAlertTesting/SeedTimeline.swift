package import WaitAlert

/// The classic wait alert's timeline, the one the demo plays: "Doing Something", three progress
/// texts a second apart, then "Done" at 4.5 s. One fixture for every test that plays it.
package enum SeedTimeline {
    /// The first text.
    package static let title = "Doing Something"
    /// The progress texts and when they are reported.
    package static let updates: [(at: Duration, text: String)] = [
        (.seconds(1), "Getting there…"), (.seconds(2), "Really…"), (.seconds(3), "Just about there…"),
    ]
    /// When the work ends, and its final text.
    package static let end: (at: Duration, text: String) = (.milliseconds(4500), "Done")

    /// Every text shown, in order.
    package static var texts: [String] { [title] + updates.map(\.text) + [end.text] }

    /// The reports as timeline events, at their instants.
    package static var events: [(at: Duration, event: WaitAlertTimeline.Event)] {
        updates.map { ($0.at, .update($0.text)) } + [(end.at, .finish(.success(end.text)))]
    }
}

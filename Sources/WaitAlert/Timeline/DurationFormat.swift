/// Short, human durations for final messages.
enum DurationFormat {
    /// `0.4s`, `1.2s`, `12.0s`, `2m 5s`, `3h 12m`: one decimal below a minute, whole seconds below
    /// an hour, whole minutes above.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = max(duration.attoseconds / 1_000_000_000_000_000, 0)
        let tenths = (milliseconds + 50) / 100
        guard tenths >= 600 else { return "\(tenths / 10).\(tenths % 10)s" }
        let seconds = (milliseconds + 500) / 1000
        guard seconds >= 3600 else { return "\(seconds / 60)m \(seconds % 60)s" }
        let minutes = (seconds + 30) / 60
        return "\(minutes / 60)h \(minutes % 60)m"
    }
}

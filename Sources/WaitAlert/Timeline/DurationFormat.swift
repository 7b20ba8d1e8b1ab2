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

    /// `5s`, `1m03s`, `2h05m`: how long something has been running, in whole seconds, so that a
    /// live row changes once a second at most.
    static func elapsed(_ duration: Duration) -> String {
        let seconds = max(Int(duration.components.seconds), 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m\(two(seconds % 60))s" }
        return "\(seconds / 3600)h\(two(seconds / 60 % 60))m"
    }
}

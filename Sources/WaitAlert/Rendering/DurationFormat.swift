/// Short, human durations for final lines.
enum DurationFormat {
    /// `0.4s`, `1.2s`, `12.0s`, `2m 5s`: one decimal below a minute, whole seconds above.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.attoseconds / 1_000_000_000_000_000
        let tenths = (milliseconds + 50) / 100
        guard tenths < 600 else {
            let seconds = (milliseconds + 500) / 1000
            return "\(seconds / 60)m \(seconds % 60)s"
        }
        return "\(tenths / 10).\(tenths % 10)s"
    }
}

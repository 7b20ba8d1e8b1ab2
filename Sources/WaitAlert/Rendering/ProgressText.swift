/// How progress reads as text, the same for every renderer: the count (`12/40`, `1.2 MB / 4.0 MB`,
/// `12/40 files`), the percentage, the rate (`3.4 MB/s`), the time left (`12s left`, `~3m left`,
/// `>1h left`), and a bar of eighth-block cells (`#` and `-` where the terminal cannot show them).
///
/// A total of zero or less reads as no total: the count alone, no percentage, no time left.
package enum ProgressText {
    /// `12/40`, `1.2 MB / 4.0 MB`, `12/40 files`; without a total, the count alone.
    static func count(_ progress: WaitAlertProgress) -> String {
        let total = progress.knownTotal
        switch progress.unit {
        case .count:
            return total.map { "\(progress.completed)/\($0)" } ?? "\(progress.completed)"
        case .named(let name):
            let count = total.map { "\(progress.completed)/\($0)" } ?? "\(progress.completed)"
            return name.isEmpty ? count : "\(count) \(name)"
        case .bytes, .binaryBytes:
            let done = bytes(progress.completed, unit: progress.unit)
            return total.map { "\(done) / \(bytes($0, unit: progress.unit))" } ?? done
        }
    }

    /// `45%`, rounded down so that 100% means done.
    static func percent(_ progress: WaitAlertProgress) -> String? {
        progress.fraction.map { "\(percent(of: $0))%" }
    }

    /// `fraction` in whole percents, rounded down so that 100 means done: 0.58 is 58 (not the 57
    /// of `0.58 * 100` in binary floating point), anything below 1 at most 99.
    static func percent(of fraction: Double) -> Int {
        guard fraction.isFinite, fraction > 0 else { return 0 }
        guard fraction < 1 else { return 100 }
        return min(Int((fraction * 100 + 1e-9).rounded(.down)), 99)
    }

    /// `3.4 MB/s`, `12 files/s`, `2.5/s`; `nil` until the rate is known, and once all is done.
    static func rate(_ progress: WaitAlertProgress) -> String? {
        guard let rate = progress.rate, rate.isFinite, rate > 0, !isComplete(progress) else { return nil }
        switch progress.unit {
        case .bytes, .binaryBytes:
            return bytes(integer(rate.rounded()), unit: progress.unit) + "/s"
        case .count:
            return decimal(rate) + "/s"
        case .named(let name):
            return name.isEmpty ? decimal(rate) + "/s" : "\(decimal(rate)) \(name)/s"
        }
    }

    /// `12s left`, `~3m left`, `>1h left`, `stalled`; `nil` while unknown, and without a total.
    /// Labelled, so it is never read as the elapsed time a row may show next to it (`· 4s`).
    static func remaining(_ progress: WaitAlertProgress) -> String? {
        guard !isComplete(progress) else { return nil }
        return remaining(progress.remaining, knowsTotal: progress.knownTotal != nil)
    }

    /// `12s left`, `stalled`; a time left only when there is a total to count it towards.
    package static func remaining(_ remaining: WaitAlertRateEstimator.Remaining, knowsTotal: Bool) -> String? {
        switch remaining {
        case .unknown: nil
        case .stalled: "stalled"
        case .about(let left): knowsTotal ? Self.remaining(left) + " left" : nil
        }
    }

    /// Whether every unit of a known total is done: nothing is left to estimate.
    private static func isComplete(_ progress: WaitAlertProgress) -> Bool {
        guard let total = progress.knownTotal else { return false }
        return progress.completed >= total
    }

    /// Coarse on purpose, so it does not flicker: whole seconds below a minute (the nearest, at
    /// least 1), `~` whole minutes below an hour, then `>1h`.
    static func remaining(_ left: Duration) -> String {
        guard left < .seconds(3600) else { return ">1h" }
        let left = max(left, .zero)
        let seconds = Int(left.components.seconds) + (left.components.attoseconds >= 500_000_000_000_000_000 ? 1 : 0)
        if seconds < 60 { return "\(max(seconds, 1))s" }
        if seconds < 3600 { return "~\((seconds + 30) / 60)m" }
        return ">1h"
    }

    /// `fraction` as `width` cells of eighth blocks (`█████▌    `), or of `#` and `-`.
    static func bar(_ fraction: Double, width: Int, unicode: Bool) -> String {
        guard width > 0 else { return "" }
        let fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        guard unicode else {
            let full = Int((fraction * Double(width)).rounded(.down))
            return String(repeating: "#", count: full) + String(repeating: "-", count: width - full)
        }
        let eighths = Int((fraction * Double(width * 8)).rounded(.down))
        let full = eighths / 8
        var bar = String(repeating: "█", count: full)
        if full < width {
            let partial = eighths % 8
            bar += partial > 0 ? String(Self.eighths[partial]) : " "
            bar += String(repeating: " ", count: width - full - 1)
        }
        return bar
    }

    /// The partial cells, from one eighth to seven.
    private static let eighths: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// `1.2 MB`, `512 B`, `3.0 GiB`; a count below zero reads as none.
    static func bytes(_ count: Int, unit: WaitAlertProgressUnit) -> String {
        let count = max(count, 0)
        let binary = unit == .binaryBytes
        let base = binary ? 1024.0 : 1000.0
        let names =
            binary ? ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] : ["B", "kB", "MB", "GB", "TB", "PB", "EB"]
        var value = Double(count)
        var index = 0
        while value >= base * 0.9995, index < names.count - 1 {
            value /= base
            index += 1
        }
        return index == 0 ? "\(count) B" : "\(decimal(value, places: 1)) \(names[index])"
    }

    /// `2.5`, `12`, `1,234`-free: one decimal below 10, whole numbers above; held between zero
    /// and `Int.max`, so no value reads as a crash.
    static func decimal(_ value: Double, places: Int? = nil) -> String {
        let value = value.isNaN ? 0 : max(value, 0)
        let places = places ?? (value < 10 ? 1 : 0)
        guard places > 0 else { return "\(integer(value.rounded()))" }
        let tenths = integer((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `value` as a whole number, held within `Int`'s range.
    private static func integer(_ value: Double) -> Int {
        guard value < 0x1p63 else { return .max }
        return value >= -0x1p63 ? Int(value) : .min
    }

    /// What a row or a plain line shows of some progress, as texts.
    struct Figures: Hashable {
        /// The part done, when known: the percentage and the bar.
        var fraction: Double?
        /// `1.2 MB / 4.0 MB`, `12/40`; the count alone without a total.
        var count: String?
        /// `6s left`, `stalled`.
        var remaining: String?
        /// `1.2 MB/s`.
        var rate: String?
        /// `42/100 tasks`: the tasks a group's fraction counts, when it counts tasks.
        var tasks: String?
    }

    /// The figures of one alert's progress.
    static func figures(_ progress: WaitAlertProgress) -> Figures {
        Figures(
            fraction: progress.fraction, count: count(progress), remaining: remaining(progress),
            rate: rate(progress))
    }

    /// The figures of a group's progress: its fraction; its units done (of their total when it
    /// counts units), their rate; its time left; the tasks done when it counts tasks.
    ///
    /// A group counting tasks whose size is not known yet (more may come than are counted) shows
    /// its counts alone, `12/16+ tasks`: no percentage, no bar, no time left.
    static func figures(_ group: WaitAlertGroupProgress) -> Figures {
        let done = group.fraction >= 1
        let unsized = group.basis == .tasks && group.hasUncountedTasks
        return Figures(
            fraction: unsized ? nil : min(max(group.fraction.isFinite ? group.fraction : 0, 0), 1),
            count: group.units.map(count),
            remaining: done || unsized ? nil : remaining(group.remaining, knowsTotal: true),
            rate: done ? nil : group.units.flatMap(rate),
            tasks: group.basis == .tasks
                ? "\(group.finishedTasks)/\(group.tasks)\(group.hasUncountedTasks ? "+" : "") tasks" : nil)
    }

    /// The figures of a snapshot: its group's progress when it has one, else its own; `nil` when
    /// it says nothing of how far it has gone.
    static func figures(of snapshot: WaitAlertSnapshot) -> Figures? {
        snapshot.groupProgress.map(figures) ?? snapshot.progress.map(figures)
    }

    /// `45%`, rounded down so that 100% means done.
    static func percent(_ figures: Figures) -> String? {
        figures.fraction.map { "\(percent(of: $0))%" }
    }

    /// A row's progress within `room` cells, as for its figures.
    static func row(_ progress: WaitAlertProgress, room: Int, barWidth: Int, unicode: Bool) -> String {
        row(figures(progress), room: room, barWidth: barWidth, unicode: unicode)
    }

    /// A row's progress within `room` cells, the most useful pieces first: the percentage (or the
    /// count without a total), the bar, the time left, the count, the rate —
    /// ` ▕█████▌    ▏ 45% · ~3m left · 18/40 · 2.1/s`. The bar has as many cells as `barWidth` when
    /// they fit, so a row does not jump from frame to frame.
    static func row(_ figures: Figures, room: Int, barWidth: Int, unicode: Bool) -> String {
        var pieces: [(order: Int, text: String)] = []
        var used = 0
        func add(_ order: Int, _ text: String?) {
            guard let text else { return }
            let width = DisplayWidth.of(text) + (pieces.isEmpty ? 1 : 3)
            guard used + width <= room else { return }
            used += width
            pieces.append((order, text))
        }
        let percent = percent(figures)
        add(1, percent ?? figures.count)
        if let fraction = figures.fraction, barWidth > 0 {
            let caps = unicode ? ("▕", "▏") : ("[", "]")
            let cells = min(barWidth, room - used - 3)
            if cells >= 4 { add(0, caps.0 + bar(fraction, width: cells, unicode: unicode) + caps.1) }
        }
        add(2, figures.remaining)
        if percent != nil { add(3, figures.count) }
        add(4, figures.rate)
        let sorted = pieces.sorted { $0.order < $1.order }
        guard let first = sorted.first else { return "" }
        // The bar and the figure after it are one piece: a space between them, dots after.
        var text = " " + first.text
        for (index, piece) in sorted.enumerated().dropFirst() {
            text += index == 1 && first.order == 0 ? " " + piece.text : " · " + piece.text
        }
        return text
    }

    /// The whole progress as one plain line's tail: `45% (1.8 MB / 4.0 MB, 1.2 MB/s, ~3m left)`.
    static func summary(_ progress: WaitAlertProgress) -> String {
        summary(figures(progress))
    }

    /// The figures as one plain line's tail: `45% (1.8 MB / 4.0 MB, 1.2 MB/s, ~3m left)`, or for
    /// a group counting tasks `45% (42/100 tasks, 93.1 MB, 14.2 MB/s, ~3m left)`.
    static func summary(_ figures: Figures) -> String {
        let details = [figures.tasks, figures.count, figures.rate, figures.remaining].compactMap { $0 }
        let inside = details.joined(separator: ", ")
        guard let percent = percent(figures) else { return inside }
        return details.isEmpty ? percent : "\(percent) (\(inside))"
    }
}

/// Progress in the terminal's tab or the taskbar (`OSC 9;4`), where the terminal is known to
/// support it.
///
/// Supported by Windows Terminal, ConEmu, Ghostty from 1.2, WezTerm, VTE-based terminals and
/// iTerm2 from 3.6.6 — and nowhere else on purpose: older iTerm2 versions turn each `OSC 9` into a
/// desktop notification, and tmux and screen pass it to whatever terminal they run in. The
/// environment decides (`WT_SESSION`, `ConEmuANSI=ON`, `TERM_PROGRAM` and its version,
/// `VTE_VERSION`); `WAIT_ALERT_TASKBAR=on|off|auto` overrides it. Only the overlay on standard
/// error reads the environment: on another terminal `.auto` is off.
///
/// The overlay shows the top-level alert's progress: indeterminate once it appears, the
/// percentage when known (at most four times a second, and only when it changes), an error while
/// a group has failed tasks, and clears it when the alert ends — also on Ctrl-C, `SIGTERM`,
/// `exit()` and Ctrl-Z.
public enum TaskbarProgress: Sendable, Hashable {
    /// Where the environment shows it is supported (the default).
    case auto
    /// Always, on an interactive terminal.
    case on
    /// Never.
    case off

    /// Whether to emit it on an interactive terminal (never on anything else), given the
    /// environment.
    func isEnabled(environment: [String: String], isInteractive: Bool) -> Bool {
        guard isInteractive else { return false }
        var policy = self
        switch environment["WAIT_ALERT_TASKBAR"]?.lowercased() {
        case "on", "1", "yes": policy = .on
        case "off", "0", "no": policy = .off
        case "auto": policy = .auto
        default: break
        }
        switch policy {
        case .on: return true
        case .off: return false
        case .auto: return Self.isSupported(environment)
        }
    }

    /// The variables the allowlist reads.
    static let variables = [
        "WAIT_ALERT_TASKBAR", "TMUX", "STY", "TERM", "WT_SESSION", "ConEmuANSI", "VTE_VERSION", "TERM_PROGRAM",
        "TERM_PROGRAM_VERSION",
    ]

    /// The allowlist.
    static func isSupported(_ environment: [String: String]) -> Bool {
        func has(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        if has("TMUX") || has("STY") { return false }
        let term = environment["TERM"] ?? ""
        if term.hasPrefix("screen") || term.hasPrefix("tmux") { return false }
        if has("WT_SESSION") { return true }
        if environment["ConEmuANSI"] == "ON" { return true }
        if has("VTE_VERSION") { return true }
        let version = Self.version(environment["TERM_PROGRAM_VERSION"] ?? "")
        switch environment["TERM_PROGRAM"] ?? "" {
        case "WezTerm": return true
        case "ghostty": return version.lexicographicallyPrecedes([1, 2]) == false
        case "iTerm.app": return version.lexicographicallyPrecedes([3, 6, 6]) == false
        default: return false
        }
    }

    /// `"3.6.10beta"` → `[3, 6, 10]`.
    static func version(_ text: String) -> [Int] {
        text.split(separator: ".").map { part in Int(part.prefix { $0.isNumber }) ?? 0 }
    }

    /// The states `OSC 9;4` sets.
    enum State: Hashable {
        case cleared
        case indeterminate
        case percent(Int)
        case error(Int)

        /// `ESC ] 9 ; 4 ; state ; progress ESC \`.
        var sequence: String {
            switch self {
            case .cleared: "\u{1B}]9;4;0;0\u{1B}\\"
            case .indeterminate: "\u{1B}]9;4;3;0\u{1B}\\"
            case .percent(let value): "\u{1B}]9;4;1;\(min(max(value, 0), 100))\u{1B}\\"
            case .error(let value): "\u{1B}]9;4;2;\(min(max(value, 0), 100))\u{1B}\\"
            }
        }
    }
}

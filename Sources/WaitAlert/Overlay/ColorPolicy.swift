/// Whether the terminal overlay uses colours.
///
/// The policy read from the environment (``environment``):
/// 1. `NO_COLOR` set to any non-empty value turns colours off (the animation stays);
/// 2. otherwise `CLICOLOR_FORCE` or `FORCE_COLOR` set to a non-empty value other than `0` turns
///    them on;
/// 3. otherwise colours are on exactly when the overlay draws on an interactive terminal.
///
/// The overlay's plain-line output (pipes, files, `TERM=dumb`) never contains an escape byte,
/// whatever the policy says.
public enum ColorPolicy: Sendable, Hashable {
    /// Decide from `NO_COLOR`, `CLICOLOR_FORCE`/`FORCE_COLOR` and the terminal.
    case environment
    /// Always use colours on an interactive terminal.
    case always
    /// Never use colours.
    case never

    /// Whether colours are on for a terminal that is (or is not) interactive.
    ///
    /// - Parameters:
    ///   - interactive: whether the overlay draws on an interactive terminal.
    ///   - variables: the environment to read; the process's by default.
    package func usesColor(interactive: Bool, variables: [String: String]? = nil) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .environment:
            let value = { (name: String) -> String? in
                if let variables { return variables[name] }
                return Platform.environment(name)
            }
            if let noColor = value("NO_COLOR"), !noColor.isEmpty { return false }
            for name in ["CLICOLOR_FORCE", "FORCE_COLOR"] {
                if let force = value(name), !force.isEmpty, force != "0" { return true }
            }
            return interactive
        }
    }
}

/// The process's environment variables among `names`, read once where needed.
func environmentVariables(_ names: [String]) -> [String: String] {
    var variables: [String: String] = [:]
    for name in names {
        if let value = Platform.environment(name) { variables[name] = value }
    }
    return variables
}

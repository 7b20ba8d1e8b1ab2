/// How plain lines are folded in a CI service's log — GitHub Actions' groups and annotations,
/// GitLab's collapsible sections — and the Markdown summary of a run for GitHub's job page. Pure:
/// it returns the text to write around the lines, given the wall-clock time where the log needs
/// one.
///
/// One top-level alert's lines are folded together. Groups never nest (Actions does not nest
/// them): a line of another top-level alert closes the open group and opens one of its own
/// (`… (continued)` when it had one before). When a top-level alert ends its group is closed
/// first, so what it leaves — its failure, the last log lines of what failed — is written outside
/// any group, where it is not hidden.
package struct LogFolding {
    /// The CI service whose log it is.
    package enum Service: Hashable, Sendable {
        /// GitHub Actions: `::group::`/`::endgroup::`, `::error`/`::warning` annotations.
        case githubActions
        /// GitLab CI: `section_start`/`section_end`, collapsed.
        case gitlab
    }

    let service: Service
    /// The top-level alert whose group is open, and the section's name (GitLab).
    private var open: (alert: WaitAlertID, section: String)?
    /// The top-level alerts that had a group, for `(continued)`.
    private var folded: Set<WaitAlertID> = []
    private var sections = 0

    init(service: Service) {
        self.service = service
    }

    /// What goes before a line of the top-level alert `root`, titled `title`: nothing when its
    /// group is open, else the end of the open one and the start of its own.
    mutating func enter(_ root: WaitAlertID, title: String, unixTime: @autoclosure () -> Int) -> String {
        if open?.alert == root { return "" }
        let time = unixTime()
        var text = close(unixTime: time)
        let again = !folded.insert(root).inserted
        var header = DisplayWidth.truncate(TextSanitizer.line(title), toWidth: 200) + (again ? " (continued)" : "")
        // Actions decodes `%0A` and the like in a command's message: a title says what it says.
        if service == .githubActions { header = Self.escapeData(header) }
        sections += 1
        let section = "wait_alert_\(root.rawValue)_\(sections)"
        open = (root, section)
        switch service {
        case .githubActions:
            text += "::group::\(header)\n"
        case .gitlab:
            text += "\u{1B}[0Ksection_start:\(time):\(section)[collapsed=true]\r\u{1B}[0K\(header)\n"
        }
        return text
    }

    /// What ends the open group, when `root` (or any alert, for `nil`) has it.
    mutating func leave(_ root: WaitAlertID?, unixTime: @autoclosure () -> Int) -> String {
        guard let open, root == nil || open.alert == root else { return "" }
        return close(unixTime: unixTime())
    }

    private mutating func close(unixTime: Int) -> String {
        guard let open else { return "" }
        self.open = nil
        switch service {
        case .githubActions: return "::endgroup::\n"
        case .gitlab: return "\u{1B}[0Ksection_end:\(unixTime):\(open.section)\r\u{1B}[0K\n"
        }
    }

    /// An annotation for a final line that is a failure (`::error`) or a warning (`::warning`),
    /// titled by the alert's name; none for GitLab or any other line.
    func annotation(of final: FinalLine, title: String) -> String {
        guard service == .githubActions else { return "" }
        let command: String
        switch final.tone {
        case .failure: command = "error"
        case .warning: command = "warning"
        default: return ""
        }
        let name = WaitAlertOutcome.name(fromTitle: title)
        let properties = name.isEmpty ? "" : " title=" + Self.escapeProperty(TextSanitizer.line(name))
        let message = Self.withoutName(name, final.body)
        return "::\(command)\(properties)::\(Self.escapeData(TextSanitizer.line(message)))\n"
    }

    /// `text` without `name: ` in front, which a title already says.
    static func withoutName(_ name: String, _ text: String) -> String {
        guard !name.isEmpty, text.hasPrefix(name + ": ") else { return text }
        return String(text.dropFirst(name.count + 2))
    }

    /// `text` (whole lines) with each line that GitHub Actions would read as a workflow command —
    /// it begins with `::` once any leading whitespace is left out (a no-break space too), or holds
    /// `##[`, the older form found anywhere in a line: a hostile file name, a task's log line —
    /// made inert: between `::stop-commands::TOKEN` and `::TOKEN::`, which Actions shows but does
    /// not run. `token` makes a new token each time.
    static func shieldingCommands(
        _ text: String, token: () -> String = { String(UInt64.random(in: 1...UInt64.max), radix: 16) }
    ) -> String {
        guard text.contains("::") || text.contains("##[") else { return text }
        var shielded = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        {
            if line.drop(while: \.isWhitespace).hasPrefix("::") || line.contains("##[") {
                let name = "wait-alert-" + token()
                shielded += "::stop-commands::\(name)\n\(line)\n::\(name)::\n"
            } else {
                shielded += line + "\n"
            }
        }
        return text.hasSuffix("\n") ? shielded : String(shielded.dropLast())
    }

    /// A workflow command's message: `%`, carriage returns and line feeds escaped.
    static func escapeData(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A workflow command's property: as a message, and `:` and `,` too.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}

/// The Markdown summary of a run that GitHub Actions shows on the job's page
/// (`GITHUB_STEP_SUMMARY`): for each top-level alert, its final line and a table of its child
/// tasks — what each is, how it ended, how long it ran — failures first. Pure.
struct StepSummary {
    /// At most this many rows per table; the rest are counted in a line under it.
    static let rowLimit = 200

    private struct Row {
        var task: String
        var result: String
        var time: String
        var failed: Bool
    }

    private var rows: [WaitAlertID: [Row]] = [:]

    /// The child task of the top-level alert `root` ended with `final`.
    mutating func ended(_ final: FinalLine, title: String, under root: WaitAlertID, ran: Duration?) {
        let name = WaitAlertOutcome.name(fromTitle: title)
        let text = final.text == name ? nil : LogFolding.withoutName(name, final.text)
        let result = [final.icon, text].compactMap(\.self).joined(separator: " ")
        rows[root, default: []].append(
            Row(
                task: name.isEmpty ? final.text : name, result: result.isEmpty ? "—" : result,
                time: ran.map(DurationFormat.seconds) ?? "", failed: final.tone == .failure))
    }

    /// The Markdown `root`, titled `title`, leaves as it ends with `final` (none when it leaves no
    /// final line and had no child tasks).
    mutating func close(_ root: WaitAlertID, title: String = "", final: FinalLine?) -> String {
        let rows = (rows.removeValue(forKey: root) ?? []).enumerated()
            .sorted { ($0.element.failed ? 0 : 1, $0.offset) < ($1.element.failed ? 0 : 1, $1.offset) }
            .map(\.element)
        guard final != nil || !rows.isEmpty else { return "" }
        var text = "### " + Self.cell(final?.plain ?? title) + "\n\n"
        if !rows.isEmpty {
            text += "| Task | Result | Time |\n|---|---|---|\n"
            for row in rows.prefix(Self.rowLimit) {
                text += "| \(Self.cell(row.task)) | \(Self.cell(row.result)) | \(row.time) |\n"
            }
            if rows.count > Self.rowLimit { text += "\n… and \(rows.count - Self.rowLimit) more tasks\n" }
            text += "\n"
        }
        return text
    }

    /// `text` as one table cell: one line, its `|` and Markdown's markup characters escaped.
    static func cell(_ text: String) -> String {
        var escaped = ""
        for character in TextSanitizer.line(text) {
            if "\\|*_`<>[]#~&$!".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

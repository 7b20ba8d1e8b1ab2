import Testing
import WaitAlertTesting

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The modes for readers other than a person at a terminal: an AI agent, a GitHub Actions log, a
/// GitLab CI log — how the environment chooses them, and what each writes.
@Suite("Agent and CI modes")
@MainActor
struct AgentAndCIModeTests {
    @Test func theEnvironmentChoosesInOrder() {
        func mode(_ variables: [String: String]) -> TerminalOverlay.Mode {
            TerminalOverlay.Mode.chosen(by: variables).mode
        }
        #expect(mode([:]) == .auto)
        for variable in TerminalOverlay.Mode.agentVariables {
            #expect(mode([variable: "1"]) == .agent, "\(variable)")
            #expect(mode([variable: "0"]) == .auto, "\(variable)")
            #expect(mode([variable: ""]) == .auto, "\(variable)")
            #expect(mode([variable: "false"]) == .auto, "\(variable)")
        }
        #expect(mode(["GITHUB_ACTIONS": "true"]) == .github)
        #expect(mode(["GITLAB_CI": "true"]) == .gitlab)
        #expect(mode(["GITHUB_ACTIONS": "false", "CI": "true"]) == .auto)
        // An agent in CI reads the output: the agent wins; a person who asked for lines, or a mode,
        // wins over both.
        #expect(mode(["GITHUB_ACTIONS": "true", "CLAUDECODE": "1"]) == .agent)
        #expect(mode(["CLAUDECODE": "1", "ACCESSIBLE": "1"]) == .accessible)
        #expect(mode(["CLAUDECODE": "1", "WAIT_ALERT_PROGRESS": "plain"]) == .plain)
        #expect(mode(["CLAUDECODE": "1", "WAIT_ALERT_PROGRESS": "auto"]) == .auto)
        #expect(mode(["GITHUB_ACTIONS": "true", "WAIT_ALERT_PROGRESS": "json"]) == .json)
        #expect(mode(["WAIT_ALERT_PROGRESS": "github"]) == .github)
        let unknown = TerminalOverlay.Mode.chosen(by: ["WAIT_ALERT_PROGRESS": "fancy", "CODEX_SANDBOX": "seatbelt"])
        #expect(unknown.mode == .agent && unknown.unknown == "fancy")
        for mode in [TerminalOverlay.Mode.agent, .github, .gitlab] {
            #expect(!mode.drawsInteractively(on: InMemoryTerminal(isInteractive: true)), "\(mode)")
        }
    }

    struct Broken: Error, CustomStringConvertible {
        var description: String { "exit status 1" }
    }

    /// A build: three tasks, one that logs and succeeds, one that logs twelve lines and fails,
    /// one that warns; then a second top-level alert that succeeds.
    static func build(_ overlay: any WaitAlertRenderer) async -> WaitAlertTestBed {
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Building") { alert in
                try await alert.tasks(for: ["Core", "Parser", "Docs"]) {
                    "Compiling \($0)"
                } operation: { name, task in
                    try await bed.clock.sleep(for: .seconds(name == "Core" ? 1 : 2))
                    switch name {
                    case "Core": task.log("Core: compiled 12 files")
                    case "Parser":
                        for line in 1...12 { task.log("Parser.swift:\(line): error: line \(line)") }
                        throw Broken()
                    default: task.warn("Docs: 2 broken links")
                    }
                }
            }
        }
        _ = try? await bed.run(until: work)
        let second = bed.start {
            try await withWaitAlert("Uploading") { alert in
                alert.log("uploaded 3 files")
                try await bed.clock.sleep(for: .seconds(2))
            }
        }
        _ = try? await bed.run(until: second)
        await bed.run()
        return bed
    }

    @Test func theAgentModeWritesFailuresWarningsAndFinalLinesOnly() async {
        let terminal = InMemoryTerminal(columns: 100, rows: 40, isInteractive: true)
        _ = await Self.build(TerminalOverlay(terminal: terminal, colors: .always, integration: .none, mode: .agent))
        #expect(!terminal.output.contains(0x1B), "no escape byte, no colour, on a terminal too")
        let lines = terminal.transcript.filter { !$0.isEmpty }
        #expect(lines.first?.hasPrefix("wait-alert: compact output for an AI agent") == true)
        #expect(lines.first?.hasSuffix("WAIT_ALERT_PROGRESS=plain shows every line") == true)
        #expect(
            Array(lines.dropFirst())
                == [
                    "✖ Compiling Parser: exit status 1",
                    "    … 2 earlier lines",
                ] + (3...12).map { "    Parser.swift:\($0): error: line \($0)" } + [
                    "⚠ Docs: 2 broken links (2.0s)",
                    "✖ Building: exit status 1",
                    "  3 tasks: 1 succeeded, 1 failed, 1 with warnings",
                    "✔ Uploading (2.0s)",
                ], "\(terminal)")
    }

    @Test func theCompactReportKeepsEachFailuresTailAndCountsNotRun() async {
        let terminal = InMemoryTerminal(columns: 100, rows: 40, isInteractive: false)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [AgentRenderer(terminal: terminal, variable: nil)])
        let work = bed.start {
            try await withWaitAlert("Deploying", failure: { _ in "Deploy failed" }) { alert in
                await alert.plan(["Migrate", "Restart"])
                alert.log("connecting to db")
                alert.log("db: permission denied")
                try await bed.clock.sleep(for: .seconds(1))
                throw Broken()
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        #expect(
            terminal.transcript.filter { !$0.isEmpty }
                == [
                    "wait-alert: compact output for an AI agent; WAIT_ALERT_PROGRESS=plain shows every line",
                    "    connecting to db", "    db: permission denied", "✖ Deploy failed",
                    "  2 tasks: 2 not run",
                ], "\(terminal)")
    }

    @Test func gitHubActionsFoldsEachTopLevelAlertAndLeavesFailuresOutside() async throws {
        let terminal = InMemoryTerminal(columns: 120, rows: 60, isInteractive: false)
        let summary = "/tmp/wait-alert-summary-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).md"
        defer { unlink(summary) }
        let renderer = Self.lines(on: terminal, folding: .githubActions, summaryPath: summary)
        _ = await Self.build(renderer)
        #expect(!terminal.output.contains(0x1B))
        let lines = terminal.transcript.filter { !$0.isEmpty }
        // Groups open and close in turn, never nested.
        var depth = 0
        for line in lines {
            if line.hasPrefix("::group::") { depth += 1 }
            if line == "::endgroup::" { depth -= 1 }
            #expect((0...1).contains(depth), "\(terminal)")
        }
        #expect(depth == 0)
        #expect(lines.filter { $0.hasPrefix("::group::") } == ["::group::Building", "::group::Uploading"])
        let end = try #require(lines.firstIndex(of: "::endgroup::"))
        // Inside: the tasks' lines; outside: the failure's last log lines, the final line, the
        // annotations.
        #expect(lines[..<end].contains("✖ Compiling Parser: exit status 1"))
        #expect(lines[..<end].contains("Core: compiled 12 files"))
        #expect(
            Array(lines[(end + 1)...].prefix(7))
                == [
                    "Compiling Parser: exit status 1 — last log lines:",
                    "    Parser.swift:10: error: line 10", "    Parser.swift:11: error: line 11",
                    "    Parser.swift:12: error: line 12",
                    "✖ Building: exit status 1",
                    "::error title=Compiling Parser::exit status 1",
                    "::warning title=Compiling Docs::Docs: 2 broken links (2.0s)",
                ], "\(terminal)")
        #expect(lines.contains("::error title=Building::exit status 1"))
        #expect(
            lines.suffix(5) == [
                "::group::Uploading", "uploaded 3 files", "Uploading", "::endgroup::", "✔ Uploading (2.0s)",
            ],
            "\(terminal)")
        let markdown = try String(decoding: Self.contents(of: summary), as: UTF8.self)
        #expect(markdown.hasPrefix("### ✖ Building: exit status 1\n\n| Task | Result | Time |\n|---|---|---|\n"))
        #expect(markdown.contains("| Compiling Parser | ✖ exit status 1 | 2.0s |\n| Compiling Core | ✔ | 1.0s |"))
        #expect(markdown.contains("| Compiling Docs | ⚠ Docs: 2 broken links | 2.0s |"), "\(markdown)")
        #expect(markdown.hasSuffix("### ✔ Uploading (2.0s)\n\n"))
    }

    @Test func gitLabFoldsInCollapsedSectionsWithTheWallClockTime() async {
        let terminal = InMemoryTerminal(columns: 120, rows: 60, isInteractive: false)
        let renderer = Self.lines(on: terminal, folding: .gitlab, unixTime: 1_764_400_000)
        _ = await Self.build(renderer)
        // Sections are named by the alert (ids count across the process) and their number.
        let text = String(decoding: terminal.output, as: UTF8.self)
        let start = "\u{1B}[0Ksection_start:1764400000:wait_alert_"
        #expect(text.hasPrefix(start), "\(text)")
        #expect(text.contains("_1[collapsed=true]\r\u{1B}[0KBuilding\nBuilding\n"), "\(text)")
        #expect(text.contains("_1\r\u{1B}[0K\nCompiling Parser: exit status 1 — last log lines:\n"), "\(text)")
        #expect(text.contains("\u{1B}[0Ksection_end:1764400000:wait_alert_"))
        #expect(text.contains("_2[collapsed=true]\r\u{1B}[0KUploading\n"))
        #expect(!text.contains("::error"))
    }

    @Test func groupsOfInterleavedAlertsNeverNest() {
        var folding = LogFolding(service: .githubActions)
        let a = WaitAlertID(rawValue: 1)
        let b = WaitAlertID(rawValue: 2)
        var text = folding.enter(a, title: "A", unixTime: 0)
        text += folding.enter(a, title: "A", unixTime: 0)
        text += folding.enter(b, title: "B", unixTime: 0)
        text += folding.enter(a, title: "A", unixTime: 0)
        text += folding.leave(b, unixTime: 0)
        text += folding.leave(a, unixTime: 0)
        text += folding.leave(nil, unixTime: 0)
        #expect(
            text
                == "::group::A\n::endgroup::\n::group::B\n::endgroup::\n::group::A (continued)\n::endgroup::\n")
    }

    @Test func annotationsAndSummaryCellsAreEscaped() {
        #expect(LogFolding.escapeData("50% done\r\nnext") == "50%25 done%0D%0Anext")
        #expect(LogFolding.escapeProperty("a: b, c") == "a%3A b%2C c")
        let folding = LogFolding(service: .githubActions)
        let hostile = FinalLine(icon: "✖", text: "Fetch, part 2: 100% lost\n::set-output x", tone: .failure)
        #expect(
            folding.annotation(of: hostile, title: "Fetch, part 2")
                == "::error title=Fetch%2C part 2::100%25 lost ::set-output x\n", "one line: no command can follow")
        #expect(LogFolding(service: .gitlab).annotation(of: hostile, title: "x") == "")
        #expect(StepSummary.cell("a | b *c* <d>\nnext") == "a \\| b \\*c\\* \\<d\\> next")
        var summary = StepSummary()
        let root = WaitAlertID(rawValue: 1)
        for index in 0..<(StepSummary.rowLimit + 5) {
            summary.ended(
                FinalLine(icon: "✔", text: "Task \(index)", tone: .success), title: "Task \(index)", under: root,
                ran: .seconds(1))
        }
        let markdown = summary.close(root, final: FinalLine(icon: "✔", text: "Done", tone: .success))
        #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("| Task ") }.count == StepSummary.rowLimit + 1)
        #expect(markdown.contains("… and 5 more tasks"))
    }

    /// A line WaitAlert composes that would run as a workflow command — a hostile task title, a
    /// log line repeated after the group — is made inert in a GitHub Actions log; a log line
    /// itself is written as the program wrote it (its `::add-mask::` must run).
    @Test func hostileWorkflowCommandsAreShielded() async {
        var next = 0
        let token = {
            next += 1
            return "t\(next)"
        }
        #expect(
            LogFolding.shieldingCommands("ok\n  ::add-mask::x\nfine ::not-a-command\n", token: token)
                == "ok\n::stop-commands::wait-alert-t1\n  ::add-mask::x\n::wait-alert-t1::\nfine ::not-a-command\n")
        #expect(LogFolding.shieldingCommands("plain\n") == "plain\n")

        let terminal = InMemoryTerminal(columns: 120, rows: 40, isInteractive: false)
        let renderer = Self.lines(on: terminal, folding: .githubActions)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [renderer])
        let work = bed.start {
            try await withWaitAlert("::set-env name=X::1") { alert in
                alert.log("::add-mask::secret")
                try await bed.clock.sleep(for: .seconds(1))
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        let lines = terminal.transcript.filter { !$0.isEmpty }
        #expect(lines.first == "::group::::set-env name=X::1", "a group's title follows its command: \(lines)")
        let mask = lines.firstIndex(of: "::add-mask::secret")
        #expect(mask.map { $0 > 0 && lines[$0 - 1] == "::group::::set-env name=X::1" } == true, "\(lines)")
        for forged in ["::set-env name=X::1"] {
            guard let index = lines.firstIndex(of: forged), index > 0, index + 1 < lines.count else {
                Issue.record("\(forged) is not shown as a line of its own: \(lines)")
                continue
            }
            #expect(lines[index - 1].hasPrefix("::stop-commands::wait-alert-"), "\(lines)")
            let name = lines[index - 1].dropFirst("::stop-commands::".count)
            #expect(lines[index + 1] == "::\(name)::", "\(lines)")
        }
        #expect(lines.contains("::endgroup::"))
    }

    /// Whitespace of any kind before `::`, and the older `##[` form anywhere in a line, are read
    /// as commands by Actions: both are shielded; a group's title is escaped as a message.
    @Test func shieldingCoversEveryFormActionsReads() {
        let token = { "t" }
        #expect(
            LogFolding.shieldingCommands("\u{A0}::endgroup::\n", token: token)
                == "::stop-commands::wait-alert-t\n\u{A0}::endgroup::\n::wait-alert-t::\n")
        #expect(
            LogFolding.shieldingCommands("title ##[stop-commands]x\n", token: token)
                == "::stop-commands::wait-alert-t\ntitle ##[stop-commands]x\n::wait-alert-t::\n")
        var folding = LogFolding(service: .githubActions)
        #expect(
            folding.enter(WaitAlertID(rawValue: 1), title: "100%0A::error::x", unixTime: 0)
                == "::group::100%250A::error::x\n")
    }

    /// Two top-level alerts at once in a folded log: the one that fails leaves its failure outside
    /// any group, even when the other's group was open.
    @Test func aFailureIsNeverLeftInAnotherAlertsGroup() async {
        let terminal = InMemoryTerminal(columns: 120, rows: 40, isInteractive: false)
        let renderer = Self.lines(on: terminal, folding: .githubActions)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [renderer])
        let failing = bed.start {
            try await withWaitAlert("Alpha") { alert in
                alert.log("alpha working")
                try await bed.clock.sleep(for: .seconds(2))
                throw Broken()
            }
        }
        let other = bed.start {
            try await withWaitAlert("Beta") { alert in
                try await bed.clock.sleep(for: .seconds(1))
                alert.log("beta working")
                try await bed.clock.sleep(for: .seconds(3))
            }
        }
        _ = try? await bed.run(until: failing)
        _ = try? await bed.run(until: other)
        await bed.run()
        let lines = terminal.transcript.filter { !$0.isEmpty }
        var open: String?
        for line in lines {
            if line.hasPrefix("::group::") {
                #expect(open == nil, "nested: \(lines)")
                open = line
            } else if line == "::endgroup::" {
                open = nil
            } else if line.hasPrefix("✖ Alpha") || line.hasPrefix("::error") {
                #expect(open == nil, "\(line) inside \(open ?? ""): \(lines)")
            }
        }
        #expect(lines.contains("✖ Alpha: exit status 1"), "\(lines)")
        #expect(lines.contains("✔ Beta (4.0s)"), "\(lines)")
    }

    /// A CI log shows colours: a folded log keeps a log line's colours — and nothing else of its
    /// escape sequences — where plain lines keep none.
    @Test(arguments: [LogFolding.Service?.none, .githubActions, .gitlab])
    func aFoldedLogKeepsColoursOnly(_ service: LogFolding.Service?) async {
        let terminal = InMemoryTerminal(columns: 120, rows: 40, isInteractive: false)
        let renderer = Self.lines(on: terminal, folding: service, unixTime: 0)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [renderer])
        let work = bed.start {
            try await withWaitAlert("Building") { alert in
                alert.log("\u{1B}[31merror\u{1B}[0m: \u{1B}]0;pwned\u{07}\u{1B}[2Jbroken")
                try await bed.clock.sleep(for: .seconds(1))
            }
        }
        _ = try? await bed.run(until: work)
        await bed.run()
        let text = String(decoding: terminal.output, as: UTF8.self)
        // A line that keeps colours ends with a reset, so no colour runs on.
        let logged = service == nil ? "error: broken\n" : "\u{1B}[31merror\u{1B}[0m: broken\u{1B}[0m\n"
        #expect(text.contains(logged), "\(String(reflecting: text))")
        #expect(!text.contains("pwned") && !text.contains("\u{1B}[2J"))
    }

    /// Plain lines on `terminal`, folded for `folding`'s log (3 log lines kept of a failure), the
    /// wall clock standing at `unixTime`.
    static func lines(
        on terminal: InMemoryTerminal, folding: LogFolding.Service?, summaryPath: String? = nil, unixTime: Int = 0
    ) -> LineRenderer {
        LineRenderer(
            terminal: terminal, minimumInterval: .seconds(1), heartbeatInterval: .seconds(30),
            progressInterval: .seconds(5), failureLogLines: 3, colors: false, folding: folding,
            summaryPath: summaryPath, unixTime: { unixTime })
    }

    static func contents(of path: String) throws -> [UInt8] {
        let file = try #require(fopen(path, "r"))
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}

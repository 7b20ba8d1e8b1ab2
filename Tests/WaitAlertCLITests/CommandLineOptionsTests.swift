import Testing

@testable import wait_alert

struct CommandLineOptionsTests {
    private func options(_ arguments: [String]) -> CommandLineOptions? {
        if case .run(let options) = CommandLineOptions.parse(arguments) { return options }
        return nil
    }

    private func problem(_ arguments: [String]) -> String? {
        if case .invalid(let message) = CommandLineOptions.parse(arguments) { return message }
        return nil
    }

    @Test func defaultsWithOnlyACommand() throws {
        let parsed = try #require(options(["--", "make", "-j4"]))
        #expect(parsed.command == ["make", "-j4"])
        #expect(parsed.title == nil && parsed.success == nil && parsed.timeout == nil)
        #expect(parsed.status == .lastLine)
        #expect(parsed.showOutput == .onFailure)
        #expect(parsed.tail == 10)
        #expect(parsed.effectiveTitle == "make -j4")
    }

    @Test func everyOptionWithItsValueNext() throws {
        let parsed = try #require(
            options([
                "--title", "Building", "--success", "Built", "--status", "none", "--show-output", "always",
                "--tail", "3", "--timeout", "2m", "--", "swift", "build",
            ]))
        #expect(parsed.title == "Building")
        #expect(parsed.success == "Built")
        #expect(parsed.status == .none)
        #expect(parsed.showOutput == .always)
        #expect(parsed.tail == 3)
        #expect(parsed.timeout == .seconds(120))
        #expect(parsed.command == ["swift", "build"])
        #expect(parsed.effectiveTitle == "Building")
    }

    @Test func valuesAfterAnEqualsSign() throws {
        let parsed = try #require(
            options(["--title=A = B", "--show-output=never", "--tail=0", "--status=last-line", "--", "x"]))
        #expect(parsed.title == "A = B")
        #expect(parsed.showOutput == .never)
        #expect(parsed.tail == 0)
        #expect(parsed.status == .lastLine)
    }

    /// `--progress` takes the modes `WAIT_ALERT_PROGRESS` takes; without it, the variable decides.
    @Test func progressModes() throws {
        #expect(options(["--", "x"])?.progress == nil)
        for mode in ["auto", "tty", "plain", "json", "off", "accessible"] {
            #expect(options(["--progress", mode, "--", "x"])?.progress?.rawValue == mode)
        }
        #expect(options(["--progress", "JSON", "--", "x"])?.progress == .json, "in any case, as the variable")
        #expect(
            problem(["--progress=fancy", "--", "x"])
                == "invalid --progress 'fancy' (expected auto, tty, plain, json, off, accessible, agent, github, gitlab)"
        )
    }

    @Test func theLastOfARepeatedOptionWins() throws {
        #expect(options(["--tail", "1", "--tail", "2", "--", "x"])?.tail == 2)
    }

    @Test func optionsEndAtTheDoubleDashOrTheFirstWord() throws {
        #expect(options(["--", "--title", "x"])?.command == ["--title", "x"])
        #expect(options(["--", "-"])?.command == ["-"])
        let bare = try #require(options(["ls", "--title", "x"]))
        #expect(bare.command == ["ls", "--title", "x"])
        #expect(bare.title == nil)
        #expect(options(["--title", "--", "--", "x"])?.title == "--")
    }

    @Test func helpWinsWherever() {
        #expect(CommandLineOptions.parse(["--help"]) == .help)
        #expect(CommandLineOptions.parse(["-h", "--bogus"]) == .help)
        #expect(CommandLineOptions.parse(["--tail", "3", "--help", "--", "x"]) == .help)
        #expect(CommandLineOptions.parse(["--", "cmd", "--help"]) != .help)
    }

    @Test func versionAnswersAmongTheOptionsOnly() {
        #expect(CommandLineOptions.parse(["--version"]) == .version)
        #expect(CommandLineOptions.parse(["--version", "--bogus"]) == .version)
        #expect(CommandLineOptions.parse(["--tail", "3", "--version", "--", "x"]) == .version)
        #expect(options(["--", "cmd", "--version"])?.command == ["cmd", "--version"])
        #expect(options(["cmd", "--version"])?.command == ["cmd", "--version"])
    }

    @Test func theVersionLineNamesTheProgramAndASemanticVersion() throws {
        let words = Version.line.split(separator: " ")
        #expect(words.count == 2 && words[0] == "wait-alert", "\(Version.line)")
        let core = try #require(words.last?.split(separator: "-", maxSplits: 1).first)
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        #expect(numbers.count == 3 && numbers.allSatisfy { UInt($0) != nil }, "\(Version.number)")
    }

    /// A title that would show nothing gives way to the command line, so the final line still says
    /// what ran; a success text that would show nothing gives way to the title.
    @Test(arguments: ["", " ", "\t \n", "\u{1B}[31m", "\u{7}\u{1B}]0;x\u{7}", "\u{200E}"])
    func aTitleThatShowsNothingFallsBackToTheCommandLine(blank: String) throws {
        let titled = try #require(options(["--title", blank, "--success", blank, "--", "make", "-j4"]))
        #expect(titled.effectiveTitle == "make -j4")
        #expect(titled.effectiveSuccess == nil)
        let named = try #require(options(["--title", "Building", "--success", blank, "--", "make"]))
        #expect(named.effectiveTitle == "Building")
        #expect(named.effectiveSuccess == nil)
        #expect(options(["--success", " Built ", "--", "make"])?.effectiveSuccess == " Built ")
    }

    @Test(arguments: [
        (["--bogus", "--", "x"], "unknown option '--bogus'"),
        (["-x", "--", "x"], "unknown option '-x'"),
        (["--title"], "option '--title' needs a value"),
        (["--tail", "-1", "--", "x"], "invalid --tail '-1'"),
        (["--tail", "many", "--", "x"], "invalid --tail 'many'"),
        (["--status", "all", "--", "x"], "invalid --status 'all'"),
        (["--show-output", "sometimes", "--", "x"], "invalid --show-output 'sometimes'"),
        (["--timeout", "0", "--", "x"], "invalid --timeout '0'"),
        (["--timeout", "soon", "--", "x"], "invalid --timeout 'soon'"),
        (["--timeout", "0", "--", "x"], "invalid --timeout '0' (expected a positive duration"),
        (["--timeout", "10000h", "--", "x"], "invalid --timeout '10000h' (the longest is 8760h (365 days))"),
        ([], "no command given"),
        (["--title", "x"], "no command given"),
        (["--"], "no command given"),
        (["--", ""], "the command is an empty string"),
    ])
    func invalidArguments(arguments: [String], message: String) throws {
        let found = try #require(problem(arguments))
        #expect(found.hasPrefix(message), "\(found)")
    }

    @Test func usageNamesEveryOption() {
        for option in [
            "--title", "--success", "--status", "--show-output", "--tail", "--timeout", "--help", "--version",
        ] {
            #expect(Usage.text.contains(option))
        }
    }

    /// An argument error is one line naming the problem and one pointing to `--help`.
    @Test func anArgumentErrorIsOneLineAndAHint() {
        #expect(
            Usage.invalid("unknown option '--foo'")
                == "wait-alert: unknown option '--foo'\nTry 'wait-alert --help' for more information.\n")
    }

    @Test func theDefaultTitleQuotesWordsForAShell() {
        #expect(ShellQuoting.commandLine(["make", "-j4", "all"]) == "make -j4 all")
        #expect(ShellQuoting.commandLine(["sh", "-c", "echo hi"]) == "sh -c 'echo hi'")
        #expect(ShellQuoting.commandLine(["echo", "it's", ""]) == #"echo 'it'\''s' ''"#)
        #expect(ShellQuoting.commandLine(["a/b.c", "x=1,2:3@%+_"]) == "a/b.c x=1,2:3@%+_")
        #expect(ShellQuoting.commandLine(["$HOME", "*", "é"]) == "'$HOME' '*' 'é'")
    }
}

import Testing
import WaitAlert

@testable import wait_alert

/// `wait-alert replay`'s arguments.
@Suite("wait-alert replay")
@MainActor
struct ReplayCommandTests {
    func options(_ arguments: [String]) -> ReplayCommand.Options? {
        try? ReplayCommand.parse(arguments).get()
    }

    func problem(_ arguments: [String]) -> String? {
        if case .failure(.invalid(let problem)) = ReplayCommand.parse(arguments) { problem } else { nil }
    }

    @Test func aFileAtASpeed() {
        #expect(options(["build.jsonl"]) == .init(files: ["build.jsonl"], speed: 1, progress: nil))
        #expect(options(["--speed", "4", "build.jsonl"])?.speed == 4)
        #expect(options(["--speed=0.5", "-"]) == .init(files: ["-"], speed: 0.5, progress: nil))
        #expect(options(["--speed", "inf", "x"])?.speed == .infinity)
        #expect(options(["--progress", "plain", "x"])?.progress == .plain)
        #expect(options(["--", "--speed"])?.files == ["--speed"], "after --, a file named like an option")
        if case .failure(.help) = ReplayCommand.parse(["x", "--help"]) {} else { Issue.record("--help") }
    }

    @Test func badArgumentsSayWhatIsWrong() {
        #expect(problem([]) == "replay: which FILE? (- for standard input)")
        #expect(problem(["--speed", "0", "x"]) == "replay: --speed takes a number above 0, such as 2 or 0.5; not '0'")
        #expect(problem(["--speed", "-2", "x"]) != nil && problem(["--speed", "nan", "x"]) != nil)
        #expect(problem(["--speed", "fast", "x"]) != nil)
        #expect(problem(["x", "--speed"]) == "replay: --speed needs a value")
        #expect(
            problem(["--progress", "fancy", "x"])
                == "replay: --progress takes auto, tty, plain, json, off, accessible, agent, github or gitlab; not 'fancy'"
        )
        #expect(options(["a", "b"])?.files == ["a", "b"], "several streams are merged")
        #expect(problem(["-", "a", "-"]) == "replay: standard input (-) can be read once")
        #expect(problem(["--loop", "x"]) == "replay: unknown option '--loop'")
    }
}

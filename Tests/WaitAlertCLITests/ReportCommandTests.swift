import Testing
import WaitAlert

@testable import wait_alert

/// `wait-alert report`'s arguments, and the lines it sends.
struct ReportCommandTests {
    private func options(_ arguments: [String]) -> ReportCommand.Options? {
        try? ReportCommand.parse(arguments).get()
    }

    private func problem(_ arguments: [String]) -> String? {
        if case .failure(.invalid(let message)) = ReportCommand.parse(arguments) { return message }
        return nil
    }

    @Test func reportsInTheOrderGiven() throws {
        let parsed = try #require(
            options([
                "--text", "Uploading…", "--progress=40/100", "--unit", "bytes", "--log", "sent", "--progress", "7",
            ]))
        #expect(
            parsed.reports == [
                .text("Uploading…"), .progress(completed: 40, total: 100), .log("sent"),
                .progress(completed: 7, total: nil),
            ])
        #expect(
            ReportCommand.lines(parsed) == [
                #"{"v":1,"event":"text","time":0.000,"text":"Uploading…"}"#,
                #"{"v":1,"event":"progress","time":0.000,"completed":40,"total":100,"unit":"bytes"}"#,
                #"{"v":1,"event":"log","time":0.000,"line":"sent"}"#,
                #"{"v":1,"event":"progress","time":0.000,"completed":7,"unit":"bytes"}"#,
            ])
    }

    @Test func failingWhileItGoesOn() throws {
        let parsed = try #require(options(["--failing", "yes", "--text", "Retrying…", "--failing=no"]))
        #expect(parsed.reports == [.failing(true), .text("Retrying…"), .failing(false)])
        #expect(
            ReportCommand.lines(parsed) == [
                #"{"v":1,"event":"failing","time":0.000,"failing":true}"#,
                #"{"v":1,"event":"text","time":0.000,"text":"Retrying…"}"#,
                #"{"v":1,"event":"failing","time":0.000,"failing":false}"#,
            ])
        #expect(problem(["--failing", "maybe"]) == "invalid --failing 'maybe' (expected yes or no)")
        #expect(problem(["--failing"]) == "option '--failing' needs a value")
    }

    @Test func aTaskAroundACommand() throws {
        let parsed = try #require(options(["--task", "Restarting", "--", "systemctl", "restart", "web"]))
        #expect(parsed.task == "Restarting" && parsed.command == ["systemctl", "restart", "web"])
        #expect(ReportCommand.lines(parsed).isEmpty, "the task is the alert of a command run under the parent's")
    }

    /// A count the event stream would not carry is refused here, not dropped by the reader.
    @Test func progressTakesWhatTheStreamCarries() throws {
        let largest = WaitAlertEvent.largestNumber
        let parsed = try #require(options(["--progress", "\(largest)/\(largest)"]))
        let line = try #require(ReportCommand.lines(parsed).first)
        #expect(WaitAlertRecording(line).eventCount == 1, "the reader takes the largest count: \(line)")
        for text in ["\(largest + 1)", "1/\(largest + 1)", "9000000000000000", "99999999999999999999"] {
            #expect(
                problem(["--progress", text])
                    == "invalid --progress '\(text)' (expected N or N/TOTAL, such as 40/100, whole numbers up to \(largest))"
            )
        }
    }

    @Test func badArgumentsSayWhatIsWrong() {
        #expect(
            problem(["--progress", "forty"])?.hasPrefix("invalid --progress 'forty' (expected N or N/TOTAL") == true)
        #expect(problem(["--progress", "-1/2"]) != nil && problem(["--progress", "1/2/3"]) != nil)
        #expect(problem(["--progress", "1/"]) != nil)
        #expect(problem(["--task", "T"]) == "--task needs a command after '--'")
        #expect(problem(["--", "ls"]) == "a command after '--' needs --task")
        #expect(problem(["--shout", "x"]) == "unknown report option '--shout'")
        #expect(problem(["--text"]) == "option '--text' needs a value")
        #expect(ReportCommand.parse(["--help"]) == .failure(.help))
    }
}

import Testing
import WaitAlert
import WaitAlertTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `WaitAlertReporter.run`, with real commands (`sh -c`) under a test bed's presenter: what the
/// alert shows, what `run` returns and throws, and how a cancelled command is stopped. Timing
/// plays no part: each test waits for what the command does, never for a time.
@Suite("Running a command under an alert")
@MainActor
struct RunCommandTests {
    let recorder = RecordingRenderer()
    let bed: WaitAlertTestBed

    init() {
        bed = WaitAlertTestBed(timing: .immediate, renderers: [recorder])
    }

    @Test func itsLinesAreTheTextAndItsLastLinesAreKept() async throws {
        let result = try await withWaitAlert("Listing", presenter: bed.presenter) { alert in
            try await alert.run("sh", "-c", "echo one; echo two >&2; echo three", keeping: 2)
        }
        await bed.run()
        #expect(result.lastLines == ["two", "three"])
        #expect(result.standardOutput == "")
        #expect(recorder.texts.contains("three"), "\(recorder.texts)")
        #expect(recorder.logs.isEmpty, "a success prints nothing")
    }

    /// A failure throws the status and the last lines, which print above the final line.
    @Test func aFailureThrowsItsStatusAndLastLines() async throws {
        let error = await #expect(throws: WaitAlertCommandError.self) {
            try await withWaitAlert("Building", presenter: self.bed.presenter) { alert in
                try await alert.run("sh", "-c", "echo compiling; echo 'error: no space' >&2; exit 3")
            }
        }
        await bed.run()
        #expect(error?.reason == .exited(3))
        #expect(error?.lastLines == ["compiling", "error: no space"])
        #expect(error?.command == ["sh", "-c", "echo compiling; echo 'error: no space' >&2; exit 3"])
        #expect(error?.description == "sh exited with status 3")
        let building = try #require(recorder.alert(titled: "Building"))
        #expect(recorder.logs(of: building) == ["compiling", "error: no space"])
        #expect(recorder.finalText(of: building) == "Building: sh exited with status 3")
    }

    @Test func aSignalThatEndedItIsNamed() async {
        let error = await #expect(throws: WaitAlertCommandError.self) {
            try await withWaitAlert("Crashing", presenter: self.bed.presenter) { alert in
                try await alert.run("sh", "-c", "kill -KILL $$")
            }
        }
        #expect(error?.reason == .signaled(SIGKILL))
        #expect(error?.description == "sh was ended by SIGKILL")
        await bed.run()
    }

    @Test func aCommandThatCannotStartSaysWhy() async {
        let error = await #expect(throws: WaitAlertCommandError.self) {
            try await withWaitAlert("Running", presenter: self.bed.presenter) { alert in
                try await alert.run("no-such-command-for-wait-alert", "--version")
            }
        }
        #expect(error?.reason == .notStarted(errno: ENOENT))
        #expect(error?.description == "cannot run no-such-command-for-wait-alert: No such file or directory")
        let empty = await #expect(throws: WaitAlertCommandError.self) {
            try await withWaitAlert("Running", presenter: self.bed.presenter) { alert in try await alert.run([]) }
        }
        #expect(empty?.reason == .notStarted(errno: ENOENT))
        let nowhere = await #expect(throws: WaitAlertCommandError.self) {
            try await withWaitAlert("Running", presenter: self.bed.presenter) { alert in
                try await alert.run("pwd", workingDirectory: "/no-such-folder-for-wait-alert")
            }
        }
        #expect(nowhere?.description == "cannot run pwd in /no-such-folder-for-wait-alert: No such file or directory")
        await bed.run()
    }

    /// Collected standard output is returned whole, as written; standard error is still shown.
    @Test func collectedOutputIsReturnedAndNotShown() async throws {
        let result = try await withWaitAlert("Describing", presenter: bed.presenter) { alert in
            try await alert.run("sh", "-c", "printf 'v1.2.3\\n'; echo note >&2", output: .collected)
        }
        await bed.run()
        #expect(result.standardOutput == "v1.2.3\n")
        #expect(result.standardOutputBytes == Array("v1.2.3\n".utf8))
        #expect(result.lastLines == ["note"])
        #expect(!recorder.texts.contains("v1.2.3"))
    }

    /// A command that writes more than its collected output may hold is stopped, and says so.
    @Test func collectedOutputOverItsLimitStopsTheCommand() async {
        let error = await #expect(throws: WaitAlertCommandError.self) {
            try await withWaitAlert("Saying yes", presenter: self.bed.presenter) { alert in
                try await alert.run("yes", output: .collected(limit: 100))
            }
        }
        #expect(error?.reason == .outputOverLimit(100))
        #expect(error?.description == "yes wrote more than 100 bytes")
        await bed.run()
    }

    /// Standard input is `/dev/null`, the environment gets the variables given, the command runs
    /// where it is told.
    @Test func inputEnvironmentAndDirectory() async throws {
        let results = try await withWaitAlert("Probing", presenter: bed.presenter) { alert in
            [
                try await alert.run("cat", output: .collected),
                try await alert.run(
                    ["sh", "-c", "echo \"$WAIT_ALERT_RUN_TEST $HOME\""], output: .collected,
                    environment: ["WAIT_ALERT_RUN_TEST": "given", "HOME": "/nowhere"]),
                try await alert.run("pwd", output: .collected, workingDirectory: "/"),
            ]
        }
        await bed.run()
        #expect(results.map(\.standardOutput) == ["", "given /nowhere\n", "/\n"])
    }

    /// Cancelling the work stops the command with a signal (`SIGTERM` when no Ctrl-C cancelled it;
    /// which one depends on what cancelled work last, shared by the tests running meanwhile): it
    /// may wind down as it chooses, and `run` throws `CancellationError` once it has ended,
    /// whatever its status. Its leader has been reaped by then.
    @Test func cancellingTheWorkStopsTheCommand() async throws {
        let script = "trap 'echo got a signal; exit 7' INT TERM; echo \"ready $$\"; while :; do sleep 0.05; done"
        let work = Task {
            try await withWaitAlert("Waiting", presenter: bed.presenter) { alert in
                try await alert.run("sh", "-c", script)
            }
        }
        let ready = await recorder.snapshot { $0.text.hasPrefix("ready ") }
        let pid = try #require(pid_t(ready.text.dropFirst("ready ".count)))
        work.cancel()
        await #expect(throws: CancellationError.self) { try await work.value }
        await bed.run()
        #expect(recorder.texts.contains("got a signal"), "\(recorder.texts)")
        #expect(recorder.latest?.outcome == .cancelled)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the command was reaped")
    }

    /// Work cancelled before the command starts never starts it.
    @Test func cancelledWorkStartsNothing() async {
        let work = Task {
            try await withWaitAlert("Never", presenter: bed.presenter) { alert in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await alert.run("sh", "-c", "echo started")
            }
        }
        await #expect(throws: CancellationError.self) { try await work.value }
        await bed.run()
        #expect(!recorder.texts.contains("started"))
    }
}

// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing

    /// A sample of the end-to-end suite for `swift test`: one test of each kind of program — the
    /// classic demo, the task region, the output capture, a question, job control in a shell,
    /// `wait-alert` and `wait-alert report`, a command run under an alert, the accessible mode, a failing test's attachments — each as it is written in its
    /// suite. The whole suite runs with `WAIT_ALERT_END_TO_END=full`, and then this sample does not.
    @Suite(
        .serialized,
        .onAThreadOfItsOwn,
        .disabled(if: EndToEndRuns.isFull, "the whole end-to-end suite runs instead"))
    struct QuickEndToEndTests {
        @Test func theClassicDemo() async throws {
            try await EndToEnd.DemoEndToEndTests().succeedsAndLeavesTheTerminalAsItWas()
        }

        @Test func theTaskRegion() async throws {
            try await EndToEnd.TasksDemoEndToEndTests().keepGoingRecordsEveryTaskOnce(
                size: EndToEnd.TasksDemoEndToEndTests.sizes[0])
        }

        @Test func outputAboveTheAlert() async throws {
            try await EndToEnd.OutputDemoEndToEndTests().strayOutputComesOutAboveTheAlert()
        }

        @Test func aQuestion() async throws {
            try await EndToEnd.PromptDemoEndToEndTests().typedAnswers()
        }

        @Test func ctrlZAndBgInAShell() async throws {
            try await EndToEnd.JobControlEndToEndTests().aJobResumedInTheBackgroundLeavesTheShellAlone()
        }

        @Test func theWaitAlertCommand() async throws {
            try await EndToEnd.WaitAlertCommandEndToEndTests().aSuccessShowsOnlyTheFinalLine()
        }

        @Test func aScriptReporting() async throws {
            try await EndToEnd.WaitAlertReportEndToEndTests().aScriptReportsIntoTheAlert()
        }

        @Test func aCommandUnderAnAlert() async throws {
            try await EndToEnd.RunDemoEndToEndTests().aFailureShowsTheLastLinesAndTheStatus()
        }

        @Test func theAccessibleMode() async throws {
            try await EndToEnd.AccessibleModeEndToEndTests().questionsAreLinesAnsweredWithALine()
        }

        @Test func attachmentsOfAFailingTest() async throws {
            try await EndToEnd.TestBedAttachmentsEndToEndTests().aFailingTestLeavesWhatItsBedShowed()
        }
    }
#endif

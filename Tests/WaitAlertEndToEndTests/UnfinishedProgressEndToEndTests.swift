// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing
    import WaitAlertTesting

    extension EndToEnd {
        /// A run that failed never says it is complete, in the modes that print lines.
        @Suite(.serialized)
        struct UnfinishedProgressEndToEndTests {
            /// `progress --fail` on a terminal, as plain lines and as accessible ones: one download
            /// fails, the others finish; no line says 100 %, and the whole stays 69.7 MB.
            @Test(arguments: [["WAIT_ALERT_PROGRESS": "plain"], ["ACCESSIBLE": "1", "NO_COLOR": "1"]])
            func aFailedDownloadIsNeverAHundredPercent(environment: [String: String]) async throws {
                let demo = try DemoProcess(["progress", "--fail"], environment: environment)
                #expect(try await demo.waitForExit(timeout: .seconds(30)) == .exited(1), "\(demo.report)")
                let lines = AccessibleModeEndToEndTests.lines(demo.output)
                #expect(!lines.contains { $0.contains("100%") }, "\(lines)")
                let progress = lines.filter { $0.hasPrefix("Downloading: ") && $0.contains("%") }
                #expect(!progress.isEmpty && progress.allSatisfy { $0.contains(" / 69.7 MB") }, "\(lines)")
                #expect(lines.last == "✖ Downloading: 1 file failed", "\(lines)")
                #expect(demo.modesAtExit == demo.modesBefore)
            }
        }
    }
#endif

import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert-demo prompt`: a text field, a button alert while a wait alert runs, then a yes/no
/// question; the answers are printed to standard output. Escape or Ctrl-C cancels (exit 130);
/// without a terminal the answers are read from standard input, one line each:
///
///     printf 'demo\n2\ny\n' | swift run wait-alert-demo prompt
enum PromptDemo {
    static let usage = "wait-alert-demo prompt [--list]"

    @MainActor static func runAndExit(_ arguments: [String]) async -> Never {
        await runModeAndExit(arguments, usage: usage, parse: parse, run: runReportingErrors)
    }

    /// `--list`: one question with 30 options in a scrolling list instead.
    static func parse(_ arguments: [String]) -> Bool? {
        switch arguments {
        case []: false
        case ["--list"]: true
        default: nil
        }
    }

    /// Runs the questions; an unanswerable one is named on standard error.
    @MainActor static func runReportingErrors(_ list: Bool) async throws {
        do {
            if list {
                let regions = (1...30).map { WaitAlertButton("Region \($0)") }
                let region = try await askChoice("Pick a region", buttons: regions, style: .list)
                print("region: \(region.title)")
                return
            }
            try await run()
        } catch let error as WaitAlertPromptError {
            WaitAlertPresenter.current.print("wait-alert-demo: \(error)", to: .standardError)
            throw error
        }
    }

    @MainActor static func run() async throws {
        let name = try await askText(
            "Name of the new project:", default: "demo", maximumLength: 40,
            validate: { $0.contains("/") ? "A name cannot contain “/”." : nil })
        let upload = showWaitAlert("Uploading \(name)…")
        try await Task.sleep(for: .milliseconds(800))
        upload.update("Server unreachable, waiting for an answer")
        let choice = try await askChoice(
            "Upload failed", message: "The server did not answer.",
            buttons: [WaitAlertButton("Retry", role: .default), "Skip", WaitAlertButton("Abort", role: .cancel)])
        if choice.title == "Abort" {
            upload.cancel()
        } else {
            upload.succeed(choice.title == "Retry" ? "Uploaded" : "Skipped")
        }
        let overwrite = try await confirm("Overwrite 3 files?", default: false)
        print("name: \(name)")
        print("choice: \(choice.index + 1) \(choice.title)")
        print("overwrite: \(overwrite ? "yes" : "no")")
    }
}

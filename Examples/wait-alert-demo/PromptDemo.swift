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
///
/// Other modes try prompts together with the rest:
///
///     swift run wait-alert-demo prompt --list        one question with 30 options in a list
///     swift run wait-alert-demo prompt --output      a confirmation while the work prints lines
///     swift run wait-alert-demo prompt --type-ahead  a confirmation after 2 s of work: keys typed
///                                                    before it shows never answer it
///     swift run wait-alert-demo prompt --crash       a crash while a question shows (and the
///                                                    program prints above it)
///     swift run wait-alert-demo prompt --timeout     a question that times out after a second
///                                                    (its default answers), then `readLine()`
///     swift run wait-alert-demo prompt --secret      a secret: what is typed never shows
///     swift run wait-alert-demo prompt --nested      the questions asked by a child process
///                                                    (this demo again) under an alert: the parent
///                                                    asks them on its terminal
enum PromptDemo {
    static let usage =
        "wait-alert-demo prompt [--list | --output | --type-ahead | --crash | --timeout | --secret | --nested]"

    enum Mode {
        case questions, list, output, typeAhead, crash, timeout, secret, nested
    }

    @MainActor static func runAndExit(_ arguments: [String]) async -> Never {
        await runModeAndExit(arguments, usage: usage, parse: parse, run: runReportingErrors)
    }

    static func parse(_ arguments: [String]) -> Mode? {
        switch arguments {
        case []: .questions
        case ["--list"]: .list
        case ["--output"]: .output
        case ["--type-ahead"]: .typeAhead
        case ["--crash"]: .crash
        case ["--timeout"]: .timeout
        case ["--secret"]: .secret
        case ["--nested"]: .nested
        default: nil
        }
    }

    /// Runs the questions; an unanswerable one is named on standard error.
    @MainActor static func runReportingErrors(_ mode: Mode) async throws {
        do {
            switch mode {
            case .questions: try await run()
            case .list:
                let regions = (1...30).map { WaitAlertButton("Region \($0)") }
                let region = try await askChoice("Pick a region", buttons: regions, style: .list)
                print("region: \(region.title)")
            case .output: try await confirmWhilePrinting()
            case .typeAhead: try await confirmAfterWork()
            case .crash:
                Task {
                    // Lines printed above the question meanwhile, each drawing it again.
                    for tick in 1...20 {
                        print("working \(tick)")
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    fatalError("the demo crashed on purpose while asking")
                }
                _ = try await askText("Name of the new project:")
            case .timeout:
                let name = try await askText(
                    "Name of the new project:", default: "demo", timeout: .seconds(1), onTimeout: .useDefault)
                print("name: \(name)")
                print("next line: \(readLine() ?? "(end of input)")")
            case .secret:
                let token = try await askText("Access token:", secret: true)
                print("token: \(token.count) characters")
            case .nested: try await runChild()
            }
        } catch let error as WaitAlertPromptError {
            WaitAlertPresenter.current.print("wait-alert-demo: \(error)", to: .standardError)
            throw error
        }
    }

    /// A confirmation inside a wait alert whose work goes on printing — with `print`, a log line
    /// and a subprocess — while it shows: every line comes out above the question, once.
    @MainActor static func confirmWhilePrinting() async throws {
        try await withWaitAlert("Copying files", success: "Copied") { alert in
            let printer = Task { @MainActor in
                for line in 1...20 {
                    print("printed line \(line)")
                    alert.log("log line \(line)")
                    _ = await OutputDemo.shell("echo \"subprocess line $0\"", "\(line)")
                    try await Task.sleep(for: .milliseconds(50))
                }
                print("printing done")
            }
            let proceed = try await confirm("Overwrite 3 files?", default: false)
            try await printer.value
            print("overwrite: \(proceed ? "yes" : "no")")
        }
    }

    /// `wait-alert-demo prompt` run as a child process inside an alert: its alerts are rows of this
    /// one, and its questions are asked here, on this program's terminal.
    @MainActor static func runChild() async throws {
        try await withWaitAlert("Installing", success: "Installed") { alert in
            do {
                let child = try await alert.run([CommandLine.arguments[0], "prompt"], output: .collected)
                print(child.standardOutput, terminator: "")
            } catch let error as WaitAlertCommandError where error.reason == .exited(130) {
                throw CancellationError()  // Escape or Ctrl-C at its question
            }
        }
    }

    /// Two seconds of work, then a confirmation whose default is no.
    @MainActor static func confirmAfterWork() async throws {
        try await withWaitAlert("Preparing", success: "Prepared") { _ in
            try await Task.sleep(for: .seconds(2))
        }
        let delete = try await confirm("Delete all files?", default: false)
        print("delete: \(delete ? "yes" : "no")")
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

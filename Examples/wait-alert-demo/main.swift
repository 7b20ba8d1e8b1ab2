// The classic wait alert, in a terminal: "Doing Something", three progress texts, then "Done".
//
//     swift run wait-alert-demo              the seed timeline, ending in success (exit status 0)
//     swift run wait-alert-demo --fail       the same, ending in failure (exit status 1)
//     swift run wait-alert-demo --logs       with log lines printed above the alert
//     swift run wait-alert-demo --hostile    texts full of escape sequences and control characters
//     swift run wait-alert-demo --quick      work that ends within the grace delay
//     swift run wait-alert-demo --steady     one text that never changes, for 8 seconds
//     swift run wait-alert-demo --exit-early calls exit(3) while the alert spins
//     swift run wait-alert-demo --stubborn   work that checks for cancellation only at its end:
//                                           Ctrl-C says it is cancelling, a second one quits
//     swift run wait-alert-demo --results    prints a result to standard output at each step
//                                           (try `| head -1`)
//     swift run wait-alert-demo --twice      a toast, and after a Ctrl-C the timeline once more
//     swift run wait-alert-demo --forget     a fire-and-forget alert ended by the last statement
//     swift run wait-alert-demo --forget-elsewhere   the same, ended from another thread
//     swift run wait-alert-demo tasks [--fail-fast] [--succeed] [--jobs N] [--seed N] [--count N]
//                                           a build of 40 concurrent child tasks (TasksDemo.swift)
//     swift run wait-alert-demo progress [--fail] [--seed N]
//                                           downloads with byte progress, a stall and a resume
//                                           (ProgressDemo.swift)
//     swift run wait-alert-demo output [--megabyte] [--exit] [--crash] [--ask]
//                                           print(), standard error and a subprocess printing
//                                           under the alert (OutputDemo.swift)
//     swift run wait-alert-demo prompt      a text field, buttons and a yes/no question; the
//                                           answers on standard output (PromptDemo.swift)
//     swift run wait-alert-demo run [--timeout SECONDS] [--collect] [--keep-going] [COMMAND...]
//                                           shell commands under an alert (RunDemo.swift)
import Dispatch
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct DemoFailure: Error, CustomStringConvertible {
    var description: String { "Could not reach the server" }
}

if CommandLine.arguments.dropFirst().first == "tasks" {
    await TasksDemo.runAndExit(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.dropFirst().first == "progress" {
    await ProgressDemo.runAndExit(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.dropFirst().first == "prompt" {
    await PromptDemo.runAndExit(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.dropFirst().first == "output" {
    await OutputDemo.runAndExit(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.dropFirst().first == "run" {
    await RunDemo.runAndExit(Array(CommandLine.arguments.dropFirst(2)))
}

let options = Set(CommandLine.arguments.dropFirst())
let known: Set = [
    "--fail", "--logs", "--hostile", "--quick", "--steady", "--exit-early", "--twice", "--forget", "--forget-elsewhere",
    "--stubborn", "--results", "--help",
]
if options.contains("--help") || !options.isSubset(of: known) {
    print(
        """
        usage: wait-alert-demo [--fail] [--logs] [--hostile] [--quick] [--steady] [--exit-early] [--twice]
                               [--stubborn] [--results] [--forget[-elsewhere]]
               \(TasksDemo.usage)
               \(ProgressDemo.usage)
               \(OutputDemo.usage)
               \(PromptDemo.usage)
               \(RunDemo.usage)
        """
    )
    exit(options.isSubset(of: known) ? 0 : 2)
}

let hostile = options.contains("--hostile")
let steps: [(at: Duration, text: String)] = [
    (.seconds(1), hostile ? "evil\u{1B}[2J\u{1B}]0;pwned\u{07}\nsecond\rline" : "Getting there…"),
    (.seconds(2), hostile ? "\u{202E}desrever\u{202C} and \u{1B}[31mred\u{1B}[0m" : "Really…"),
    (.seconds(3), hostile ? String(repeating: "漢字👨‍👩‍👧 ", count: 40) : "Just about there…"),
]

/// The seed timeline under a wait alert titled `title`.
@MainActor func play(_ title: String) async throws {
    try await withWaitAlert(title, success: "Done") { alert in
        if options.contains("--quick") { return }
        if options.contains("--steady") { return try await Task.sleep(for: .seconds(8)) }
        let start = ContinuousClock.now
        for step in steps {
            try await sleep(until: start + step.at)
            alert.update(step.text)
            if options.contains("--logs") { alert.log("reached \(step.at)") }
            if options.contains("--results") {
                // Each result as it comes, as a tool that flushes its lines does.
                let line = Array("result: \(step.text)\n".utf8)
                _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            }
            if options.contains("--exit-early") { exit(3) }
        }
        try await sleep(until: start + .milliseconds(4500))
        try Task.checkCancellation()  // what --stubborn work does at last
        if options.contains("--fail") { throw DemoFailure() }
    }
}

/// Sleeps until `deadline`; with `--stubborn`, whether the task is cancelled or not, as work that
/// does not check for cancellation (a blocking call, a loop that never looks) keeps going.
func sleep(until deadline: ContinuousClock.Instant) async throws {
    guard options.contains("--stubborn") else { return try await Task.sleep(until: deadline) }
    let delay = max(deadline - .now, .zero)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delay / .nanoseconds(1)))) {
            done.resume()
        }
    }
}

/// `showWaitAlert`, then the ending as the program's last statement: the final line still shows.
@MainActor func forget(endingElsewhere: Bool) async {
    let alert = showWaitAlert("Syncing…")
    try? await Task.sleep(for: .milliseconds(1200))
    alert.update("Almost synced…")
    if endingElsewhere {
        // Ended from another thread while the main actor is held up until the program exits:
        // only the exit itself can print the final line.
        let ended = DispatchSemaphore(value: 0)
        Task.detached {
            alert.succeed("Synced")
            ended.signal()
        }
        ended.wait()
    } else {
        alert.succeed("Synced")
    }
}

/// The seed timeline (twice with `--twice`), then an exit status that says how it ended.
@MainActor func playAndExit() async -> Never {
    do {
        if options.contains("--twice") { showToast("Ctrl-C now to cancel this run and start it again") }
        do {
            try await play("Doing Something")
        } catch is CancellationError where options.contains("--twice") {
            try await play("Doing it again")
        }
        exit(0)
    } catch is CancellationError {
        exit(130)
    } catch {
        exit(1)
    }
}

if options.contains("--forget") || options.contains("--forget-elsewhere") {
    await forget(endingElsewhere: options.contains("--forget-elsewhere"))
} else {
    await playAndExit()
}

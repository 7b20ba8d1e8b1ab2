import Dispatch
import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert-demo output`: a program that prints while its wait alert shows — with `print`,
/// to standard error, and through a subprocess (whole lines, a line rewritten with `\r`) — and
/// whose output comes out above the alert, never through it.
///
///     swift run wait-alert-demo output              five steps, each printing to both streams
///     swift run wait-alert-demo output --megabyte   a subprocess writes 1 MB to each stream
///     swift run wait-alert-demo output --exit       exit(0) right after printing, mid-alert
///     swift run wait-alert-demo output --crash      a fatal error right after printing
///     swift run wait-alert-demo output --ask        asks a question with the alert suspended
///     swift run wait-alert-demo output --background a job started in the background goes on
///                                                   writing after the program has ended
///     swift run wait-alert-demo output --hostile    a subprocess's last, unfinished line is
///                                                   full of escape sequences
///     swift run wait-alert-demo output --window     a subprocess prints the window size each
///                                                   time it changes, for 4 seconds (Python)
enum OutputDemo {
    static let usage =
        "wait-alert-demo output [--megabyte] [--exit] [--crash] [--ask] [--background] [--hostile] [--window]"

    struct Options {
        var megabyte = false
        var exits = false
        var crashes = false
        var asks = false
        var background = false
        var hostile = false
        var window = false
    }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        for argument in arguments {
            switch argument {
            case "--megabyte": options.megabyte = true
            case "--exit": options.exits = true
            case "--crash": options.crashes = true
            case "--ask": options.asks = true
            case "--background": options.background = true
            case "--hostile": options.hostile = true
            case "--window": options.window = true
            default: return nil
            }
        }
        return options
    }

    @MainActor static func runAndExit(_ arguments: [String]) async -> Never {
        await runModeAndExit(arguments, usage: usage, parse: parse, run: run)
    }

    @MainActor static func run(_ options: Options) async throws {
        if options.megabyte {
            try await withWaitAlert("Copying a megabyte", success: "Copied") { alert in
                alert.update("Two streams at once")
                let status = await shell(
                    "seq -f 'out %06g' 1 90000 & seq -f 'err %06g' 1 90000 >&2; wait")
                if status != 0 { throw ShellFailure(status: status) }
            }
            return
        }
        if options.background {
            try await withWaitAlert("Starting a job", success: "Started") { alert in
                // The job keeps the captured output it inherited, and writes after the program ends.
                _ = await shell(
                    "(sleep 1; echo 'background output'; echo 'background error' >&2; sleep 0.5; "
                        + "echo 'background done') &")
                try await Task.sleep(for: .milliseconds(500))
            }
            return
        }
        if options.window {
            try await withWaitAlert("Watching the window", success: "Watched") { _ in
                let script = """
                    import os, signal, time
                    def changed(signal, frame):
                        # os.write, not print: a second signal may come while the first is handled.
                        os.write(1, b"size %d %d\\n" % tuple(os.get_terminal_size(1)))
                    signal.signal(signal.SIGWINCH, changed)
                    print("watching", flush=True)
                    time.sleep(4)
                    """
                _ = await shell("exec python3 -c \"$0\"", script)
            }
            return
        }
        if options.hostile {
            try await withWaitAlert("Working", success: "Done") { _ in
                _ = await shell(
                    "echo 'first line'; printf 'last \\033]0;PWNED\\007\\033[?1049h\\033[31mred\\033[0m'")
                try await Task.sleep(for: .milliseconds(500))
            }
            return
        }
        try await withWaitAlert("Working", success: "Done") { alert in
            for step in 1...5 {
                alert.update("Step \(step) of 5")
                print("print line \(step)")
                writeToStandardError("standard error line \(step)\n")
                if options.exits, step == 3 { exit(0) }
                if options.crashes, step == 3 { fatalError("the demo crashed on purpose at step \(step)") }
                if options.asks, step == 2 {
                    let answer = await WaitAlertPresenter.current.withAlertsSuspended {
                        print("Your name? ", terminator: "")
                        return readLine() ?? ""
                    }
                    WaitAlertPresenter.current.print("Hello, \(answer)!")
                }
                let status = await shell(
                    "echo \"subprocess $0 says hi\"; echo \"subprocess $0 warns\" >&2; "
                        + "printf 'downloading 10%%\\r'; sleep 0.2; printf 'downloading 60%%\\r'; sleep 0.2; "
                        + "printf 'downloading 100%%\\n'",
                    "\(step)")
                if status == 128 + SIGINT { throw CancellationError() }  // Ctrl-C reached it too
                if status != 0 { throw ShellFailure(status: status) }
            }
        }
    }

    /// Writes `text` to descriptor 2, as C code or a library would.
    static func writeToStandardError(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }

    struct ShellFailure: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "The subprocess ended with status \(status)" }
    }

    /// Runs `script` with `sh -c`, inheriting the descriptors; returns its exit status.
    static func shell(_ script: String, _ name: String = "sh") async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let arguments = ["/bin/sh", "-c", script, name]
                var argv = arguments.map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                // A dispatch thread blocks most signals; the subprocess starts with none blocked.
                var attributes = posix_spawnattr_t()
                posix_spawnattr_init(&attributes)
                defer { posix_spawnattr_destroy(&attributes) }
                var none = sigset_t()
                sigemptyset(&none)
                posix_spawnattr_setsigmask(&attributes, &none)
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
                var pid = pid_t()
                guard posix_spawn(&pid, "/bin/sh", nil, &attributes, &argv, environ) == 0 else {
                    return continuation.resume(returning: 127)
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                continuation.resume(returning: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
            }
        }
    }
}

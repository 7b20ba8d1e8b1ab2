import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wait-alert replay FILE`: plays a recorded event stream (`WAIT_ALERT_PROGRESS=json`) on
/// standard error, as the program that recorded it showed it — for bug reports, documentation
/// and trying a display without running the work again.
@MainActor
enum ReplayCommand {
    struct Options: Equatable {
        var files: [String] = []
        var speed = 1.0
        var progress: TerminalOverlay.Mode?
    }

    static let usage = """
        usage: wait-alert replay [--speed N] [--progress auto|tty|plain|json|off|accessible|agent|github|gitlab] FILE...

        Plays FILE, an event stream recorded with WAIT_ALERT_PROGRESS=json (one JSON event a
        line), on standard error as the program that recorded it showed it. FILE - reads
        standard input. Several FILEs (streams of several machines or programs) are merged and
        played as one, each event at its time on the wall clock (the "began" of a stream's
        first line).

          --speed N        N times faster than recorded (default 1; 'inf': every event at once),
                           with the recorded times
          --progress MODE  how to show it, as for wait-alert (default: WAIT_ALERT_PROGRESS)

        Lines that are not events are skipped, and counted at the end; a pause of more than
        10 seconds is shortened to 10 seconds, with a line saying so. What the recorded program
        printed is shown sanitized, like every text of its alerts.
        Exit status: 0; 130 after Ctrl-C; 1 when FILE cannot be read or holds no event; 2 for invalid arguments.
        """

    enum Problem: Error, Equatable {
        case help
        case invalid(String)
    }

    /// Reads the arguments after `replay`.
    static func parse(_ arguments: [String]) -> Result<Options, Problem> {
        var options = Options()
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--help" || argument == "-h" { return .failure(.help) }
            if !optionsEnded, argument == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded, argument.hasPrefix("--") {
                var name = argument
                var value: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    value = String(argument[argument.index(after: equals)...])
                }
                guard name == "--speed" || name == "--progress" else {
                    return .failure(.invalid("replay: unknown option '\(name)'"))
                }
                if value == nil, index < arguments.endIndex {
                    value = arguments[index]
                    index += 1
                }
                guard let value else { return .failure(.invalid("replay: \(name) needs a value")) }
                if name == "--speed" {
                    guard let speed = Double(value == "inf" ? "infinity" : value), speed > 0 else {
                        return .failure(
                            .invalid("replay: --speed takes a number above 0, such as 2 or 0.5; not '\(value)'"))
                    }
                    options.speed = speed
                } else {
                    guard let mode = TerminalOverlay.Mode(value) else {
                        return .failure(
                            .invalid(
                                "replay: --progress takes auto, tty, plain, json, off, accessible, agent, github or gitlab; not '\(value)'"
                            ))
                    }
                    options.progress = mode
                }
                continue
            }
            guard !argument.isEmpty else { return .failure(.invalid("replay: a FILE cannot be empty")) }
            options.files.append(argument)
        }
        guard !options.files.isEmpty else { return .failure(.invalid("replay: which FILE? (- for standard input)")) }
        guard options.files.filter({ $0 == "-" }).count <= 1 else {
            return .failure(.invalid("replay: standard input (-) can be read once"))
        }
        return .success(options)
    }

    static func run(_ arguments: [String]) async -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(.help):
            print(usage)
            return 0
        case .failure(.invalid(let problem)):
            complain("\(problem)\nTry 'wait-alert replay --help' for more information.")
            return 2
        }
        var recordings: [WaitAlertRecording] = []
        for file in options.files {
            let name = file == "-" ? "standard input" : file
            switch read(file) {
            case .success(let bytes): recordings.append(WaitAlertRecording(String(decoding: bytes, as: UTF8.self)))
            case .failure(let problem):
                complain("replay: cannot read \(name): \(problem)")
                return 1
            }
            guard recordings.last?.eventCount ?? 0 > 0 else {
                complain("replay: \(name) holds no event (WAIT_ALERT_PROGRESS=json records them)")
                return 1
            }
            if let skipped = recordings.last?.skippedLines, !skipped.isEmpty, options.files.count > 1 {
                reportSkipped(skipped, of: name)
            }
        }
        let name = options.files[0] == "-" ? "standard input" : options.files[0]
        let recording = recordings.count == 1 ? recordings[0] : WaitAlertRecording(merging: recordings)
        let renderers = [TerminalOverlay(mode: options.progress ?? .environment)]
        let presenter: WaitAlertPresenter
        if options.speed.isFinite, options.speed != 1 {
            // The whole display runs faster, not only the waits between events: grace delays,
            // reading times and elapsed times stay the recorded ones, and so does what shows.
            presenter = WaitAlertPresenter(
                renderers: renderers, timing: .terminal, clock: ScaledClock(speed: options.speed))
        } else {
            presenter = WaitAlertPresenter(renderers: renderers, timing: .terminal)
        }
        WaitAlertPresenter.shared = presenter
        await presenter.play(recording, speed: options.speed.isFinite ? 1 : .infinity)
        let interrupted = Task.isCancelled  // Ctrl-C cancels the playing: its alerts end as cancelled
        await presenter.idle()
        if recordings.count == 1, !recording.skippedLines.isEmpty { reportSkipped(recording.skippedLines, of: name) }
        return interrupted ? 130 : 0
    }

    /// Says which lines of `name` were not events.
    private static func reportSkipped(_ skipped: [Int], of name: String) {
        let lines = skipped.count == 1 ? "line \(skipped[0]) is" : "\(skipped.count) lines are"
        let first = skipped.count == 1 ? "" : " (the first: line \(skipped[0]))"
        complain("replay: \(lines) not an event of \(name)\(first); skipped")
    }

    /// The whole of `file` (`-`: standard input), or why it cannot be read.
    private static func read(_ file: String) -> Result<[UInt8], ReadProblem> {
        let descriptor = file == "-" ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ReadProblem(errno: errno)) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[..<count]
            } else if count == 0 {
                return .success(bytes)
            } else if errno != EINTR {
                return .failure(ReadProblem(errno: errno))
            }
        }
    }

    struct ReadProblem: Error, CustomStringConvertible {
        var errno: Int32
        var description: String { String(cString: strerror(errno)) }
    }

    private static func complain(_ message: String) {
        _ = Array("wait-alert: \(message)\n".utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// The C library's `read`, which `ReplayCommand.read(_:)` hides.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

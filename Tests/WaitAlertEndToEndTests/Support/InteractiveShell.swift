// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// An interactive `bash` (or plain `sh`) on a pseudo-terminal, for job control (Ctrl-Z, `bg`,
    /// `fg`, `&`).
    extension DemoProcess {
        /// The shells a job-control test runs under: `bash` restores the terminal's modes itself
        /// after a job stops or ends, which hides a program that does not; `sh` (dash on Debian)
        /// does not.
        enum Shell: String, CaseIterable, CustomTestStringConvertible {
            case bash, sh

            var testDescription: String { rawValue }

            func start() async throws -> DemoProcess {
                switch self {
                case .bash: try await DemoProcess.interactiveBash()
                case .sh: try await DemoProcess.interactiveSh()
                }
            }
        }

        /// An interactive plain `sh` whose prompt is ``shellPrompt``, with job control.
        static func interactiveSh() async throws -> DemoProcess {
            let shell = try DemoProcess(["-i"], environment: ["PS1": shellPrompt, "ENV": ""], program: "/bin/sh")
            try await shell.waitForOutput(shellPrompt)
            return shell
        }

        /// The prompt of ``interactiveBash()``.
        static let shellPrompt = "PROMPT> "

        /// An interactive bash whose prompt is ``shellPrompt``, reporting finished jobs at once.
        static func interactiveBash() async throws -> DemoProcess {
            let shell = try DemoProcess(
                ["--norc", "--noprofile", "-i"], environment: ["PS1": shellPrompt], program: "/bin/bash")
            try await shell.waitForOutput(shellPrompt)
            try shell.type("set -b\r")
            try await shell.waitForOutput(shellPrompt + "set -b", then: shellPrompt)
            return shell
        }

        /// What `stty -a` says about echo and canonical mode, run by the shell now.
        func shellModes() async throws -> (echo: Bool, canonical: Bool) {
            let start = output.count
            try type("stty -a\r")
            // stty's output, from its first line to the next prompt (a job's notice may come
            // before or after it).
            var modes = Substring()
            try await waitUntil("stty's output and the next prompt") { shell in
                let text = String(decoding: shell.output[start...], as: UTF8.self)
                guard let first = text.firstRange(of: "speed "),
                    let end = text[first.lowerBound...].firstRange(of: Self.shellPrompt)
                else { return false }
                modes = text[first.lowerBound..<end.lowerBound]
                return true
            }
            let words = modes.split { $0 == " " || $0 == "\r" || $0 == "\n" }
            return (words.contains("echo"), words.contains("icanon"))
        }

        /// Waits until `text` appears in the output after byte `offset`, then (optionally) `then`
        /// after it.
        func waitForOutput(
            _ text: String, after offset: Int = 0, then next: String? = nil, timeout: Duration = .seconds(15)
        ) async throws {
            try await waitUntil("\"\(text)\" in the output", timeout: timeout) { process in
                let output = String(decoding: process.output[min(offset, process.output.count)...], as: UTF8.self)
                guard let found = output.firstRange(of: text) else { return false }
                return next.map { output[found.upperBound...].contains($0) } ?? true
            }
        }
    }
#endif

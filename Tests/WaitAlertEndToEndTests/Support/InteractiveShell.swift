// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #endif

    /// An interactive `bash` on a pseudo-terminal, for job control (Ctrl-Z, `bg`, `fg`, `&`).
    extension DemoProcess {
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
            try await waitUntil("stty's output and the next prompt") { shell in
                String(decoding: shell.output[start...], as: UTF8.self).contains("icanon")
                    && String(decoding: shell.output[start...], as: UTF8.self).hasSuffix(Self.shellPrompt)
            }
            let words = String(decoding: output[start...], as: UTF8.self).split {
                $0 == " " || $0 == "\r" || $0 == "\n"
            }
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

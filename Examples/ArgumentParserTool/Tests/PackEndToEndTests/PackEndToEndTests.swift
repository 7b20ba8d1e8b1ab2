// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// `pack`, a swift-argument-parser command built on WaitAlert, run as a user runs it: under a
    /// real pseudo-terminal, with Ctrl-C and answers typed on the keyboard, and with its output
    /// on pipes. One test at a time: each follows a program in real time, and several at once on
    /// a small machine starve each other.
    @Suite(.serialized)
    struct PackEndToEndTests {
        static let hello = Array("hello\n".utf8)
        static let helloDigest = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
        /// 200,000 bytes (four blocks of 64 KiB and a part), `i % 251`.
        static let data = (0..<200_000).map { UInt8($0 % 251) }
        static let dataDigest = "e24bc62381f1224fbbb74688663f8f9743b9680b193edd666835e97b06e730eb"
        static let x = Array("x".utf8)
        static let xDigest = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"

        /// What `pack` prints on standard output for ``files()``: `sha256sum`'s format and digests.
        static let checksums = [
            "\(helloDigest)  a.txt", "\(dataDigest)  data.bin", "\(xDigest)  sub/b.txt",
        ]

        static func files() throws -> Folder {
            try Folder(["a.txt": hello, "data.bin": data, "sub/b.txt": x])
        }

        /// Ctrl-C while two large files are hashed (slowly, in CPU-bound code that never
        /// suspends): the hashing stops, `pack` exits with 130 and says so once — one cancelled
        /// line for the command's alert, one for each file it was hashing — with no `Error:`
        /// line and no checksum, and the terminal is as it was.
        @Test func controlCExits130WithOneCancelledLine() async throws {
            let eightMebibytes = [UInt8](repeating: 0, count: 8 << 20)
            let folder = try Folder(["a.txt": Self.hello, "big/one.bin": eightMebibytes, "big/two.bin": eightMebibytes])
            let pack = try ToolProcess([folder.path, "--slow", "--jobs", "2"])
            // Both large files are being hashed: each has a spinning row of its own.
            try await pack.waitForSpinner(on: "Hashing big/one.bin")
            try await pack.waitForSpinner(on: "Hashing big/two.bin")
            try pack.pressControlC()
            #expect(try await pack.waitForExit() == .exited(130), "\(pack.report)")

            let transcript = pack.transcript
            let cancelled = transcript.filter { $0.contains("cancelled") }
            #expect(
                cancelled.filter { $0.hasPrefix("⚠ Hashing 3 files: cancelled after ") }.count == 1,
                "one cancelled line for the command\n\(pack.report)")
            for file in ["big/one.bin", "big/two.bin"] {
                #expect(
                    cancelled.filter { $0.hasPrefix("⚠ Hashing \(file): cancelled after ") }.count == 1,
                    "the file being hashed is cancelled, once\n\(pack.report)")
                #expect(!transcript.contains { $0.hasPrefix("✔ Hashing \(file)") }, "\(pack.report)")
            }
            #expect(cancelled.count == 3, "no other cancelled line\n\(pack.report)")
            #expect(!transcript.contains { $0.contains("Error") }, "no Error: line\n\(pack.report)")
            #expect(!transcript.contains { $0.contains(Self.helloDigest) }, "no checksum printed\n\(pack.report)")
            expectTheTerminalRestored(pack)
        }

        /// A file that cannot be read: its row says why, the command's alert says hashing
        /// stopped, and the error is shown once — no `Error:` line after it; exit status 1.
        @Test func aFailureIsReportedOnce() async throws {
            let folder = try Self.files()
            let pack = try ToolProcess([folder.path, "--fail-on", "b.txt"])
            #expect(try await pack.waitForExit() == .exited(1), "\(pack.report)")
            let transcript = pack.transcript
            #expect(
                transcript.filter { $0.contains("cannot read sub/b.txt") } == [
                    "✖ Hashing sub/b.txt: cannot read sub/b.txt"
                ],
                "the error once, on its file's row\n\(pack.report)")
            #expect(transcript.last == "✖ Hashing 3 files: stopped at the first failure", "\(pack.report)")
            #expect(!transcript.contains { $0.contains("Error") }, "no Error: line\n\(pack.report)")
            expectTheTerminalRestored(pack)
        }

        /// An error no alert showed (a folder that is not there) is still reported, once, by
        /// swift-argument-parser.
        @Test func anErrorNoAlertShowedIsPrintedByArgumentParser() async throws {
            let pack = try ToolProcess(["/nonexistent/folder"])
            #expect(try await pack.waitForExit() == .exited(1), "\(pack.report)")
            #expect(pack.transcript == ["Error: /nonexistent/folder is not a folder"], "\(pack.report)")
        }

        /// The whole run, with the question answered: the checksums on the terminal, the archive
        /// written with the files and `SHA256SUMS` (`tar`'s listing is the alert's text, never
        /// printed), and the log line through swift-log last.
        @Test func aConfirmedRunWritesTheArchive() async throws {
            let folder = try Self.files()
            let output = try Folder([:])
            let archive = output.path + "/files.tar"
            let pack = try ToolProcess([folder.path, "--archive", archive])
            try await pack.waitFor(text: "(y/N)")
            try pack.type("y")
            #expect(try await pack.waitForExit() == .exited(0), "\(pack.report)")

            let transcript = pack.transcript
            #expect(transcript.first == "info pack: hashing 3 files in \(folder.path)", "\(pack.report)")
            #expect(transcript.filter { Self.checksums.contains($0) } == Self.checksums, "\(pack.report)")
            #expect(transcript.contains("? Write \(archive) (3 files)? Yes"), "\(pack.report)")
            for name in ["SHA256SUMS", "a.txt", "data.bin", "sub/b.txt"] {
                #expect(!transcript.contains(name), "tar's listing is not printed\n\(pack.report)")
            }
            #expect(transcript.contains { $0.hasPrefix("✔ Wrote \(archive) (") }, "\(pack.report)")
            #expect(transcript.last == "info pack: wrote \(archive)", "\(pack.report)")
            let written = try #require(output.contents(of: "files.tar"), "the archive was written")
            let sums = Array((Self.checksums.joined(separator: "\n") + "\n").utf8)
            #expect(written.firstRange(of: sums) != nil, "SHA256SUMS is in the archive")
            #expect(written.firstRange(of: Self.data) != nil, "data.bin is in the archive")
            expectTheTerminalRestored(pack)
        }

        /// Ctrl-C while `tar` runs (here it waits to open a named pipe nobody reads): `tar` is
        /// stopped — its whole process group — the alert ends as cancelled, and `pack` exits
        /// with 130, with no `Error:` line and the terminal as it was.
        @Test func controlCWhileTarRunsStopsIt() async throws {
            let folder = try Self.files()
            let output = try Folder([:])
            let archive = output.path + "/files.tar"
            try #require(mkfifo(archive, 0o600) == 0)
            let pack = try ToolProcess([folder.path, "--archive", archive, "--yes"])
            try await pack.waitForSpinner(on: "Writing \(archive)")
            var tar: pid_t = 0
            try await pack.waitUntil("tar started") { pack in
                tar = ProcessEntry.all().first { $0.parent == pack.pid }?.pid ?? 0
                return tar != 0
            }
            try pack.pressControlC()
            #expect(try await pack.waitForExit() == .exited(130), "\(pack.report)")
            let transcript = pack.transcript
            #expect(
                transcript.contains { $0.hasPrefix("⚠ Archiving 3 files: cancelled after ") }, "\(pack.report)")
            #expect(!transcript.contains { $0.contains("Error") }, "no Error: line\n\(pack.report)")
            #expect(ProcessEntry.liveMembers(ofGroup: tar).isEmpty, "tar's group is gone\n\(pack.report)")
            expectTheTerminalRestored(pack)
        }

        /// `tar` fails (the archive's folder is not there): its last lines print above the final
        /// line, which names its status; `pack` exits with 1, with no `Error:` line.
        @Test func aFailingTarShowsItsLastLinesAndStatus() async throws {
            let folder = try Self.files()
            let archive = "/nonexistent-pack-folder/files.tar"
            let pack = try ToolProcess([folder.path, "--archive", archive, "--yes"])
            #expect(try await pack.waitForExit() == .exited(1), "\(pack.report)")
            let transcript = pack.transcript
            let final = transcript.firstIndex { $0.hasPrefix("✖ Archiving 3 files: tar exited with status 2") }
            let index = try #require(final, "\(pack.report)")
            #expect(index > 0 && transcript[index - 1].hasPrefix("tar: "), "tar's last line above\n\(pack.report)")
            #expect(!transcript.contains { $0.contains("Error:") }, "no Error: line\n\(pack.report)")
            expectTheTerminalRestored(pack)
        }

        /// A key that answers the question without writing.
        enum Refusal: String, CaseIterable {
            case no = "n"
            case escape = "\u{1B}"
            case controlC = "\u{3}"
        }

        /// Refusing the question (`n`), escaping it or pressing Ctrl-C at it writes nothing;
        /// Escape and Ctrl-C end the program with 130 and no `Error:` line.
        @Test(arguments: Refusal.allCases)
        func aRefusedQuestionWritesNothing(_ refusal: Refusal) async throws {
            let folder = try Self.files()
            let output = try Folder([:])
            let archive = output.path + "/files.tar"
            let pack = try ToolProcess([folder.path, "--archive", archive])
            try await pack.waitFor(text: "(y/N)")
            try pack.type(refusal.rawValue)
            #expect(try await pack.waitForExit() == .exited(refusal == .no ? 0 : 130), "\(pack.report)")
            let transcript = pack.transcript
            #expect(output.contents(of: "files.tar") == nil, "nothing written")
            #expect(!transcript.contains { $0.contains("Error") }, "no Error: line\n\(pack.report)")
            if refusal == .no {
                #expect(transcript.suffix(2) == ["? Write \(archive) (3 files)? No", "notice pack: nothing written"])
            } else {
                #expect(!transcript.contains { $0.hasPrefix("? Write") }, "the question is gone\n\(pack.report)")
            }
            expectTheTerminalRestored(pack)
        }

        /// Output on pipes, as in a script or CI: the checksums alone on standard output, plain
        /// lines without one escape byte on standard error, and the question answered by the end
        /// of standard input (no).
        @Test func pipedOutputIsPlain() async throws {
            let folder = try Self.files()
            let output = try Folder([:])
            let archive = output.path + "/files.tar"
            let pack = try ToolProcess([folder.path, "--archive", archive], connection: .pipes)
            #expect(try await pack.waitForExit() == .exited(0), "\(pack.report)")
            let standardOutput = String(decoding: pack.standardOutput, as: UTF8.self)
            #expect(standardOutput == Self.checksums.map { $0 + "\n" }.joined())
            #expect(!pack.output.contains(0x1B), "no escape byte on standard error: \(escaped(pack.output))")
            let lines = pack.transcript
            #expect(lines.first == "info pack: hashing 3 files in \(folder.path)", "\(pack.report)")
            #expect(lines.contains { $0.hasPrefix("✔ Hashing 3 files (") }, "\(pack.report)")
            #expect(lines.suffix(2) == ["? Write \(archive) (3 files)? No", "notice pack: nothing written"])
            #expect(output.contents(of: "files.tar") == nil, "nothing written")
        }

        // MARK: - --progress and -q (ProgressOptions)

        /// `--progress JSON` (any case) on pipes: the checksums alone on standard output; on standard error
        /// the event stream — each event a JSON line, the command's alert and each file's row
        /// starting and ending in success — and swift-log's lines as they are; not one escape byte.
        @Test func progressJSONWritesTheEventStream() async throws {
            let folder = try Self.files()
            let pack = try ToolProcess([folder.path, "--progress", "JSON"], connection: .pipes)
            #expect(try await pack.waitForExit() == .exited(0), "\(pack.report)")
            #expect(String(decoding: pack.standardOutput, as: UTF8.self) == Self.checksums.map { $0 + "\n" }.joined())
            #expect(!pack.output.contains(0x1B), "\(escaped(pack.output))")
            let lines = String(decoding: pack.output, as: UTF8.self).split(separator: "\n").map(String.init)
            let events = lines.filter { $0.hasPrefix("{") }
            #expect(lines.filter { !$0.hasPrefix("{") } == ["info pack: hashing 3 files in \(folder.path)"])
            #expect(events.allSatisfy { $0.hasPrefix(#"{"v":1,"event":""#) && $0.hasSuffix("}") }, "\(events)")
            for title in ["Hashing 3 files", "Hashing a.txt", "Hashing data.bin", "Hashing sub/b.txt"] {
                #expect(
                    events.filter { $0.contains(#""event":"start""#) && $0.contains(#""title":"\#(title)""#) }.count
                        == 1)
                #expect(
                    events.filter { $0.contains(#""event":"end""#) && $0.contains(#""text":"\#(title)""#) }.count == 1,
                    "\(title) ends once\n\(events.joined(separator: "\n"))")
            }
            #expect(events.filter { $0.contains(#""outcome":"success""#) }.count == 4)
        }

        /// `--progress plain` on a terminal: plain lines — no spinner, no escape byte — the final
        /// line, and the checksums; and `--progress` wins over `WAIT_ALERT_PROGRESS`, even one
        /// that names no mode (nothing is said about it).
        @Test(arguments: ["json", "fancy"])
        func progressPlainOnATerminal(environment value: String) async throws {
            let folder = try Self.files()
            let pack = try ToolProcess(
                [folder.path, "--progress", "plain"], environment: ["WAIT_ALERT_PROGRESS": value])
            #expect(try await pack.waitForExit() == .exited(0), "\(pack.report)")
            #expect(!pack.output.contains(0x1B), "no escape byte: \(escaped(pack.output))")
            let transcript = pack.transcript
            #expect(transcript.first == "info pack: hashing 3 files in \(folder.path)", "\(pack.report)")
            #expect(transcript.contains { $0.hasPrefix("✔ Hashing 3 files (") }, "\(pack.report)")
            #expect(transcript.filter { Self.checksums.contains($0) } == Self.checksums, "\(pack.report)")
            #expect(!transcript.contains { $0.contains("WAIT_ALERT_PROGRESS") }, "\(pack.report)")
            #expect(!transcript.contains { $0.hasPrefix("{") }, "\(pack.report)")
        }

        /// Run by an AI agent (`CLAUDECODE=1`) on a terminal, with no option: the agent mode — the
        /// first line saying how to get everything, the failure and the final line, no escape
        /// byte, the checksums on standard output as always; `--progress plain` shows every line.
        @Test func anAgentGetsTheCompactMode() async throws {
            let folder = try Self.files()
            let agent = try ToolProcess([folder.path, "--fail-on", "b.txt"], environment: ["CLAUDECODE": "1"])
            #expect(try await agent.waitForExit() == .exited(1), "\(agent.report)")
            #expect(!agent.output.contains(0x1B), "no escape byte: \(escaped(agent.output))")
            let transcript = agent.transcript
            #expect(
                transcript.contains {
                    $0.hasPrefix("wait-alert: compact output for an AI agent (CLAUDECODE is set)")
                }, "\(agent.report)")
            #expect(transcript.contains("✖ Hashing sub/b.txt: cannot read sub/b.txt"), "\(agent.report)")
            #expect(transcript.contains("✖ Hashing 3 files: stopped at the first failure"), "\(agent.report)")
            expectTheTerminalRestored(agent)

            let plain = try ToolProcess([folder.path, "--progress", "plain"], environment: ["CLAUDECODE": "1"])
            #expect(try await plain.waitForExit() == .exited(0), "\(plain.report)")
            #expect(!plain.transcript.contains { $0.contains("compact output") }, "\(plain.report)")
            #expect(plain.transcript.contains { $0.hasPrefix("✔ Hashing 3 files (") }, "\(plain.report)")
        }

        /// `-q` on a terminal: the checksums and nothing else — no alert, no info line — and the
        /// terminal as it was; with a failure, the failure's final lines (and exit status 1).
        @Test func quietShowsNothingButFailures() async throws {
            let folder = try Self.files()
            let quiet = try ToolProcess([folder.path, "-q"])
            #expect(try await quiet.waitForExit() == .exited(0), "\(quiet.report)")
            #expect(quiet.transcript == Self.checksums, "\(quiet.report)")
            expectTheTerminalRestored(quiet)

            let failing = try ToolProcess([folder.path, "--quiet", "--fail-on", "b.txt"])
            #expect(try await failing.waitForExit() == .exited(1), "\(failing.report)")
            #expect(
                failing.transcript == [
                    "✖ Hashing sub/b.txt: cannot read sub/b.txt", "✖ Hashing 3 files: stopped at the first failure",
                ], "\(failing.report)")
            expectTheTerminalRestored(failing)
        }

        /// A value `--progress` does not take, and `-q` with another mode: swift-argument-parser's
        /// error, naming the values or the conflict, with its usage line, and exit status 64
        /// (`EX_USAGE`); nothing hashed.
        @Test func aBadProgressValueIsAUsageError() async throws {
            let folder = try Self.files()
            let fancy = try ToolProcess([folder.path, "--progress", "fancy"], connection: .pipes)
            #expect(try await fancy.waitForExit() == .exited(64), "\(fancy.report)")
            let error = String(decoding: fancy.output, as: UTF8.self)
            #expect(error.hasPrefix("Error: The value 'fancy' is invalid for '--progress <mode>'"), "\(error)")
            for mode in ["auto", "tty", "plain", "json", "off", "accessible", "agent", "github", "gitlab"] {
                #expect(error.contains("  - \(mode)\n"), "\(error)")
            }
            #expect(error.contains("Usage: pack <folder>"), "\(error)")
            #expect(fancy.standardOutput.isEmpty)

            let conflict = try ToolProcess([folder.path, "-q", "--progress", "json"], connection: .pipes)
            #expect(try await conflict.waitForExit() == .exited(64), "\(conflict.report)")
            let message = String(decoding: conflict.output, as: UTF8.self)
            #expect(
                message.hasPrefix("Error: --quiet shows failures only; it cannot be used with --progress json.\n"),
                "\(message)")
            #expect(conflict.standardOutput.isEmpty)
        }

        /// The cursor visible, no spinner left, the terminal's modes as before.
        private func expectTheTerminalRestored(_ pack: ToolProcess, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(pack.screen.isCursorVisible, "\(pack.report)", sourceLocation: sourceLocation)
            #expect(!pack.screen.isStyled, "no colour left on\n\(pack.report)", sourceLocation: sourceLocation)
            let spinner = pack.transcript.filter(isSpinning)
            #expect(spinner.isEmpty, "no spinner left\n\(pack.report)", sourceLocation: sourceLocation)
            #expect(pack.modesAtExit == pack.modesBefore, sourceLocation: sourceLocation)
        }
    }
#endif

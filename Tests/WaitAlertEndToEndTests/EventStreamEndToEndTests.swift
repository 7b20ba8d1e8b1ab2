// The pseudo-terminal harness uses Linux's openpty and posix_spawn flags.
#if os(Linux)
    import Foundation
    import Testing
    import WaitAlert
    import WaitAlertTesting

    extension EndToEnd {
        /// `WAIT_ALERT_PROGRESS` chooses what a program built on WaitAlert writes, even on a real
        /// terminal: the event stream, one JSON object per line, with no escape byte.
        @Suite(.serialized)
        struct EventStreamEndToEndTests {
            /// The tasks demo on a terminal in `json` mode: every line parses as JSON (by
            /// Foundation, not by the writer), every task that starts ends once, child tasks name a
            /// parent that started before them, times never go back, the failure is in the stream,
            /// and the terminal is left as it was.
            @Test func theTasksDemoWritesTheEventStream() async throws {
                let demo = try DemoProcess(["tasks"], environment: ["WAIT_ALERT_PROGRESS": "json"])
                #expect(try await demo.waitForExit(timeout: .seconds(60)) == .exited(1), "\(demo.report)")
                #expect(!demo.output.contains(0x1B), "\(escaped(demo.output.prefix(400)))")
                #expect(demo.modesAtExit == demo.modesBefore)
                let lines = demo.text.split(whereSeparator: \.isNewline).map(String.init)
                var started: Set<Int> = []
                var ended: Set<Int> = []
                var lastTime = 0.0
                for line in lines {
                    let value = try? JSONSerialization.jsonObject(with: Data(line.utf8))
                    let event = try #require(value as? [String: Any], "a JSON object: \(escaped(line.utf8))")
                    #expect(event["v"] as? Int == 1, "\(line)")
                    let time = try #require(event["time"] as? Double, "\(line)")
                    #expect(time >= lastTime, "\(line)")
                    lastTime = time
                    guard let id = event["id"] as? Int else { continue }
                    switch event["event"] as? String {
                    case "start":
                        #expect(started.insert(id).inserted, "started once: \(line)")
                        if let parent = event["parent"] as? Int { #expect(started.contains(parent), "\(line)") }
                    case "end":
                        #expect(started.contains(id) && ended.insert(id).inserted, "ended once: \(line)")
                    default:
                        #expect(started.contains(id) && !ended.contains(id), "between start and end: \(line)")
                    }
                }
                #expect(started.count > 20 && started == ended, "\(started.subtracting(ended))")
                #expect(
                    lines.contains {
                        $0.contains(#""outcome":"failure","text":"Compiling Networking: 2 errors generated""#)
                    })
            }

            /// A value that names no mode is reported once, and the default applies.
            @Test func anUnknownModeIsReportedAndAutoUsed() async throws {
                let demo = try DemoProcess(
                    ["--quick"], environment: ["WAIT_ALERT_PROGRESS": "fancy"], connection: .pipe)
                #expect(try await demo.waitForExit() == .exited(0))
                let lines = demo.text.split(separator: "\n").map(String.init)
                #expect(
                    lines.first
                        == "wait-alert: WAIT_ALERT_PROGRESS=fancy is not one of auto, tty, plain, json, off, accessible, agent, github, gitlab; using auto",
                    "\(lines)")
                #expect(lines.count == 2 && lines[1].hasPrefix("✔ Done ("), "\(lines)")
            }
        }
    }
#endif

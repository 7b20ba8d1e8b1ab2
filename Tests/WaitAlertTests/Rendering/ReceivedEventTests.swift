import Testing

@testable import WaitAlert

/// Reading the event stream another process wrote: the JSON reader, and the events it makes of
/// each line — the lines `jsonLine` writes read back as they were, and everything else refused.
@Suite("Events read from another process")
struct ReceivedEventTests {
    @Test func theReaderReadsJSON() {
        let fields = JSONText.object(
            #" { "a" : "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00" , "b":-12.5e1, "c":true, "d":false, "e":null, "f":[1,{"g":[]}], "h":{} } "#
        )
        #expect(fields?["a"] == .string("x\"\\/\u{08}\u{0C}\n\r\té😀"))
        #expect(fields?["b"] == .number(-125))
        #expect(fields?["c"] == .bool(true) && fields?["d"] == .bool(false) && fields?["e"] == .null)
        #expect(fields?["f"] == .array([.number(1), .nested]) && fields?["h"] == .nested)
        #expect(JSONText.object(#"{"b":["x","y"]}"#)?["b"]?.strings == ["x", "y"])
        #expect(JSONText.object(#"{"b":["x",1]}"#)?["b"]?.strings == nil)
        #expect(JSONText.object("{}") == [:])
        #expect(JSONText.object(#"{"n":3}"#)?["n"]?.integer == 3)
        #expect(JSONText.object(#"{"n":3.5}"#)?["n"]?.integer == nil)
    }

    @Test(arguments: [
        "", "null", "[]", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1} x"#, #"{a:1}"#, #"{"a":'x'}"#,
        #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\ud83d"}"#, #"{"a":"\udc00"}"#, "{\"a\":\"tab\there\"}",
        #"{"a":01x}"#,
        #"{"a":-}"#, #"{"a":1.}"#, #"{"a":tru}"#, #"{"a":"unterminated}"#,
        String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        "{\"a\":" + String(repeating: "[", count: 20) + String(repeating: "]", count: 20) + "}",
    ])
    func theReaderRefusesWhatIsNotOneObject(_ line: String) {
        #expect(JSONText.object(line) == nil, "\(line)")
    }

    /// Every kind of line `jsonLine` writes reads back as the same event.
    @Test func writtenLinesReadBack() throws {
        let alert = WaitAlertID(rawValue: 7)
        let parent = WaitAlertID(rawValue: 3)
        let kinds: [WaitAlertEvent.Kind] = [
            .start(title: "Compiling \"Core\"\n…"),
            .text("50% \u{1B}[31m done"),
            .progress(completed: 12, total: 40, unit: .named("files")),
            .progress(completed: 5, total: nil, unit: .bytes),
            .progress(completed: 1, total: 2, unit: .binaryBytes),
            .progress(completed: 1, total: 2, unit: .count),
            .progressUnknown,
            .log("warning: x"),
            .end(outcome: .success("Built"), text: "Built", elapsed: .seconds(1)),
            .end(outcome: .failure("Core: 2 errors"), text: "Core: 2 errors", elapsed: .seconds(1)),
            .end(outcome: .cancelled, text: "Core: cancelled after 1.0s", elapsed: .seconds(1)),
            .end(outcome: .timedOut, text: "Core: timed out after 1.0s", elapsed: .seconds(1)),
            .end(outcome: .dismissed, text: nil, elapsed: .seconds(1)),
            .end(outcome: .skipped(nil), text: "Core: skipped", elapsed: .seconds(1)),
            .end(outcome: .skipped("no sources"), text: "Core: skipped (no sources)", elapsed: .seconds(1)),
        ]
        for kind in kinds {
            let line = WaitAlertEvent(kind, alert: alert, parent: parent, time: .seconds(2)).jsonLine
            let read = try #require(WaitAlertEvent.received(line), "\(line)")
            #expect(read.id == 7 && read.parent == 3)
            if case .end(let outcome, let text, _) = kind {
                guard case .end(let readOutcome, let readText, _) = read.kind else {
                    Issue.record("not an end: \(read)")
                    continue
                }
                #expect(readOutcome == outcome && readText == text, "\(line)")
            } else {
                #expect(read.kind == kind, "\(line)")
            }
        }
    }

    /// A line a script writes by hand: no `v`, no `time`, no `id` (the alert the script runs
    /// under).
    @Test func aHandWrittenLineNeedsOnlyItsEvent() throws {
        let read = try #require(WaitAlertEvent.received(#"{"event":"text","text":"Uploading…"}"#))
        #expect(read == WaitAlertEvent.Received(kind: .text("Uploading…"), id: nil, parent: nil))
        let progress = try #require(WaitAlertEvent.received(#"{"event":"progress","completed":40,"total":100}"#))
        #expect(progress.kind == .progress(completed: 40, total: 100, unit: .count))
    }

    @Test(arguments: [
        #"{"v":2,"event":"text","text":"x"}"#, #"{"v":"1","event":"text","text":"x"}"#,
        #"{"event":"shout","text":"x"}"#,
        #"{"event":"text"}"#, #"{"event":"text","text":5}"#, #"{"event":"start","id":1}"#, #"{"event":"log"}"#,
        #"{"event":"end","id":1,"outcome":"exploded"}"#, #"{"event":"progress","completed":"40"}"#,
        #"{"event":"progress","completed":1.5}"#, #"{"event":"text","id":-1,"text":"x"}"#,
        #"{"event":"text","id":"a","text":"x"}"#, #"{"text":"x"}"#, "not json at all",
    ])
    func linesThatAreNotEventsAreRefused(_ line: String) {
        #expect(WaitAlertEvent.received(line) == nil, "\(line)")
    }

    @Test func longTextsAreCut() throws {
        let long = String(repeating: "é", count: 10_000)
        let read = try #require(WaitAlertEvent.received(WaitAlertEvent(.text(long), alert: nil, time: .zero).jsonLine))
        #expect(read.kind == .text(String(repeating: "é", count: 4096)))
    }
}

import Testing

@testable import WaitAlert

/// Event lines taken out of bytes copied as they come (a command's standard error passed
/// through): whole lines only, every other byte passed on unchanged and at once.
@Suite("Event lines in passed-through output")
struct EventLineFilterTests {
    static let event = #"{"v":1,"event":"start","id":1,"time":0.000,"title":"Remote"}"#

    /// Feeds `text` in chunks of `size` bytes: what passed, and the lines taken.
    static func filter(_ text: String, chunk size: Int, takes: (String) -> Bool = { _ in true }) -> (
        passed: String, taken: [String]
    ) {
        var filter = EventLineFilter()
        var passed: [UInt8] = []
        var taken: [String] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            passed += filter.feed(bytes[start..<end]) { line in
                guard takes(line) else { return false }
                taken.append(line)
                return true
            }
            start = end
        }
        passed += filter.finish()
        return (String(decoding: passed, as: UTF8.self), taken)
    }

    @Test(arguments: [1, 2, 7, 64, 4096])
    func eventLinesAreTakenAndEverythingElsePasses(chunk: Int) {
        let text = "before\n\(Self.event)\nmiddle {\"v\":1} not at the start\n\(Self.event)\r\nafter"
        let result = Self.filter(text, chunk: chunk)
        #expect(result.passed == "before\nmiddle {\"v\":1} not at the start\nafter")
        #expect(result.taken == [Self.event, Self.event])
    }

    @Test(arguments: [1, 5, 4096])
    func aLineThatIsNotAnEventPassesWhole(chunk: Int) {
        let text = "{\"v\":\"json log line\"}\n{\"level\":\"info\"}\n{\"v\n"
        let result = Self.filter(text, chunk: chunk) { _ in false }
        #expect(result.passed == text)
        #expect(result.taken.isEmpty)
    }

    @Test func aPromptWithoutALineFeedIsNotHeldBack() {
        var filter = EventLineFilter()
        #expect(filter.feed(Array("Password: ".utf8)) { _ in true } == Array("Password: ".utf8))
        // Only what may still begin an event is held, until it no longer can.
        #expect(filter.feed(Array("x\n{\"v".utf8)) { _ in true } == Array("x\n".utf8))
        #expect(filter.feed(Array("!".utf8)) { _ in true } == Array("{\"v!".utf8))
        #expect(filter.finish().isEmpty)
    }

    @Test func anUnfinishedEventLineAtTheEndIsPassedOn() {
        let result = Self.filter("ok\n" + Self.event, chunk: 3)
        #expect(result.passed == "ok\n" + Self.event)
        #expect(result.taken.isEmpty)
    }

    @Test func aLineLongerThanTheLimitIsPassedAsItIs() {
        let long = "{\"v\":1," + String(repeating: "x", count: EventLineFilter.lineLimit + 10) + "}\n"
        let result = Self.filter(long + Self.event + "\n", chunk: 4096)
        #expect(result.passed == long)
        #expect(result.taken == [Self.event])
    }
}

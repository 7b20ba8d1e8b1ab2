import Testing
import WaitAlert

/// The last lines of a stream (a failure report's tail).
struct LastLinesTests {
    @Test func keepsTheLastLinesOldestFirst() {
        var tail = LastLines(capacity: 3)
        #expect(tail.lines.isEmpty)
        tail.append("a")
        tail.append("b")
        #expect(tail.lines == ["a", "b"])
        for line in ["c", "d", "e"] { tail.append(line) }
        #expect(tail.lines == ["c", "d", "e"])
        tail.append("f")
        #expect(tail.lines == ["d", "e", "f"])
        var none = LastLines(capacity: 0)
        none.append("a")
        #expect(none.lines.isEmpty)
    }
}

import Testing

@testable import WaitAlert

/// The optional parts most alerts never have are kept out of line: they cost a pointer's room
/// (nothing allocated while `nil`), and stay values.
@Suite("Values kept out of line")
struct OutOfLineStorageTests {
    private struct Holder: Hashable {
        @OutOfLineOptional var progress: ReportedProgress?
    }

    @Test func anOptionalKeptOutOfLineTakesAPointersRoom() {
        let pointer = MemoryLayout<UnsafeRawPointer>.size
        #expect(MemoryLayout<OutOfLineOptional<ReportedProgress>>.size == pointer)
        #expect(MemoryLayout<Holder>.size == pointer)
        #expect(MemoryLayout<ReportedProgress?>.size > 2 * pointer, "what it saves")
    }

    @Test func itIsEqualAndHashedAsItsValue() {
        let progress = ReportedProgress(completed: 3, total: 10, unit: .count)
        var first = Holder(progress: progress)
        let second = Holder(progress: progress)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.progress == progress)
        first.progress?.completed = 4
        #expect(first != second)
        #expect(second.progress?.completed == 3, "a copy keeps its own value")
        first.progress = nil
        #expect(first == Holder(progress: nil))
    }
}

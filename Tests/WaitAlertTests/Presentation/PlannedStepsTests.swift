import Testing

@testable import WaitAlert

/// The steps planned under an alert: in order, the first of a title taken out wherever it is,
/// the first few listed, against a plain array doing the same.
@Suite("Planned steps")
struct PlannedStepsTests {
    @Test func stepsLeaveByTitleInTheOrderTheyWerePlanned() {
        var steps = PlannedSteps()
        steps.append(contentsOf: ["Hashing README", "Hashing a.txt", "Hashing README", "Linking"])
        #expect(steps.count == 4 && steps.contains("Hashing README"))
        let first = steps.removeFirst("Hashing README")
        #expect(first)
        #expect(steps.prefix(10) == ["Hashing a.txt", "Hashing README", "Linking"], "the first of the title left")
        let (linking, again) = (steps.removeFirst("Linking"), steps.removeFirst("Linking"))
        #expect(linking && !again && !steps.contains("Linking"))
        #expect(steps.prefix(1) == ["Hashing a.txt"])
        steps.append("Testing")
        #expect(steps.prefix(10) == ["Hashing a.txt", "Hashing README", "Testing"])
        let all = ["Hashing a.txt", "Hashing README", "Testing"].map { steps.removeFirst($0) }
        #expect(all == [true, true, true])
        #expect(steps.isEmpty && steps.prefix(3).isEmpty && !steps.contains("Testing"))
    }

    /// Random plans and steps leaving, over a few titles (so titles repeat): the same as an array.
    @Test(arguments: 0..<8)
    func sameAsAnArray(batch: UInt64) {
        for seed in PropertyRuns.seeds(from: batch * 100, of: 100) {
            var rng = SplitMix64(seed: seed)
            var steps = PlannedSteps()
            var model: [String] = []
            for _ in 0..<300 {
                let title = "Step \(rng.next(below: 12))"
                switch rng.next(below: 4) {
                case 0:
                    let titles = (0..<rng.next(below: 5)).map { _ in "Step \(rng.next(below: 12))" }
                    steps.append(contentsOf: titles)
                    model += titles
                default:
                    let removed = steps.removeFirst(title)
                    let index = model.firstIndex(of: title)
                    if let index { model.remove(at: index) }
                    #expect(removed == (index != nil), "seed \(seed)")
                }
                let limit = rng.next(below: 8)
                #expect(steps.count == model.count, "seed \(seed)")
                #expect(steps.prefix(limit) == Array(model.prefix(limit)), "seed \(seed)")
                #expect(steps.contains(title) == model.contains(title), "seed \(seed)")
            }
        }
    }
}

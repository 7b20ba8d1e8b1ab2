import Testing

@testable import WaitAlert

/// Ids are placed in sets and dictionaries by a cheap mix of their number and the set's seed:
/// equal ids hash alike, and numbers a child process might choose to collide — multiples of a
/// large power of two, which a plain multiplicative hash puts in one bucket — spread out.
@Suite("Alert id hashing")
struct WaitAlertIDHashTests {
    @Test func equalIdsHashAlikeAndDifferentSeedsPlaceThemDifferently() {
        let id = WaitAlertID(rawValue: 42)
        #expect(id._rawHashValue(seed: 7) == WaitAlertID(rawValue: 42)._rawHashValue(seed: 7))
        #expect(id.hashValue == WaitAlertID(rawValue: 42).hashValue)
        #expect(id._rawHashValue(seed: 7) != id._rawHashValue(seed: 8))
    }

    @Test(arguments: [0, 12, 32, 48])
    func idsAStrideApartSpreadOverBuckets(shift: Int) {
        let ids = (0..<1_024).map { WaitAlertID(rawValue: UInt64($0) << UInt64(shift)) }
        for seed in [0, 1, -1, 0x5DEE_CE66D] {
            let buckets = Set(ids.map { $0._rawHashValue(seed: seed) & 1_023 })
            // A random placement of 1,024 ids in 1,024 buckets fills about 63 % of them.
            #expect(buckets.count > 560, "seed \(seed): \(buckets.count) buckets")
        }
        let set = Set(ids)
        #expect(set.count == ids.count)
        #expect(ids.allSatisfy { set.contains($0) })
    }
}

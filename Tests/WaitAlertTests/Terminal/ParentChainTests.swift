import Testing

@testable import WaitAlert

/// `WAIT_ALERT_PARENT`: the rows a process reports under, as `KEY.ID` links.
struct ParentChainTests {
    static let key = String(repeating: "0123456789abcdef", count: 2)
    static let other = String(repeating: "f", count: 32)

    /// A chain reads back as written; links that are not `KEY.ID` are left out.
    @Test func aChainReadsAndWrites() {
        let text = "\(Self.key).7,\(Self.key).0,\(Self.other).12"
        let chain = ParentChain(parsing: text)
        #expect(chain.links.map(\.id) == [7, 0, 12])
        #expect(chain.text == text)
        let garbage = [
            "", ",", "7", "\(Self.key)", "\(Self.key).", "\(Self.key).-1", "\(Self.key).x",
            "\(Self.key.uppercased()).1",
            "\(Self.key)0.1", "\(Self.key).1.2", "\(Self.key).99999999999999999999999",
        ]
        for text in garbage {
            #expect(ParentChain(parsing: text).links.isEmpty, "\(text)")
        }
        #expect(ParentChain(parsing: "junk,\(Self.other).3,,x.y").text == "\(Self.other).3")
    }

    /// A chain keeps at most ``ParentChain/limit`` links: the nearest ones and the farthest.
    @Test func aLongChainKeepsTheNearestAndTheFarthest() {
        let links = (1...40).map { ParentChain.Link(key: Self.key, id: UInt64($0)) }
        let chain = ParentChain(links)
        #expect(chain.links.count == ParentChain.limit)
        #expect(chain.links.map(\.id) == Array(1...UInt64(ParentChain.limit - 1)) + [40])
        #expect(ParentChain(parsing: chain.text) == chain)
    }

    /// Keys are 128 random bits: two are never the same, and each reads as a key.
    @Test func keysAreRandom() {
        let keys = (0..<100).map { _ in ParentChain.makeKey() }
        #expect(Set(keys).count == 100)
        #expect(keys.allSatisfy(ParentChain.isKey))
    }
}

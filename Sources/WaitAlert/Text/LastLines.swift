/// The last lines of a stream, at most ``capacity`` of them, in a ring of fixed size. Pure.
package struct LastLines: Sendable {
    package let capacity: Int
    private var ring: [String] = []
    private var next = 0

    package init(capacity: Int) { self.capacity = max(capacity, 0) }

    package mutating func append(_ line: String) {
        guard capacity > 0 else { return }
        if ring.count < capacity {
            ring.append(line)
        } else {
            ring[next] = line
            next = (next + 1) % capacity
        }
    }

    /// The lines kept, oldest first.
    package var lines: [String] { Array(ring[next...] + ring[..<next]) }
}

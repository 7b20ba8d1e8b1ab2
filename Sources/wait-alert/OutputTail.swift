/// The last lines of the command's output, at most ``capacity`` of them. Pure.
struct OutputTail: Sendable {
    let capacity: Int
    private var ring: [String] = []
    private var next = 0

    init(capacity: Int) { self.capacity = max(capacity, 0) }

    mutating func append(_ line: String) {
        guard capacity > 0 else { return }
        if ring.count < capacity {
            ring.append(line)
        } else {
            ring[next] = line
            next = (next + 1) % capacity
        }
    }

    /// The lines kept, oldest first.
    var lines: [String] { Array(ring[next...] + ring[..<next]) }
}

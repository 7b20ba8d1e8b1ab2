/// The deadlines of many alerts, earliest first: setting one and finding those due cost a
/// logarithm of the number of alerts, not a pass over all of them, so a thousand alerts that wait
/// for nothing cost nothing at each frame.
///
/// A binary min-heap with lazy removal: replacing or clearing a deadline leaves its old entry in
/// the heap, skipped when it reaches the top; the heap is rebuilt when stale entries outnumber
/// live ones.
struct DeadlineQueue {
    private struct Entry {
        var deadline: Duration
        var id: WaitAlertID
    }

    private(set) var deadlines: [WaitAlertID: Duration] = [:]
    private var heap: [Entry] = []

    var isEmpty: Bool { deadlines.isEmpty }

    /// Sets (or with `nil`, clears) the deadline of `id`; returns whether it changed.
    @discardableResult
    mutating func set(_ id: WaitAlertID, at deadline: Duration?) -> Bool {
        guard deadlines[id] != deadline else { return false }
        deadlines[id] = deadline
        if let deadline { push(Entry(deadline: deadline, id: id)) }
        if heap.count > 2 * deadlines.count + 64 { rebuild() }
        return true
    }

    /// The earliest deadline.
    mutating func earliest() -> Duration? {
        dropStale()
        return heap.first?.deadline
    }

    /// Removes and returns every id whose deadline is at or before `now`, in id order.
    mutating func popDue(at now: Duration) -> [WaitAlertID] {
        var due: [WaitAlertID] = []
        while true {
            dropStale()
            guard let top = heap.first, top.deadline <= now else { break }
            popTop()
            deadlines[top.id] = nil
            due.append(top.id)
        }
        return due.sorted()
    }

    mutating func removeAll() {
        deadlines = [:]
        heap = []
    }

    private func isLive(_ entry: Entry) -> Bool { deadlines[entry.id] == entry.deadline }

    private mutating func dropStale() {
        while let top = heap.first, !isLive(top) { popTop() }
    }

    private mutating func rebuild() {
        heap = deadlines.map { Entry(deadline: $0.value, id: $0.key) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.id < b.id)
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, Self.precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard Self.precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

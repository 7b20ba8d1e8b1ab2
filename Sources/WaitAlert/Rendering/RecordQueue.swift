/// The ended child tasks of one alert whose record lines wait to be printed, in the order the
/// tasks ended: appended at the back, taken from the front once ready, and found by id, each in
/// constant time (amortized), however many wait.
struct RecordQueue {
    /// An ended child task whose record line waits its turn.
    struct Entry {
        var id: WaitAlertID
        /// The record line, or `nil` when the task leaves none.
        var record: FinalLine?
        /// Whether its final message has been read (or it was never on screen).
        var isReady: Bool
    }

    private var entries: [Entry] = []
    /// Where the queue begins in `entries`: taken entries stay until compacted.
    private var head = 0
    /// Where each waiting entry is in `entries`.
    private var positions: [WaitAlertID: Int] = [:]

    var isEmpty: Bool { head == entries.count }

    /// The entries waiting, in order.
    var waiting: ArraySlice<Entry> { entries[head...] }

    func contains(_ id: WaitAlertID) -> Bool { positions[id] != nil }

    /// Whether the entry of `id` waits and is not ready.
    func isUnready(_ id: WaitAlertID) -> Bool { positions[id].map { !entries[$0].isReady } ?? false }

    mutating func append(_ entry: Entry) {
        positions[entry.id] = entries.count
        entries.append(entry)
    }

    mutating func markReady(_ id: WaitAlertID) {
        if let position = positions[id] { entries[position].isReady = true }
    }

    /// Takes the first entry, when it is ready.
    mutating func takeFirstReady() -> Entry? {
        guard head < entries.count, entries[head].isReady else { return nil }
        let entry = entries[head]
        positions[entry.id] = nil
        head += 1
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
            for (position, entry) in entries.enumerated() { positions[entry.id] = position }
        }
        return entry
    }

    /// Takes every entry, in order.
    mutating func takeAll() -> ArraySlice<Entry> {
        defer { self = RecordQueue() }
        return entries[head...]
    }
}

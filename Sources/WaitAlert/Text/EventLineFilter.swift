/// Takes the WaitAlert event lines out of a stream of bytes that is otherwise copied as it comes:
/// what a command writes to a pipe or a file, in which a program run with
/// `WAIT_ALERT_PROGRESS=json` (here, or on another machine through ssh) writes its events.
///
/// A line that begins with `{"v":` is held until it ends and then handed to `isEvent`; a line
/// `isEvent` takes is left out, any other is passed on, byte for byte. Every other byte passes at
/// once — a prompt without a line feed is not held back — and a held line longer than
/// ``lineLimit`` is passed on as it is. Pure: bytes in, bytes out.
package struct EventLineFilter: Sendable {
    /// How every event line begins (``WaitAlertEvent/jsonLine``).
    static let prefix = Array(#"{"v":"#.utf8)
    /// The longest line held: a longer one is not an event (the readers drop lines past 64 KiB).
    static let lineLimit = 64 * 1024

    private var atLineStart = true
    /// The line being held, while it may be an event.
    private var held: [UInt8] = []
    private var holding = false

    package init() {}

    /// The bytes of `bytes` to pass on; the event lines in it go to `isEvent` (without their line
    /// feed), which says whether it took each.
    package mutating func feed(_ bytes: [UInt8], isEvent: (String) -> Bool) -> [UInt8] {
        feed(bytes[...], isEvent: isEvent)
    }

    /// ``feed(_:isEvent:)`` for a slice (what a read gave).
    package mutating func feed(_ bytes: ArraySlice<UInt8>, isEvent: (String) -> Bool) -> [UInt8] {
        var passed: [UInt8] = []
        passed.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if holding, held.count < Self.prefix.count {
                // Still matching the prefix, byte by byte.
                let byte = bytes[index]
                bytes.formIndex(after: &index)
                held.append(byte)
                if byte != Self.prefix[held.count - 1] { release(into: &passed, atLineStart: byte == 0x0A) }
            } else if holding {
                // The rest of the line at once.
                let end = bytes[index...].firstIndex(of: 0x0A)
                held += bytes[index..<(end ?? bytes.endIndex)]
                index = end.map { bytes.index(after: $0) } ?? bytes.endIndex
                guard end != nil else {
                    if held.count > Self.lineLimit { release(into: &passed, atLineStart: false) }
                    continue
                }
                var line = held[...]
                if line.last == 0x0D { line = line.dropLast() }
                if held.count <= Self.lineLimit, isEvent(String(decoding: line, as: UTF8.self)) {
                    held.removeAll(keepingCapacity: true)
                    holding = false
                    atLineStart = true
                } else {
                    held.append(0x0A)
                    release(into: &passed, atLineStart: true)
                }
            } else if atLineStart, bytes[index] == Self.prefix[0] {
                holding = true
                held.removeAll(keepingCapacity: true)
                held.append(Self.prefix[0])
                bytes.formIndex(after: &index)
            } else {
                // Up to the end of this line at once.
                let end = bytes[index...].firstIndex(of: 0x0A)
                let next = end.map { bytes.index(after: $0) } ?? bytes.endIndex
                passed += bytes[index..<next]
                atLineStart = end != nil
                index = next
            }
        }
        return passed
    }

    /// What is held when the stream ends: an unfinished line, passed on.
    package mutating func finish() -> [UInt8] {
        defer {
            held = []
            holding = false
            atLineStart = true
        }
        return held
    }

    private mutating func release(into passed: inout [UInt8], atLineStart: Bool) {
        passed += held
        held.removeAll(keepingCapacity: true)
        holding = false
        self.atLineStart = atLineStart
    }
}

/// The rows a process reports under, nearest first: the value of `WAIT_ALERT_PARENT`, which the
/// program that starts a process sets for it (`wait-alert` for its command, `wait-alert report
/// --task` for its command, a program built on WaitAlert for the processes it starts under an
/// alert).
///
/// Each link names one alert as `KEY.ID`: `KEY` names the stream the alert is in — a program's
/// own alerts, or the alerts one connection reports — as 32 hexadecimal digits the listening
/// program made at random and gave only to that stream's processes; `ID` is the alert's `id` in
/// that stream, or `0` for the stream's alert that began last and still runs. A process's link
/// comes first, then those of the alerts above it, so the listener can go to the nearest one
/// that still runs when a row has ended:
///
///     WAIT_ALERT_PARENT=5c0e…91d2.3,5c0e…91d2.0,a41f…07be.1
package struct ParentChain: Sendable, Hashable {
    package struct Link: Sendable, Hashable {
        package var key: String
        package var id: UInt64

        package init(key: String, id: UInt64) {
            self.key = key
            self.id = id
        }
    }

    package var links: [Link]

    /// At most this many links are kept: the nearest ones, and the farthest (an alert of the
    /// program that listens).
    package static let limit = 16

    package init(_ links: [Link]) {
        self.links =
            links.count <= Self.limit ? links : Array(links.prefix(Self.limit - 1)) + [links[links.count - 1]]
    }

    /// Reads a chain; links that are not `KEY.ID` are left out.
    package init(parsing text: String) {
        self.init(
            text.split(separator: ",").prefix(256).compactMap { part -> Link? in
                let pieces = part.split(separator: ".", omittingEmptySubsequences: false)
                guard pieces.count == 2, Self.isKey(pieces[0]), pieces[1].count <= 20, let id = UInt64(pieces[1])
                else { return nil }
                return Link(key: String(pieces[0]), id: id)
            })
    }

    /// The chain as `WAIT_ALERT_PARENT` holds it.
    package var text: String { links.map { "\($0.key).\($0.id)" }.joined(separator: ",") }

    /// Whether `text` is a key: 32 lowercase hexadecimal digits.
    package static func isKey(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A new key: 128 random bits as 32 hexadecimal digits.
    package static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of a file of this repository, by its path from the repository's root.
func readRepositoryFile(_ path: String, from file: String = #filePath) -> String? {
    var root = file
    while let slash = root.lastIndex(of: "/"), !root.hasSuffix("/Tests") {
        root = String(root[..<slash])
    }
    root = String(root.dropLast("/Tests".count))
    let descriptor = open(root + "/" + path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The Swift code blocks of a Markdown text, each without its fences.
func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line == "```swift" {
            current = []
        } else if let lines = current, line == "```" {
            blocks.append(lines.joined(separator: "\n") + "\n")
            current = nil
        } else {
            current?.append(line)
        }
    }
    return blocks
}

import Testing

@testable import wait_alert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the README tells users to type to depend on the package works: it names a version the
/// CHANGELOG lists as released (and the version `wait-alert --version` prints agrees), or, while
/// none is, the main branch.
struct ReleaseTests {
    /// The package's root folder, from this file's path.
    private static let root = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))

    private static func text(of name: String) throws -> String {
        guard let file = fopen("/\(root)/\(name)", "r") else { throw ReadFailure(name: name) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { bytes += buffer[..<count] }
        return String(decoding: bytes, as: UTF8.self)
    }

    private struct ReadFailure: Error { let name: String }

    /// The versions with a release section (`## [1.2.3] - 2025-01-31`), newest first.
    private static func releases() throws -> [String] {
        try text(of: "CHANGELOG.md").split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("## ["), let close = line.firstIndex(of: "]"), line[close...].hasPrefix("] - ")
            else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 4)..<close])
        }
    }

    /// The requirement in the README's `.package(url: "…/WaitAlert.git", …)`.
    private static func requirement() throws -> String {
        let readme = try text(of: "README.md")
        let line = try #require(
            readme.split(separator: "\n").first {
                $0.contains(".package(url: \"https://github.com/waitalert/WaitAlert.git\"")
            })
        let start = try #require(line.firstRange(of: ".git\", ")).upperBound
        let end = try #require(line.lastIndex(of: ")"))
        return String(line[start..<end])
    }

    @Test func theReadmeNamesAReleasedVersionOrTheMainBranch() throws {
        let releases = try Self.releases()
        let requirement = try Self.requirement()
        if let newest = releases.first {
            #expect(requirement == "from: \"\(newest)\"", "the README should name the newest release, \(newest)")
        } else {
            #expect(requirement == "branch: \"main\"", "no release yet: \(requirement) cannot resolve")
        }
        #expect(try Self.text(of: "CHANGELOG.md").contains("## [Unreleased]"))
    }

    @Test func theVersionIsTheNewestReleaseOrTheNextOneInTheMaking() throws {
        let releases = try Self.releases()
        let number = Version.number
        if number.hasSuffix("-dev") {
            let next = String(number.dropLast("-dev".count))
            #expect(!releases.contains(next), "\(next) is released: the version should say so")
            if let newest = releases.first {
                #expect(Self.numbers(next).lexicographicallyPrecedes(Self.numbers(newest)) == false && next != newest)
            }
        } else {
            #expect(releases.first == number, "\(number) should be the newest release in CHANGELOG.md")
        }
    }

    private static func numbers(_ version: String) -> [Int] {
        version.split(separator: ".").map { Int($0) ?? 0 }
    }
}

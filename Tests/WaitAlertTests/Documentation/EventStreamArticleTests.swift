import Testing
import WaitAlertTesting

@testable import WaitAlert

/// The example stream of the article *The event stream* is what `EventStreamRenderer` writes for
/// the work the article describes (ids numbered from 1 in the order they appear, as in any one
/// program's first alerts).
@Suite("The event stream article")
@MainActor
struct EventStreamArticleTests {
    /// The work of the article's example, on a test bed's clock.
    static func stream() async throws -> [String] {
        let terminal = InMemoryTerminal(isInteractive: false)
        let bed = WaitAlertTestBed(
            timing: .terminal, renderers: [EventStreamRenderer(terminal: terminal, wallClock: { 1_795_933_738.512 })])
        let clock = bed.clock
        let work = bed.start {
            try await withWaitAlert("Building…", success: "Built") { build in
                try await build.task("Compiling Core") { core in
                    for file in 1...2 {
                        try await clock.sleep(for: .milliseconds(600))
                        core.progress(completed: file, total: 2, unit: .named("files"))
                    }
                    core.log("warning: 'count' was never mutated")
                }
                build.update("Linking…")
                try await clock.sleep(for: .seconds(1))
            }
        }
        try await bed.run(until: work)
        await bed.run()
        return renumbered(String(decoding: terminal.output, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// `lines` with their ids numbered 1, 2, … in the order they first appear.
    static func renumbered(_ lines: [String]) -> [String] {
        var numbers: [String: Int] = [:]
        return lines.map { line in
            var result = line
            for field in ["\"id\":", "\"parent\":"] {
                guard let range = result.firstRange(of: field) else { continue }
                let digits = result[range.upperBound...].prefix { $0.isNumber }
                let number = numbers[String(digits)] ?? (numbers.count + 1)
                numbers[String(digits)] = number
                result.replaceSubrange(
                    range.upperBound..<result.index(range.upperBound, offsetBy: digits.count), with: "\(number)")
            }
            return result
        }
    }

    @Test func theArticlesExampleIsTheRenderersOutput() async throws {
        let article = try #require(readRepositoryFile("Sources/WaitAlert/WaitAlert.docc/EventStream.md"))
        let start = try #require(article.firstRange(of: "```json\n"), "the article has a JSON example")
        let rest = article[start.upperBound...]
        let end = try #require(rest.firstRange(of: "\n```"))
        let example = rest[..<end.lowerBound].split(separator: "\n").map(String.init)
        let written = try await Self.stream()
        #expect(example == written, "\n\(written.joined(separator: "\n"))")
    }
}

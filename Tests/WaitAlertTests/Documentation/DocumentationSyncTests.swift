import Testing

/// Every Swift example of the README and of both documentation catalogs is a test of this suite,
/// or code of the swift-argument-parser example (`Examples/ArgumentParserTool`, a package of its
/// own with swift-log, built and tested by CI), as written: a documented example cannot drift from
/// the code. A line `// …` in an example stands for lines left out.
@Suite("Documentation stays true")
struct DocumentationSyncTests {
    static let tests = [
        "Tests/WaitAlertTests/Documentation/ArticleExampleTests.swift",
        "Tests/WaitAlertTests/Documentation/NonisolatedArticleExampleTests.swift",
        "Tests/WaitAlertTests/Documentation/TestingArticleExampleTests.swift",
        "Examples/ArgumentParserTool/Sources/pack/Pack.swift",
        "Examples/ArgumentParserTool/Sources/pack/Hashing.swift",
        "Examples/ArgumentParserTool/Sources/pack/Archiving.swift",
        "Examples/ArgumentParserTool/Sources/pack/WaitAlertLogHandler.swift",
        "Examples/ArgumentParserTool/Sources/pack/ProgressOptions.swift",
    ]
    static let pages = [
        "README.md",
        "Sources/WaitAlert/WaitAlert.docc/WaitAlert.md",
        "Sources/WaitAlert/WaitAlert.docc/WrappingWork.md",
        "Sources/WaitAlert/WaitAlert.docc/InATerminal.md",
        "Sources/WaitAlert/WaitAlert.docc/EventStream.md",
        "Sources/WaitAlert/WaitAlert.docc/ManyTasks.md",
        "Sources/WaitAlert/WaitAlert.docc/PrintingAroundAlerts.md",
        "Sources/WaitAlert/WaitAlert.docc/RunningCommands.md",
        "Sources/WaitAlert/WaitAlert.docc/CommandLineTools.md",
        "Sources/WaitAlert/WaitAlert.docc/AskingQuestions.md",
        "Sources/WaitAlert/WaitAlert.docc/DrawingAlertsInSwiftUI.md",
        "Sources/WaitAlertTesting/WaitAlertTesting.docc/WaitAlertTesting.md",
        "Sources/WaitAlertTesting/WaitAlertTesting.docc/TestingCodeThatShowsWaitAlerts.md",
    ]

    /// Each line without its indentation, so an example reads the same at any nesting depth, and
    /// without the `import` lines an example may begin with (a test file has them at its top).
    static func normalized(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.drop { $0 == " " } }
        if lines.first?.hasPrefix("import ") == true {
            lines = Array(lines.drop { $0.hasPrefix("import ") || $0.isEmpty })
        }
        return lines.joined(separator: "\n")
    }

    /// Whether `source` holds `example`'s lines as written, each run of them between `// …` lines
    /// in a row, the runs in order.
    static func source(_ source: String, holds example: String) -> Bool {
        let lines = normalized(example).split(separator: "\n", omittingEmptySubsequences: false)
        var runs: [[Substring]] = [[]]
        for line in lines {
            if line.hasPrefix("// …") { runs.append([]) } else { runs[runs.count - 1].append(line) }
        }
        var rest = source[...]
        for run in runs where !run.allSatisfy(\.isEmpty) {
            guard let found = rest.firstRange(of: run.joined(separator: "\n")) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    @Test func everySwiftExampleIsATest() throws {
        let sources = try Self.tests.map { try #require(readRepositoryFile($0), "\($0) is missing") }.map(
            Self.normalized)
        let readme = try #require(readRepositoryFile("README.md"))
        var checked = 0
        for page in Self.pages {
            let text = try #require(readRepositoryFile(page), "\(page) is missing")
            for block in swiftBlocks(in: text) {
                if block.contains("import SwiftUI") || block.hasPrefix("#Preview") { continue }  // needs SwiftUI
                if block.hasPrefix("// in Package.swift") { continue }  // checked below
                checked += 1
                #expect(
                    sources.contains { Self.source($0, holds: block) },
                    "an example of \(page) is not a test, or the example tool's code, as written:\n\(block)")
            }
        }
        #expect(checked >= 20)
        #expect(readme.contains("```swift\n// in Package.swift"))
    }

    /// The elisions of an example stand for lines left out, and only for them.
    @Test func anElisionStandsForLinesLeftOut() {
        let source = Self.normalized("struct A {\n    var x = 1\n    var y = 2\n    func f() {}\n}\n")
        #expect(Self.source(source, holds: "struct A {\n    // … its properties\n    func f() {}\n}\n"))
        #expect(!Self.source(source, holds: "struct A {\n    func f() {}\n}\n"), "lines left out need a // …")
        #expect(!Self.source(source, holds: "func f() {}\n// …\nstruct A {\n"), "the runs in order")
    }

    /// The installation snippet names the package's real products.
    @Test func theInstallationSnippetNamesRealProducts() throws {
        let readme = try #require(readRepositoryFile("README.md"))
        let manifest = try #require(readRepositoryFile("Package.swift"))
        let snippet = try #require(swiftBlocks(in: readme).first { $0.hasPrefix("// in Package.swift") })
        for product in ["WaitAlert", "WaitAlertTesting"] {
            #expect(snippet.contains(".product(name: \"\(product)\", package: \"WaitAlert\")"))
            #expect(manifest.contains(".library(name: \"\(product)\""))
        }
        #expect(manifest.contains("name: \"WaitAlert\""))
    }
}

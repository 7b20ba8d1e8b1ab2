import Testing

/// Every Swift example of the README and of both documentation catalogs is a test of this suite,
/// as written: a documented example cannot drift from the code.
@Suite("Documentation stays true")
struct DocumentationSyncTests {
    static let tests = ["ArticleExampleTests.swift", "TestingArticleExampleTests.swift"]
    static let pages = [
        "README.md",
        "Sources/WaitAlert/WaitAlert.docc/WaitAlert.md",
        "Sources/WaitAlert/WaitAlert.docc/WrappingWork.md",
        "Sources/WaitAlert/WaitAlert.docc/InATerminal.md",
        "Sources/WaitAlert/WaitAlert.docc/ManyTasks.md",
        "Sources/WaitAlert/WaitAlert.docc/PrintingAroundAlerts.md",
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

    @Test func everySwiftExampleIsATest() throws {
        var source = ""
        for test in Self.tests {
            source += try #require(readRepositoryFile("Tests/WaitAlertTests/Documentation/" + test))
        }
        let tests = Self.normalized(source)
        let readme = try #require(readRepositoryFile("README.md"))
        var checked = 0
        for page in Self.pages {
            let text = try #require(readRepositoryFile(page), "\(page) is missing")
            for block in swiftBlocks(in: text) {
                if block.contains("import SwiftUI") || block.hasPrefix("#Preview") { continue }  // needs SwiftUI
                if block.hasPrefix("import Logging") { continue }  // needs swift-log, not a dependency
                if block.hasPrefix("// in Package.swift") { continue }  // checked below
                checked += 1
                #expect(
                    tests.contains(Self.normalized(block)), "an example of \(page) is not a test as written:\n\(block)")
            }
        }
        #expect(checked >= 15)
        #expect(readme.contains("```swift\n// in Package.swift"))
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

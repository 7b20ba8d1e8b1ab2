package import Testing

/// Where the testing library reports a misuse or a test that cannot finish: a recorded issue, or,
/// while a capture is set for the current task, the capture (so the library's own tests check
/// the messages without recording issues).
package enum TestIssues {
    /// A message the library would have recorded as an issue.
    package struct Captured: Sendable, Equatable {
        package var message: String
        package var sourceLocation: SourceLocation
    }

    /// Collects the messages of the current task instead of recording them.
    package final class Capture: @unchecked Sendable {  // used by one test task at a time
        package private(set) var issues: [Captured] = []
        package init() {}
        fileprivate func append(_ issue: Captured) { issues.append(issue) }
        package var messages: [String] { issues.map(\.message) }
    }

    @TaskLocal package static var capture: Capture?

    /// Records `message` as an issue at `sourceLocation`, or adds it to the current capture.
    package static func record(_ message: String, sourceLocation: SourceLocation) {
        if let capture {
            capture.append(Captured(message: message, sourceLocation: sourceLocation))
        } else {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }
}

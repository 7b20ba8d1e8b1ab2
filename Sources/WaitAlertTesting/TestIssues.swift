package import Testing

/// Where the testing library reports a misuse or a test that cannot finish, and what a test bed
/// showed: a recorded issue or attachment, or, while a capture is set for the current task, the
/// capture (so the library's own tests check the messages and attachments without recording
/// them).
package enum TestIssues {
    /// A message the library would have recorded as an issue.
    package struct Captured: Sendable, Equatable {
        package var message: String
        package var sourceLocation: SourceLocation
    }

    /// An attachment the library would have recorded.
    package struct Attached: Sendable, Equatable {
        package var name: String
        package var contents: String
        package var sourceLocation: SourceLocation
    }

    /// Collects the messages and attachments of the current task instead of recording them.
    package final class Capture: @unchecked Sendable {  // used by one test task at a time
        package private(set) var issues: [Captured] = []
        package private(set) var attachments: [Attached] = []
        package init() {}
        fileprivate func append(_ issue: Captured) { issues.append(issue) }
        fileprivate func append(_ attachment: Attached) { attachments.append(attachment) }
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

    /// Attaches `contents` to the current test under `name`, or adds it to the current capture.
    package static func attach(_ contents: String, named name: String, sourceLocation: SourceLocation) {
        if let capture {
            capture.append(Attached(name: name, contents: contents, sourceLocation: sourceLocation))
        } else {
            Attachment.record(contents, named: name, sourceLocation: sourceLocation)
        }
    }
}

import Dispatch
import Synchronization
import Testing

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The questions of a program reporting into another's alerts, asked through the parent: the
/// lines on the connection, and the child's side over a real socket pair, the test playing the
/// parent.
@Suite("Questions asked through the parent")
@MainActor
struct ParentQuestionsTests {
    // MARK: - The lines

    @Test func aTextQuestionAndItsAnswersTravelWhole() throws {
        let question = PromptMessage.Question(
            ask: 7, title: "Name \"x\":", message: "two\nlines",
            kind: .text(defaultText: "demo", placeholder: "a name", isSecret: true, maximumLength: 40))
        #expect(PromptMessage.read(PromptMessage.ask(question).jsonLine) == .ask(question))
        let noDefaults = PromptMessage.Question(
            ask: 8, title: "t", message: nil,
            kind: .text(defaultText: nil, placeholder: nil, isSecret: false, maximumLength: nil))
        #expect(PromptMessage.read(PromptMessage.ask(noDefaults).jsonLine) == .ask(noDefaults))
        for ending in [PromptEnding.text("photos"), .text(""), .choice(2), .cancelled] {
            #expect(PromptMessage.read(PromptMessage.answer(ask: 7, ending).jsonLine) == .answer(ask: 7, ending))
        }
        #expect(PromptMessage.read(PromptMessage.withdraw(ask: 3).jsonLine) == .withdraw(ask: 3))
    }

    @Test func errorsNameTheQuestionTheReaderKnows() {
        let errors: [(PromptEnding, WaitAlertPromptError)] = [
            (.failed(.noAnswer(prompt: "")), .noAnswer(prompt: "Name:")),
            (.timedOut, .timedOut(prompt: "Name:")),
            (
                .failed(.invalidAnswer(prompt: "", answer: "x", reason: "no")),
                .invalidAnswer(prompt: "Name:", answer: "x", reason: "no")
            ),
            (.failed(.cannotAsk(prompt: "", reason: "gone")), .cannotAsk(prompt: "Name:", reason: "gone")),
        ]
        for (ending, read) in errors {
            let line = PromptMessage.answer(ask: 1, ending).jsonLine
            #expect(PromptMessage.read(line) { _ in "Name:" } == .answer(ask: 1, .failed(read)), "\(line)")
        }
    }

    @Test func aChoiceKeepsItsButtonsRolesAndStyle() {
        let buttons = [
            WaitAlertButton("Retry", role: .default), "Skip", WaitAlertButton("Delete", role: .destructive),
            WaitAlertButton("Abort", role: .cancel),
        ]
        for style in [WaitAlertChoicePrompt.Style.buttons, .list] {
            let question = PromptMessage.Question(
                ask: 2, title: "Upload failed", message: "The server did not answer.",
                kind: .choice(buttons: buttons, style: style))
            #expect(PromptMessage.read(PromptMessage.ask(question).jsonLine) == .ask(question))
        }
    }

    /// Lines that are events, not JSON, or questions that cannot be asked are not messages.
    @Test(arguments: [
        #"{"v":1,"event":"log","id":1,"line":"\"ask\""}"#, "ask", #"{"v":1,"event":"ask","ask":1,"kind":"text"}"#,
        #"{"v":1,"event":"ask","ask":-1,"kind":"text","title":"t"}"#,
        #"{"v":1,"event":"ask","ask":1,"kind":"choice","title":"t","buttons":[]}"#,
        #"{"v":1,"event":"ask","ask":1,"kind":"choice","title":"t","buttons":["a",2]}"#,
        #"{"v":1,"event":"ask","ask":1,"kind":"choice","style":"confirmation","title":"t","buttons":["Yes"]}"#,
        #"{"v":1,"event":"ask","ask":1,"kind":"text","title":"t","maximumLength":0}"#,
        #"{"v":1,"event":"ask","ask":1,"kind":"radio","title":"t"}"#,
        #"{"v":99,"event":"withdraw","ask":1}"#,
    ])
    func notAMessage(line: String) {
        #expect(PromptMessage.read(line) == nil)
    }

    // MARK: - The child's side

    /// A connected pair: the child's connection, and the parent's end the test reads and writes.
    final class Pair: Sendable {
        let child: EventSocket.Connection
        let parent: Int32
        private let partial = Mutex<[UInt8]>([])

        init(acceptsQuestions: Bool = true) throws {
            var ends: [Int32] = [-1, -1]
            #if canImport(Darwin)
                let type = SOCK_STREAM
            #else
                let type = Int32(SOCK_STREAM.rawValue)
            #endif
            try #require(socketpair(AF_UNIX, type, 0, &ends) == 0)
            child = EventSocket.Connection(descriptor: ends[0], key: "0", acceptsQuestions: acceptsQuestions)
            parent = ends[1]
        }

        deinit { close(parent) }

        /// The next line the child sent, read off the main actor (the child answers there).
        nonisolated func nextLine() async throws -> String {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try self.readLine() })
                }
            }
        }

        private func readLine() throws -> String {
            while true {
                let line = partial.withLock { partial -> String? in
                    guard let end = partial.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                    defer { partial.removeFirst(end + 1) }
                    return String(decoding: partial[..<end], as: UTF8.self)
                }
                if let line { return line }
                var request = pollfd(fd: parent, events: Int16(POLLIN), revents: 0)
                try #require(poll(&request, 1, 10_000) == 1, "the child sent a line")
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(parent, &buffer, buffer.count)
                try #require(count > 0)
                partial.withLock { $0 += buffer[..<count] }
            }
        }

        func send(_ message: PromptMessage) {
            _ = EventSocket.send(Array((message.jsonLine + "\n").utf8), on: parent)
        }
    }

    /// Waits until `prompt` ends (the answer comes on another thread).
    func ending(of prompt: WaitAlertPrompt) async -> PromptEnding {
        await withCheckedContinuation { continuation in prompt.onEnd { continuation.resume(returning: $0) } }
    }

    @Test func aQuestionIsAskedThereAndAnsweredWithWhatWasTyped() async throws {
        let pair = try Pair()
        let questions = ParentQuestions(connection: pair.child)
        let model = WaitAlertChoicePrompt(
            title: "Archive 4312 files?", buttons: [WaitAlertButton("Yes", role: .default), "No"],
            style: .confirmation)
        questions.present(.choice(model))
        guard case .ask(let question)? = PromptMessage.read(try await pair.nextLine()) else {
            Issue.record("an ask line")
            return
        }
        #expect(question.title == "Archive 4312 files?")
        #expect(question.kind == .choice(buttons: model.buttons, style: .confirmation))
        pair.send(.answer(ask: question.ask, .choice(1)))
        #expect(await ending(of: .choice(model)) == .choice(1))
    }

    @Test func aRefusedTextIsAskedAgainWithTheReason() async throws {
        let pair = try Pair()
        let questions = ParentQuestions(connection: pair.child)
        let model = WaitAlertTextPrompt(title: "Name:", validate: { $0.contains("/") ? "No “/” in a name." : nil })
        questions.present(.text(model))
        guard case .ask(let first)? = PromptMessage.read(try await pair.nextLine()) else {
            Issue.record("an ask line")
            return
        }
        pair.send(.answer(ask: first.ask, .text("a/b")))
        guard case .ask(let again)? = PromptMessage.read(try await pair.nextLine()) else {
            Issue.record("the question again")
            return
        }
        #expect(again.message == "No “/” in a name.")
        #expect(again.ask != first.ask)
        pair.send(.answer(ask: again.ask, .text("ab")))
        #expect(await ending(of: .text(model)) == .text("ab"))
    }

    @Test func aQuestionEndedHereIsWithdrawnThere() async throws {
        let pair = try Pair()
        let questions = ParentQuestions(connection: pair.child)
        let model = WaitAlertTextPrompt(title: "Name:", defaultText: "demo")
        questions.present(.text(model))
        guard case .ask(let question)? = PromptMessage.read(try await pair.nextLine()) else {
            Issue.record("an ask line")
            return
        }
        model.cancel()
        #expect(PromptMessage.read(try await pair.nextLine()) == .withdraw(ask: question.ask))
    }

    /// A parent that goes away, or never took questions: the question fails, saying why; its
    /// default is never taken.
    @Test func aQuestionThatCannotBeAskedFailsClearly() async throws {
        let refusing = ParentQuestions(connection: try Pair(acceptsQuestions: false).child)
        let first = WaitAlertTextPrompt(title: "Name:", defaultText: "demo")
        refusing.present(.text(first))
        guard case .failed(.cannotAsk(let title, let reason))? = first.ending else {
            Issue.record("failed: \(String(describing: first.ending))")
            return
        }
        #expect(title == "Name:" && reason.contains("does not take questions"))

        let attaching = ParentQuestions(connection: nil)
        let meanwhile = WaitAlertTextPrompt(title: "Name:", defaultText: "demo")
        attaching.present(.text(meanwhile))
        guard case .failed(.cannotAsk(_, let why))? = meanwhile.ending else {
            Issue.record("failed: \(String(describing: meanwhile.ending))")
            return
        }
        #expect(why.contains("has ended"))

        let pair = try Pair()
        let questions = ParentQuestions(connection: pair.child)
        let second = WaitAlertTextPrompt(title: "Archive name:", defaultText: "backup")
        questions.present(.text(second))
        _ = try await pair.nextLine()
        shutdown(pair.parent, Int32(SHUT_RDWR))
        guard case .failed(.cannotAsk(let title, let reason)) = await ending(of: .text(second)) else {
            Issue.record("failed: \(String(describing: second.ending))")
            return
        }
        #expect(title == "Archive name:" && reason.contains("has ended"))
        #expect(
            WaitAlertPromptError.cannotAsk(prompt: title, reason: reason).description
                == "Cannot ask \"Archive name:\": the program whose alerts this one reports into has ended.")
    }
}

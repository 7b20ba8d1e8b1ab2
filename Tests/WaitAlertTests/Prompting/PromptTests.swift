import Testing
import WaitAlert
import WaitAlertTesting

/// Prompts asked through a presenter and answered by a test bed, a UI model, or a line of input.
@Suite("Prompts")
@MainActor
struct PromptTests {
    let bed = WaitAlertTestBed(timing: .immediate)

    @Test func scriptedAnswersAnswerInOrder() async throws {
        bed.answer("demo")
        bed.choose("Skip")
        bed.confirm(true)
        let work = bed.start {
            let name = try await askText("Name of the new project:", default: "x")
            let choice = try await askChoice("Upload failed", buttons: ["Retry", "Skip", "Abort"])
            let sure = try await confirm("Overwrite 3 files?")
            return "\(name) \(choice.index) \(choice.title) \(sure)"
        }
        #expect(try await bed.run(until: work) == "demo 1 Skip true")
        #expect(bed.askedPrompts == ["Name of the new project:", "Upload failed", "Overwrite 3 files?"])
        bed.expectEveryAnswerUsed()
    }

    @Test func anEmptyAnswerTakesTheDefault() async throws {
        bed.answer("")
        let work = bed.start { try await askText("Name:", default: "demo") }
        #expect(try await bed.run(until: work) == "demo")
    }

    @Test func anUnexpectedPromptIsReportedAndCancelled() async throws {
        let capture = TestIssues.Capture()
        let work = bed.start {
            try await TestIssues.$capture.withValue(capture) { try await askText("Surprise?") }
        }
        await #expect(throws: CancellationError.self) { try await bed.run(until: work) }
        #expect(capture.messages.count == 1)
        #expect(capture.messages.first?.contains("did not expect: \"Surprise?\"") == true)
    }

    @Test func anAnswerNeverAskedForIsReported() {
        let capture = TestIssues.Capture()
        bed.answer("unused")
        TestIssues.$capture.withValue(capture) { bed.expectEveryAnswerUsed() }
        #expect(capture.messages.count == 1)
        #expect(capture.messages.first?.contains("never asked for") == true)
    }

    @Test func aRefusedAnswerIsReported() async throws {
        let capture = TestIssues.Capture()
        bed.answer("no spaces allowed")
        let work = bed.start {
            try await TestIssues.$capture.withValue(capture) {
                try await askText("Name:", validate: { $0.contains(" ") ? "no spaces" : nil })
            }
        }
        await #expect(throws: CancellationError.self) { try await bed.run(until: work) }
        #expect(capture.messages.first?.contains("no spaces") == true)
    }

    /// A UI drives the models: the presenter exposes the prompt; submit, choose and cancel end it.
    @Test func aUIAnswersThroughTheModel() async throws {
        let presenter = WaitAlertPresenter(timing: .immediate)
        let asking = Task { @MainActor in
            try await askText("Name:", validate: { $0.isEmpty ? "required" : nil }, presenter: presenter)
        }
        while presenter.prompt == nil { await Task.yield() }
        guard case .text(let model) = presenter.prompt else {
            Issue.record("no text prompt")
            return
        }
        #expect(!model.submit())
        #expect(model.validationMessage == "required")
        model.text = "demo"
        #expect(model.submit())
        #expect(try await asking.value == "demo")
        #expect(presenter.prompt == nil)

        let choosing = Task { @MainActor in
            try await askChoice(
                "Delete?",
                buttons: [WaitAlertButton("Delete", role: .destructive), WaitAlertButton("Keep", role: .cancel)],
                presenter: presenter)
        }
        while presenter.prompt == nil { await Task.yield() }
        guard case .choice(let choice) = presenter.prompt else {
            Issue.record("no choice prompt")
            return
        }
        #expect(choice.cancelIndex == 1)
        #expect(choice.buttons[0].role == .destructive)
        choice.choose(1)
        #expect(try await choosing.value == (1, "Keep"))
    }

    @Test func cancellingTheTaskCancelsThePrompt() async {
        let presenter = WaitAlertPresenter(timing: .immediate)
        let asking = Task { @MainActor in try await askText("Name:", presenter: presenter) }
        while presenter.prompt == nil { await Task.yield() }
        asking.cancel()
        await #expect(throws: CancellationError.self) { try await asking.value }
    }

    @Test func aTimeoutGivesTheDefaultOrFails() async throws {
        let timed = bed.start { try await askText("Name:", default: "demo", timeout: .seconds(5)) }
        bed.presenter.promptAnswerer = { _ in }  // nobody answers
        await bed.advance(by: .seconds(5))
        #expect(try await timed.value == "demo")
        let failing = bed.start { try await confirm("Sure?", timeout: .seconds(5), onTimeout: .fail) }
        await bed.advance(by: .seconds(5))
        await #expect(throws: WaitAlertPromptError.timedOut(prompt: "Sure?")) { try await failing.value }
    }
}

/// Answers read from a line of standard input, for scripts.
@Suite("Prompts answered from standard input")
@MainActor
struct StandardInputPromptTests {
    func ending(_ prompt: WaitAlertPrompt, _ line: String?) -> PromptEnding? {
        StandardInputPrompt.answer(prompt, with: line)
        return prompt.ending
    }

    @Test func textTakesTheLineOrItsDefault() {
        #expect(ending(.text(WaitAlertTextPrompt(title: "Name:")), "demo") == .text("demo"))
        #expect(ending(.text(WaitAlertTextPrompt(title: "Name:", defaultText: "x")), "") == .text("x"))
        #expect(ending(.text(WaitAlertTextPrompt(title: "Name:", defaultText: "x")), nil) == .text("x"))
        #expect(ending(.text(WaitAlertTextPrompt(title: "Name:")), nil) == .failed(.noAnswer(prompt: "Name:")))
        let strict = WaitAlertTextPrompt(title: "Port:", validate: { Int($0) == nil ? "a number" : nil })
        #expect(
            ending(.text(strict), "abc") == .failed(.invalidAnswer(prompt: "Port:", answer: "abc", reason: "a number")))
    }

    @Test func aChoiceTakesANumberOrATitle() {
        let buttons: [WaitAlertButton] = ["Retry", "Skip", WaitAlertButton("Abort", role: .default)]
        #expect(ending(.choice(WaitAlertChoicePrompt(title: "t", buttons: buttons)), "2") == .choice(1))
        #expect(ending(.choice(WaitAlertChoicePrompt(title: "t", buttons: buttons)), " abort ") == .choice(2))
        #expect(ending(.choice(WaitAlertChoicePrompt(title: "t", buttons: buttons)), "") == .choice(2))
        #expect(ending(.choice(WaitAlertChoicePrompt(title: "t", buttons: buttons)), nil) == .choice(2))
        if case .failed(.invalidAnswer(_, "9", _))? = ending(
            .choice(WaitAlertChoicePrompt(title: "t", buttons: buttons)), "9")
        {
        } else {
            Issue.record("9 is not an answer")
        }
        let noDefault = WaitAlertChoicePrompt(title: "t", buttons: ["A", "B"])
        #expect(ending(.choice(noDefault), nil) == .failed(.noAnswer(prompt: "t")))
    }

    @Test func aConfirmationTakesYesOrNo() {
        func confirmation() -> WaitAlertPrompt {
            .choice(
                WaitAlertChoicePrompt(
                    title: "Sure?", buttons: ["Yes", WaitAlertButton("No", role: .default)], style: .confirmation))
        }
        #expect(ending(confirmation(), "y") == .choice(0))
        #expect(ending(confirmation(), "YES") == .choice(0))
        #expect(ending(confirmation(), "no") == .choice(1))
        #expect(ending(confirmation(), "") == .choice(1))
        #expect(ending(confirmation(), nil) == .choice(1))
        if case .failed? = ending(confirmation(), "maybe") {} else { Issue.record("maybe is not an answer") }
    }
}

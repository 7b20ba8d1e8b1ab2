import Testing
import WaitAlertTesting

@testable import WaitAlert

/// `OSC 9;4` only where it is known to work, never under a multiplexer, never off a terminal.
@Suite("Taskbar progress")
struct TaskbarProgressTests {
    @Test(arguments: [
        (["WT_SESSION": "abc"], true),
        (["ConEmuANSI": "ON"], true),
        (["ConEmuANSI": "OFF"], false),
        (["VTE_VERSION": "7600"], true),
        (["TERM_PROGRAM": "WezTerm"], true),
        (["TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.2.0"], true),
        (["TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.1.3"], false),
        (["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.6.6"], true),
        (["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.6.10beta1"], true),
        (["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.5.14"], false),
        (["TERM_PROGRAM": "iTerm.app"], false),
        (["TERM_PROGRAM": "Apple_Terminal"], false),
        (["WT_SESSION": "abc", "TMUX": "/tmp/tmux-0/default,1,0"], false),
        (["TERM_PROGRAM": "WezTerm", "TERM": "screen-256color"], false),
        (["VTE_VERSION": "7600", "STY": "1234.pts-0"], false),
        ([:], false),
    ])
    func theAllowlist(environment: [String: String], supported: Bool) {
        #expect(TaskbarProgress.auto.isEnabled(environment: environment, isInteractive: true) == supported)
        #expect(!TaskbarProgress.auto.isEnabled(environment: environment, isInteractive: false), "never off a terminal")
    }

    @Test func theEnvironmentOverrides() {
        #expect(TaskbarProgress.auto.isEnabled(environment: ["WAIT_ALERT_TASKBAR": "on"], isInteractive: true))
        #expect(
            !TaskbarProgress.on.isEnabled(
                environment: ["WAIT_ALERT_TASKBAR": "off", "WT_SESSION": "1"], isInteractive: true))
        #expect(TaskbarProgress.on.isEnabled(environment: [:], isInteractive: true))
        #expect(!TaskbarProgress.off.isEnabled(environment: ["WT_SESSION": "1"], isInteractive: true))
        #expect(!TaskbarProgress.on.isEnabled(environment: [:], isInteractive: false))
    }

    @Test func sequences() {
        #expect(TaskbarProgress.State.cleared.sequence == "\u{1B}]9;4;0;0\u{1B}\\")
        #expect(TaskbarProgress.State.indeterminate.sequence == "\u{1B}]9;4;3;0\u{1B}\\")
        #expect(TaskbarProgress.State.percent(45).sequence == "\u{1B}]9;4;1;45\u{1B}\\")
        #expect(TaskbarProgress.State.percent(140).sequence == "\u{1B}]9;4;1;100\u{1B}\\")
        #expect(TaskbarProgress.State.error(30).sequence == "\u{1B}]9;4;2;30\u{1B}\\")
    }
}

/// What the overlay sends to the taskbar over an alert's life.
@Suite("Taskbar progress in the overlay")
@MainActor
struct TaskbarOverlayTests {
    struct Broken: Error {}

    /// The `OSC 9;4` sequences in `bytes`, as `state;progress`.
    static func states(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\u{1B}]9;4;", omittingEmptySubsequences: false).dropFirst().map {
            String($0.prefix { $0 != "\u{1B}" })
        }
    }

    @Test func indeterminateThenPercentagesThenCleared() async throws {
        let terminal = InMemoryTerminal()
        terminal.checkInvariants()
        let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none, taskbar: .on)
        let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
        let work = bed.start {
            try await withWaitAlert("Downloading", presenter: bed.presenter) { alert in
                try await bed.clock.sleep(for: .seconds(1))
                alert.progress(completed: 0, total: 100)
                for _ in 0..<100 {
                    try await bed.clock.sleep(for: .milliseconds(20))
                    alert.advance()
                }
            }
        }
        try await bed.run(until: work)
        #expect(terminal.taskbar == .percent(100) || terminal.taskbar == .cleared, "\(terminal.taskbar)")
        await bed.run()
        terminal.markEnd()
        #expect(terminal.taskbar == .cleared && terminal.taskbarUpdates >= 6)
        #expect(
            terminal.invariantViolations.isEmpty, "balanced frames, taskbar cleared: \(terminal.invariantViolations)")
        let states = Self.states(in: terminal.output)
        #expect(states.first == "3;0", "indeterminate once it appears: \(states)")
        #expect(states.last == "0;0", "cleared at the end")
        let percents = states.dropFirst().dropLast().compactMap { $0.hasPrefix("1;") ? Int($0.dropFirst(2)) : nil }
        #expect(percents.count >= 5 && percents.count <= 10, "at most four a second: \(states)")
        #expect(percents == percents.sorted() && Set(percents).count == percents.count, "only when it changes")
    }

    @Test func aGroupWithAFailureShowsAnErrorAndNothingIsSentByDefault() async throws {
        for taskbar in [TaskbarProgress.on, .auto] {
            let terminal = InMemoryTerminal()
            let overlay = TerminalOverlay(terminal: terminal, colors: .never, integration: .none, taskbar: taskbar)
            let bed = WaitAlertTestBed(timing: .terminal, renderers: [overlay])
            let work = bed.start {
                try await withWaitAlert("Building", presenter: bed.presenter) { build in
                    try await build.tasks(for: [1, 3], policy: .keepGoing, title: { "Compiling M\($0)" }) {
                        seconds, _ in
                        try await bed.clock.sleep(for: .seconds(seconds))
                        if seconds == 1 { throw Broken() }
                    }
                }
            }
            await #expect(throws: (any Error).self) { try await bed.run(until: work) }
            await bed.run()
            let states = Self.states(in: terminal.output)
            if taskbar == .on {
                #expect(states == ["3;0", "2;100", "0;0"], "\(states)")
            } else {
                #expect(states.isEmpty, "auto is off on a terminal other than standard error")
            }
        }
    }
}

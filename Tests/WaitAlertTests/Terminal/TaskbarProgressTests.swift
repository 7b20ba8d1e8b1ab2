import Testing

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

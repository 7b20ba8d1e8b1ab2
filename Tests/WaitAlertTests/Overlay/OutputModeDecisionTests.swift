import Testing
import WaitAlertTesting

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which output a mode draws, and which terminal is the process's standard error: decided once,
/// for the overlay and for `wait-alert`.
@Suite("Output mode decisions")
@MainActor
struct OutputModeDecisionTests {
    @Test func eachModeDrawsInteractivelyOnlyWhereItSays() {
        let terminal = InMemoryTerminal(isInteractive: true)
        let pipe = InMemoryTerminal(isInteractive: false)
        #expect(TerminalOverlay.Mode.auto.drawsInteractively(on: terminal))
        #expect(TerminalOverlay.Mode.tty.drawsInteractively(on: terminal))
        #expect(!TerminalOverlay.Mode.auto.drawsInteractively(on: pipe))
        #expect(!TerminalOverlay.Mode.tty.drawsInteractively(on: pipe))
        for mode in [TerminalOverlay.Mode.plain, .json, .off, .accessible] {
            #expect(!mode.drawsInteractively(on: terminal), "\(mode)")
        }
    }

    @Test func standardErrorIsDescriptorTwoAndNothingElse() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(WaitAlertStandardError.isProcessStandardError(WaitAlertStandardError.shared))
        #expect(WaitAlertStandardError.isProcessStandardError(WaitAlertStandardError(descriptor: 2)))
        #expect(!WaitAlertStandardError.isProcessStandardError(WaitAlertStandardError(descriptor: ends[1])))
        #expect(!WaitAlertStandardError.isProcessStandardError(InMemoryTerminal()))
        // An overlay on another descriptor neither serves child processes nor catches signals.
        let overlay = TerminalOverlay(terminal: WaitAlertStandardError(descriptor: ends[1]), mode: .plain)
        #expect(!overlay.servesChildProcesses)
    }
}

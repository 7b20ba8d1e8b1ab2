import Testing

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a forced exit writes: how long the work ran, told by a signal handler the way final lines
/// tell it, and which signals end a program through the terminal guard.
@Suite("Forced exit lines")
struct ForcedExitLinesTests {
    /// The handler's digits say what ``DurationFormat/seconds(_:)`` says, at every boundary.
    @Test(arguments: [
        0, 49, 50, 94, 949, 950, 999, 1000, 3149, 59_949, 59_950, 60_000, 125_000, 3_599_499, 3_599_500, 3_600_000,
        11_520_000, 86_399_000, 360_000_000, -5,
    ])
    func secondsAreToldAsFinalLinesTellThem(milliseconds: Int64) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 1)
        defer { buffer.deallocate() }
        let count = ForcedExitLines.seconds(milliseconds: milliseconds, into: buffer)
        #expect(
            String(decoding: buffer[..<count], as: UTF8.self) == DurationFormat.seconds(.milliseconds(milliseconds)))
    }

    /// The ending signals are guarded only at their default: a program that ignores or handles
    /// one keeps it; the signals the guard always took stay guarded unless ignored.
    @Test func endingSignalsAreGuardedOnlyAtTheirDefault() {
        let standard = SignalAction.systemDefault
        let ignored = SignalAction.ignored
        let handled = SignalAction.calling { _ in }
        #expect(standard.isSystemDefault && ignored.isIgnored && !handled.isSystemDefault && !handled.isIgnored)
        for signal in [SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXFSZ, SIGSYS] {
            #expect(TerminalGuard.endingSignals.contains(signal))
            #expect(TerminalGuard.handles(signal, previous: standard, jobControl: true))
            #expect(!TerminalGuard.handles(signal, previous: ignored, jobControl: true))
            #expect(!TerminalGuard.handles(signal, previous: handled, jobControl: true))
        }
        #expect(TerminalGuard.handles(SIGTERM, previous: handled, jobControl: true), "restored, then passed on")
        #expect(!TerminalGuard.handles(SIGTERM, previous: ignored, jobControl: true))
        #expect(TerminalGuard.handles(SIGWINCH, previous: ignored, jobControl: true))
        #expect(!TerminalGuard.handles(SIGTSTP, previous: standard, jobControl: false))
        let crashes = Set(TerminalGuard.crashSignals)
        #expect(TerminalGuard.endingSignals.allSatisfy { !crashes.contains($0) && $0 != SIGINT && $0 != SIGTERM })
        #expect(Set(TerminalGuard.guardedSignals).count == TerminalGuard.guardedSignals.count, "each once")
    }
}

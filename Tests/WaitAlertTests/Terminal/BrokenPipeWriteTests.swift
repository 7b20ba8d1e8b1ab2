import Testing

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A write to a pipe nobody reads fails with `EPIPE` and never ends the program, whether the
/// write changes the signal mask around itself or runs where `SIGPIPE` is blocked already (the
/// spinner's frame loop); no `SIGPIPE` is left pending for later.
@Suite("Writes to a broken pipe")
struct BrokenPipeWriteTests {
    @Test(arguments: [false, true])
    func aWriteToAClosedPipeFailsAndLeavesNoSignal(signalBlocked: Bool) throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let output = WaitAlertStandardError(descriptor: ends[1])
        var written = true
        if signalBlocked {
            Platform.withBrokenPipeSignalBlocked {
                written = output.write(Array("frame".utf8), brokenPipeSignalBlocked: true)
            }
        } else {
            written = output.write(Array("frame".utf8))
        }
        #expect(!written)
        #expect(!output.write(Array("again".utf8)), "broken for good")
        var pending = sigset_t()
        sigemptyset(&pending)
        #expect(sigpending(&pending) == 0)
        #expect(sigismember(&pending, SIGPIPE) == 0, "no SIGPIPE left pending")
    }
}

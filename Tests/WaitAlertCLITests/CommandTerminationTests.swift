import Testing

@testable import wait_alert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct CommandTerminationTests {
    @Test func exitStatusesAreTheCommandsOrOneHundredTwentyEightPlusTheSignal() {
        #expect(CommandTermination.exited(0).exitStatus() == 0)
        #expect(CommandTermination.exited(1).exitStatus() == 1)
        #expect(CommandTermination.exited(255).exitStatus() == 255)
        #expect(CommandTermination.signaled(SIGKILL).exitStatus() == 137)
        #expect(CommandTermination.signaled(SIGINT).exitStatus() == 130)
        #expect(CommandTermination.signaled(SIGTERM).exitStatus() == 143)
    }

    @Test func aTimeoutIsOneHundredTwentyFourWhateverTheCommandDid() {
        #expect(CommandTermination.exited(0).exitStatus(timedOut: true) == 124)
        #expect(CommandTermination.signaled(SIGKILL).exitStatus(timedOut: true, interruptedBy: SIGTERM) == 124)
    }

    @Test func anInterruptedCommandEndedBySignalCountsAsEndedByTheSignalPassedOn() {
        #expect(CommandTermination.signaled(SIGKILL).exitStatus(interruptedBy: SIGINT) == 130)
        #expect(CommandTermination.signaled(SIGTERM).exitStatus(interruptedBy: SIGTERM) == 143)
        // A command that handled the interrupt and exited keeps its own status.
        #expect(CommandTermination.exited(3).exitStatus(interruptedBy: SIGINT) == 3)
    }

    @Test func cannotRunIsOneHundredTwentySeven() {
        #expect(CommandTermination.cannotRun == 127)
        #expect(CommandTermination.timedOut == 124)
    }

    @Test func waitStatusesAreDecoded() {
        #expect(CommandTermination(waitStatus: 0) == .exited(0))
        #expect(CommandTermination(waitStatus: 2 << 8) == .exited(2))
        #expect(CommandTermination(waitStatus: SIGKILL) == .signaled(SIGKILL))
        #expect(CommandTermination(waitStatus: SIGSEGV | 0x80) == .signaled(SIGSEGV))  // core dumped
    }

    @Test func descriptionsNameTheStatusOrTheSignal() {
        #expect(CommandTermination.exited(2).description == "exit status 2")
        #expect(CommandTermination.signaled(SIGKILL).description == "killed by SIGKILL")
        #expect(CommandTermination.signaled(SIGINT).description == "killed by SIGINT")
        #expect(CommandTermination.signaled(64).description == "killed by signal 64")
        #expect(CommandFailure(termination: .exited(2)).description == "exit status 2")
    }
}

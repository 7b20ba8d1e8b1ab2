import Testing

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@MainActor
struct ProcessGroupGuardTests {
    @Test func terminationCancelsOnlyForProgramsThatOptIn() {
        #expect(TerminalOverlay.ProcessIntegration.full.cancelsOnTermination == false)
        #expect(TerminalOverlay.ProcessIntegration.none.cancelsOnTermination == false)
        let before = TerminalState.shared.terminationCancels.load(ordering: .sequentiallyConsistent)
        defer { TerminalState.shared.terminationCancels.store(before, ordering: .sequentiallyConsistent) }
        _ = TerminalOverlay(terminal: WaitAlertStandardError.shared, integration: .init(cancelsOnTermination: true))
        let optedIn = TerminalState.shared.terminationCancels.load(ordering: .sequentiallyConsistent)
        #expect(optedIn)
        _ = TerminalOverlay(terminal: WaitAlertStandardError.shared)
        let byDefault = TerminalState.shared.terminationCancels.load(ordering: .sequentiallyConsistent)
        #expect(!byDefault)
    }

    #if os(Linux)
        /// The signal path reaches a registered group. It sends `SIGCONT`: every registered group
        /// gets it, those of commands other tests run meanwhile too, and `SIGCONT` harms none.
        @Test func aRegisteredGroupIsSignalledFromTheSignalPath() async throws {
            // A stopped child in a process group of its own.
            var pid: pid_t = 0
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
            defer { argv.forEach { free($0) } }
            try #require(posix_spawn(&pid, "/bin/sleep", nil, &attributes, argv, environ) == 0)
            defer {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
            kill(pid, SIGSTOP)
            var status: Int32 = 0
            while waitpid(pid, &status, WUNTRACED) < 0, errno == EINTR {}
            #expect(status & 0xFF == 0x7F, "stopped")
            ProcessGroupGuard.register(pid)
            ProcessGroupGuard.continueFromSignal()
            ProcessGroupGuard.unregister(pid)
            while waitpid(pid, &status, WCONTINUED) < 0, errno == EINTR {}
            #expect(status == 0xFFFF, "continued")
        }
    #endif
}

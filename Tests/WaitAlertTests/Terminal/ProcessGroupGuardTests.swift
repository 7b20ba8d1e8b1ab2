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
        let before = ProcessGroupGuard.terminationCancels.load(ordering: .sequentiallyConsistent)
        defer { ProcessGroupGuard.terminationCancels.store(before, ordering: .sequentiallyConsistent) }
        _ = TerminalOverlay(terminal: WaitAlertStandardError.shared, integration: .init(cancelsOnTermination: true))
        let optedIn = ProcessGroupGuard.terminationCancels.load(ordering: .sequentiallyConsistent)
        #expect(optedIn)
        _ = TerminalOverlay(terminal: WaitAlertStandardError.shared)
        let byDefault = ProcessGroupGuard.terminationCancels.load(ordering: .sequentiallyConsistent)
        #expect(!byDefault)
    }

    #if os(Linux)
        @Test func aRegisteredGroupIsKilledFromTheSignalPath() async throws {
            // A child in a process group of its own, killed by the handler's path.
            var pid: pid_t = 0
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
            defer { argv.forEach { free($0) } }
            try #require(posix_spawn(&pid, "/bin/sleep", nil, &attributes, argv, environ) == 0)
            ProcessGroupGuard.register(pid)
            ProcessGroupGuard.killFromSignal()
            ProcessGroupGuard.unregister(pid)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            #expect(status & 0x7F == SIGKILL)
            ProcessGroupGuard.killFromSignal()  // nothing registered: nothing happens
        }
    #endif
}

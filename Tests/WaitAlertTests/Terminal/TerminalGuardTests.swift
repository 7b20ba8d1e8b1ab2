import Synchronization
import Testing
import WaitAlertTesting

@testable import WaitAlert

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The guard installs its signal handling only while active and puts the previous dispositions back.
@Suite("Terminal guard", .serialized)
struct TerminalGuardTests {
    /// The handler of `signal`; the default (0) for the handlers a command run by a test of
    /// another suite installs meanwhile, and takes away when it ends (`ProcessGroupGuard`).
    private static func handler(of signal: Int32) -> Int {
        var action = sigaction()
        sigaction(signal, nil, &action)
        #if canImport(Glibc)
            let handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        #else
            let handler = unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
        #endif
        return ProcessGroupGuard.isHandler(handler) ? 0 : handler
    }

    /// Runs `body` with a pipe for the guard to write into, closed when it returns; reading it
    /// never blocks, so a missing write fails the test instead of hanging it.
    private static func withPipe(_ body: (TestPipe) async throws -> Void) async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        try await body(TestPipe(readEnd: ends[0], writeEnd: ends[1]))
    }

    private struct TestPipe {
        let readEnd: Int32
        let writeEnd: Int32

        /// What was written and is not read yet (up to 64 bytes).
        func written() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(readEnd, &buffer, buffer.count)
            return Array(buffer.prefix(max(count, 0)))
        }
    }

    @Test func signalHandlingExistsOnlyWhileActive() async throws {
        try await Self.withPipe { pipe in
            let before = TerminalGuard.guardedSignals.map(Self.handler(of:))
            let resized = TestGate()
            let hold = TerminalGuard.take(
                .init(
                    output: pipe.writeEnd, handlesSignals: true,
                    events: { if $0 == .resize { resized.open() } }))
            #expect(TerminalGuard.isActive)
            #expect(Self.handler(of: SIGWINCH) != before[TerminalGuard.guardedSignals.firstIndex(of: SIGWINCH)!])
            kill(getpid(), SIGWINCH)
            await resized.waitIgnoringCancellation()  // the resize handler ran
            TerminalGuard.release(hold)
            #expect(!TerminalGuard.isActive)
            #expect(TerminalGuard.guardedSignals.map(Self.handler(of:)) == before)
        }
    }

    /// Two holders at once — a question over the line modes' hold — neither turns the guard off
    /// under the other: the latest holder's events and input wish are in force while it holds,
    /// the earlier holder's again once it lets go, signals stay handled until the last lets go,
    /// and a holder that takes no events leaves the earlier ones in force.
    @Test func holdersDeclareWhatTheyNeedAndTheGuardReconcilesThem() async throws {
        try await Self.withPipe { pipe in
            let before = TerminalGuard.guardedSignals.map(Self.handler(of:))
            let winch = TerminalGuard.guardedSignals.firstIndex(of: SIGWINCH)!
            let firstResized = TestGate()
            let secondResized = [TestGate(), TestGate()]
            let secondResizes = Atomic<Int>(0)
            let first = TerminalGuard.take(
                .init(
                    output: pipe.writeEnd, handlesSignals: true,
                    events: { if $0 == .resize { firstResized.open() } }, input: .hidden))
            let second = TerminalGuard.take(
                .init(
                    output: pipe.readEnd, handlesSignals: false,
                    events: { event in
                        guard event == .resize else { return }
                        secondResized[min(secondResizes.add(1, ordering: .relaxed).oldValue, 1)].open()
                    },
                    input: .raw))
            #expect(
                TerminalState.shared.output.load(ordering: .relaxed) == pipe.writeEnd, "the first holder's terminal")
            #expect(TerminalGuard.state.withLock { $0.input } == .raw, "the latest holder's wish")
            kill(getpid(), SIGWINCH)
            await secondResized[0].waitIgnoringCancellation()  // the latest holder's handler ran
            #expect(!firstResized.isOpen)

            let third = TerminalGuard.take(.init(output: pipe.writeEnd, handlesSignals: true, events: nil))
            kill(getpid(), SIGWINCH)
            await secondResized[1].waitIgnoringCancellation()  // still the second's: the third gave none
            #expect(!firstResized.isOpen)
            TerminalGuard.release(third)

            TerminalGuard.release(first)  // the earlier holder lets go first: the guard stays on
            #expect(TerminalGuard.isActive)
            #expect(TerminalState.shared.output.load(ordering: .relaxed) == pipe.readEnd)
            #expect(Self.handler(of: SIGWINCH) == before[winch], "no holder left asks for signals")
            #expect(TerminalGuard.state.withLock { $0.input } == .raw)
            TerminalGuard.setInput(.asTyped, of: second)
            #expect(TerminalGuard.state.withLock { $0.input } == .asTyped)
            TerminalGuard.release(second)
            #expect(!TerminalGuard.isActive)
            #expect(TerminalGuard.guardedSignals.map(Self.handler(of:)) == before)
            #expect(TerminalGuard.state.withLock { $0.holds.isEmpty })
        }
    }

    /// A holder reaches the terminal through the session it is given: a hold with its events, a
    /// frame handed over with what it leaves on screen. The resize comes to it as an event on the
    /// main actor, the frame is written and the screen recorded, and letting go puts every
    /// disposition back.
    @Test func aHolderGetsItsEventsAndWritesThroughTheSession() async throws {
        try await Self.withPipe { pipe in
            let session = TerminalSession.process
            let before = TerminalGuard.guardedSignals.map(Self.handler(of:))
            let resized = TestGate()
            let received = Mutex<[TerminalEvent]>([])
            let hold = session.take(
                .init(
                    output: pipe.writeEnd, handlesSignals: true,
                    events: { event in
                        received.withLock { $0.append(event) }
                        if event == .resize { resized.open() }
                    }))
            kill(getpid(), SIGWINCH)
            await resized.waitIgnoringCancellation()
            #expect(received.withLock { $0 } == [.resize])
            let terminal = InMemoryTerminal(columns: 20, rows: 4)
            let written = session.write(to: terminal) { (Array("⠋ Building".utf8), .init(drawn: true)) }
            #expect(written && terminal.lines.first == "⠋ Building")
            #expect(session.isDrawn, "recorded with the write")
            session.release(hold)
            #expect(!session.isDrawn)
            #expect(TerminalGuard.guardedSignals.map(Self.handler(of:)) == before)
        }
    }

    /// A frame hands the guard what it leaves on screen with its bytes, and the guard records it
    /// with the write: an abrupt end then goes up to the frame's first row and erases from there.
    @Test func aFrameRecordsWhatItLeavesOnScreen() async throws {
        try await Self.withPipe { pipe in
            let hold = TerminalGuard.take(.init(output: pipe.writeEnd, handlesSignals: false, events: nil))
            let terminal = InMemoryTerminal(columns: 20, rows: 4)
            let written = TerminalGuard.write(to: terminal) {
                (Array("? Name\r\n> x\u{1B}[A".utf8), TerminalGuard.Screen(drawn: true, rowsAboveCursor: 1))
            }
            #expect(written)
            let drawn = TerminalState.shared.drawn.load(ordering: .relaxed)
            let rowsAboveCursor = TerminalState.shared.rowsAboveCursor.load(ordering: .relaxed)
            #expect(drawn && rowsAboveCursor == 1)
            TerminalGuard.restoreForExit()
            TerminalGuard.release(hold)
            #expect(pipe.written() == Array("\u{1B}[A".utf8) + TerminalGuard.restoreBytes)
            let drawnAfter = TerminalState.shared.drawn.load(ordering: .relaxed)
            #expect(!drawnAfter)
            TerminalState.shared.exited.store(false, ordering: .relaxed)  // this test process goes on
        }
    }

    /// Lines printed over the screen without the overlay (the relay's backlog) first erase what
    /// the record says is drawn, from its first row, and take it off the record until the overlay
    /// draws again; with nothing drawn there is nothing to erase.
    @Test func printingOverTheScreenErasesWhatTheRecordSays() {
        TerminalState.shared.lock.withLock { _ in
            TerminalState.shared.drawn.store(true, ordering: .sequentiallyConsistent)
            TerminalState.shared.rowsAboveCursor.store(2, ordering: .sequentiallyConsistent)
            let erase = TerminalState.shared.takeScreenToPrintOver { "up \($0)" }
            let drawn = TerminalState.shared.drawn.load(ordering: .sequentiallyConsistent)
            let erasedByRelay = TerminalState.shared.erasedByRelay.exchange(false, ordering: .sequentiallyConsistent)
            #expect(erase == "up 2" && !drawn && erasedByRelay)
            #expect(TerminalState.shared.takeScreenToPrintOver { "up \($0)" } == nil)
        }
    }

    @Test func restoreForExitWritesTheRestoreSequenceOnce() async throws {
        try await Self.withPipe { pipe in
            let hold = TerminalGuard.take(
                .init(
                    output: pipe.writeEnd, handlesSignals: false, events: { _ in }
                ))
            TerminalGuard.setDrawn(true)
            TerminalGuard.restoreForExit()
            TerminalGuard.restoreForExit()
            TerminalGuard.release(hold)
            #expect(pipe.written() == TerminalGuard.restoreBytes)
            #expect(String(decoding: TerminalGuard.restoreBytes, as: UTF8.self).hasSuffix("\u{1B}[?7h\u{1B}[?25h"))
            TerminalState.shared.exited.store(false, ordering: .relaxed)  // this test process goes on
        }
    }

    /// Once a signal handler has quieted the overlay (the program is about to end or to stop), an
    /// overlay write is dropped, so nothing lands after the restore; `SIGCONT` lets writes through
    /// again.
    @Test func aQuietedOverlayWritesNothing() {
        let terminal = InMemoryTerminal(columns: 20, rows: 2)
        TerminalState.shared.quieted.store(true, ordering: .sequentiallyConsistent)
        #expect(TerminalGuard.write(Array("\r⠹".utf8), to: terminal), "dropped, not failed")
        #expect(terminal.bytesWritten == 0)
        TerminalState.shared.quieted.store(false, ordering: .sequentiallyConsistent)
        #expect(TerminalGuard.write(Array("\r⠹".utf8), to: terminal))
        #expect(terminal.lines == ["⠹"])
        #expect(TerminalState.shared.writesInFlight.load(ordering: .sequentiallyConsistent) == 0)
    }
}

import Testing

@testable import WaitAlert

/// The terminal's shared state — its record of the screen, its one write, the writes under way
/// — on states of their own (the process's is left alone).
@Suite("Terminal state")
struct TerminalStateTests {
    /// Every write goes through one primitive: composed under the write lock with what it leaves
    /// on screen recorded with it; dropped, not composed, while a handler has quieted writes;
    /// refused once the program has exited. The bytes reach whatever the caller writes through.
    @Test func theOneWriteRecordsTheScreenDropsWhileQuietedAndRefusesAfterTheExit() {
        let state = TerminalState()
        var written: [UInt8] = []
        let write = { (bytes: [UInt8]) -> Bool in
            written += bytes
            return true
        }
        var composed = 0
        let frame = { () -> (bytes: [UInt8], leaves: TerminalState.Screen?) in
            composed += 1
            return (Array("? Name\r\n> x".utf8), TerminalState.Screen(drawn: true, rowsAboveCursor: 1))
        }
        #expect(state.write(composing: frame, through: write) == true)
        #expect(written == Array("? Name\r\n> x".utf8))
        let drawn = state.drawn.load(ordering: .sequentiallyConsistent)
        let rows = state.rowsAboveCursor.load(ordering: .sequentiallyConsistent)
        #expect(drawn && rows == 1, "recorded with the write")
        #expect(state.write(composing: { ([], nil) }, through: write) == true, "nothing to write")
        let stillDrawn = state.drawn.load(ordering: .sequentiallyConsistent)
        #expect(stillDrawn, "a write that leaves no record keeps the last one")

        state.quieted.store(true, ordering: .sequentiallyConsistent)
        #expect(state.write(composing: frame, through: write) == nil)
        state.quieted.store(false, ordering: .sequentiallyConsistent)
        state.exited.store(true, ordering: .sequentiallyConsistent)
        #expect(state.write(composing: frame, through: write) == false)
        #expect(composed == 1, "neither dropped nor refused bytes are composed")
        #expect(written.count == 11, "nor written")
        #expect(state.write(composing: frame, through: { _ in false }) == false)
    }

    /// Lines printed over the overlay without it (the relay's backlog) take what is on screen
    /// off the record: the erase goes up the rows the record says, once.
    @Test func printingOverTheScreenTakesItOffTheRecordOnce() {
        let session = TerminalState()
        #expect(session.takeScreenToPrintOver { _ in "erase" } == nil, "nothing is drawn yet")
        session.drawn.store(true, ordering: .sequentiallyConsistent)
        session.rowsAboveCursor.store(2, ordering: .sequentiallyConsistent)
        #expect(session.takeScreenToPrintOver { "up \($0)" } == "up 2")
        let drawn = session.drawn.load(ordering: .sequentiallyConsistent)
        #expect(!drawn)
        let rowsAboveCursor = session.rowsAboveCursor.load(ordering: .sequentiallyConsistent)
        #expect(rowsAboveCursor == 0)
        let erasedByRelay = session.erasedByRelay.load(ordering: .sequentiallyConsistent)
        #expect(erasedByRelay, "drawn again only by a frame")
        #expect(session.takeScreenToPrintOver { _ in "again" } == nil, "erased once")
    }

    /// A signal handler that ends the program stops every later write; a write it interrupted
    /// on its own thread is not waited for (it could never finish).
    @Test func anEndFromASignalStopsEveryLaterWrite() {
        let session = TerminalState()
        #expect(session.mayWrite)
        session.beginWrite()
        session.endFromSignal()
        #expect(!session.mayWrite)
        let ended = session.ended.load(ordering: .sequentiallyConsistent)
        #expect(ended)
        session.endWrite()
        let writesInFlight = session.writesInFlight.load(ordering: .sequentiallyConsistent)
        #expect(writesInFlight == 0)
    }

    /// A stop (Ctrl-Z) quiets the writes until the terminal is given back; an end is for good.
    @Test func aQuietedSessionWritesAgainOnlyUntilItEnds() {
        let session = TerminalState()
        session.quieted.store(true, ordering: .sequentiallyConsistent)
        #expect(!session.mayWrite)
        session.quieted.store(false, ordering: .sequentiallyConsistent)
        #expect(session.mayWrite)
        session.endFromSignal()
        session.quieted.store(false, ordering: .sequentiallyConsistent)
        #expect(!session.mayWrite)
    }

    /// Every process-wide part of the terminal keeps its shared state here: one object, made
    /// before any signal handler can read it.
    @Test func theProcessHasOneSession() {
        TerminalState.prepareForSignals()
        #expect(TerminalState.shared === TerminalState.shared)
        #expect(TerminalState.shared !== TerminalState())
        #expect(TerminalState.shared.forcedExitStorage.count == TerminalState.forcedExitCapacity)
    }
}

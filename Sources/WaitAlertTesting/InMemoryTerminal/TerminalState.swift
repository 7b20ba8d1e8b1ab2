extension InMemoryTerminal {
    /// Everything behind the terminal's lock.
    ///
    /// The parser and the screen are apart: the parser turns each written byte into actions, and the screen
    /// performs them.
    struct TerminalState {
        var parser = Parser()
        var screen: Screen
        var isClosed = false
        var isForeground = true
        var bytesWritten = 0
        var writeCount = 0
        var output: [UInt8] = []
        /// The invariant checks, once turned on.
        var checker: InvariantChecker?

        init(columns: Int, rows: Int) {
            screen = Screen(columns: columns, rows: rows)
        }
    }
}

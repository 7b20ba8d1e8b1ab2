extension WaitAlertReporter {
    /// Follows a source of lines — a subprocess's output, a log stream — showing each line as
    /// the alert's text as it comes (the latest wins, as with ``update(_:)``) and keeping the
    /// last `keeping` lines: when the alert ends in failure, they are printed above its final
    /// line, so the reason is on screen.
    ///
    /// ```swift
    /// try await withWaitAlert("Building") { alert in
    ///     let tail = try await alert.follow(lines: build.outputLines)
    ///     guard await build.status == 0 else { throw BuildFailed(lastLines: tail) }
    /// }
    /// ```
    ///
    /// Lines that would show nothing — blank, or only escape sequences — leave the text as it was.
    /// Lines are sanitized and cut to width where they are shown, like every text.
    ///
    /// To run a command and follow its output, ``run(_:output:environment:workingDirectory:keeping:)``
    /// does all of it, and stops the command when the work is cancelled.
    ///
    /// - Parameters:
    ///   - lines: the lines, without their line ends.
    ///   - keeping: how many of the last lines to keep (0 for none).
    /// - Returns: the last `keeping` lines, oldest first, once `lines` has ended.
    /// - Throws: what `lines` throws (the kept lines are printed above the alert first), or
    ///   `CancellationError` whenever the task was cancelled while following — also when `lines`
    ///   then ends without an error (an `AsyncStream` does) or with one of its own.
    @discardableResult
    public func follow<Lines: AsyncSequence>(lines: Lines, keeping: Int = 10) async throws -> [String]
    where Lines.Element == String {
        var tail = LastLines(capacity: keeping)
        do {
            for try await line in lines {
                try Task.checkCancellation()
                tail.append(line)
                if TextSanitizer.showsSomething(line) { update(line) }
                mailbox.failureReport = tail.lines
            }
        } catch {
            // A sequence may end its iteration with an error of its own when cancelled.
            if Task.isCancelled { throw CancellationError() }
            if !(error is CancellationError) {
                for line in tail.lines { log(line) }
                mailbox.failureReport = []
            }
            throw error
        }
        // A sequence may end its iteration when cancelled, as `AsyncStream` does: it did not end
        // on its own.
        try Task.checkCancellation()
        return tail.lines
    }
}

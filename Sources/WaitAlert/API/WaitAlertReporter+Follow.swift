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
    /// Blank lines leave the text as it was. Lines are sanitized and cut to width where they are
    /// shown, like every text.
    ///
    /// - Parameters:
    ///   - lines: the lines, without their line ends.
    ///   - keeping: how many of the last lines to keep (0 for none).
    /// - Returns: the last `keeping` lines, oldest first, once `lines` has ended.
    /// - Throws: what `lines` throws (the kept lines are printed above the alert first), or
    ///   `CancellationError` when the task is cancelled while following.
    @discardableResult
    public func follow<Lines: AsyncSequence>(lines: Lines, keeping: Int = 10) async throws -> [String]
    where Lines.Element == String {
        var tail = LastLines(capacity: keeping)
        do {
            for try await line in lines {
                try Task.checkCancellation()
                tail.append(line)
                if !line.allSatisfy(\.isWhitespace) { update(line) }
                mailbox.failureReport.withLock { $0 = tail.lines }
            }
        } catch {
            if !(error is CancellationError) {
                for line in tail.lines { log(line) }
                mailbox.failureReport.withLock { $0 = [] }
            }
            throw error
        }
        return tail.lines
    }
}

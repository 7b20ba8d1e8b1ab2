extension WaitAlertPresenter {
    /// Prints `line` above the alerts, from anywhere in the program: not tied to one alert's
    /// work, and never through a spinner's line.
    ///
    /// On a terminal that shows alerts, the line is printed above them (colours kept, other
    /// escape sequences removed) and they are drawn again under it; otherwise — no alert on
    /// screen, standard output redirected to a file or a pipe, a UI presenter — it is written to
    /// `stream` as `Swift.print` would, in order with the program's own output.
    ///
    /// ```swift
    /// try await withWaitAlert("Syncing") { alert in
    ///     await WaitAlertPresenter.current.print("3 files changed")  // the presenter is @MainActor
    /// }
    /// ```
    ///
    /// Output the program writes by other means while alerts show (`print`, a subprocess) is
    /// caught and printed above them too (``TerminalOverlay/ProcessIntegration/capturesOutput``).
    public func print(_ line: String, to stream: WaitAlertOutputStream = .standardOutput) {
        var printed = false
        for renderer in renderers where renderer.print(line, to: stream) { printed = true }
        guard !printed else { return }
        switch stream {
        case .standardOutput:
            Swift.print(line)
        case .standardError:
            _ = Platform.writeAll((line + "\n").utf8, to: Platform.standardError)
        }
    }

    /// Runs `body` with the alerts off the screen and the terminal as the program found it: echo
    /// and line editing on, signals as they were, nothing drawn; the alerts come back when it
    /// returns or throws. Use it to ask something in the middle of the work.
    ///
    /// ```swift
    /// try await withWaitAlert("Deploying") { alert in
    ///     let answer = await WaitAlertPresenter.current.withAlertsSuspended {
    ///         print("Continue? [y/N] ", terminator: "")
    ///         return readLine()
    ///     }
    ///     guard answer == "y" else { throw CancellationError() }
    /// }
    /// ```
    ///
    /// Alerts keep their state meanwhile: texts and progress reported while suspended show when
    /// they are back, and log lines are printed then, in order. Calls nest.
    public func withAlertsSuspended<Value>(_ body: () async throws -> Value) async rethrows -> Value {
        for renderer in renderers { renderer.suspend() }
        defer { for renderer in renderers { renderer.resume() } }
        return try await body()
    }
}

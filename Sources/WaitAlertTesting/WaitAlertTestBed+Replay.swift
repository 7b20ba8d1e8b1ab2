public import Testing
public import WaitAlert

extension WaitAlertTestBed {
    /// Plays a recorded event stream on ``presenter`` (`WaitAlertPresenter.play(_:speed:)`),
    /// moving the clock from event to event, then plays every alert to its end: a test can check
    /// what a stream captured elsewhere — `WAIT_ALERT_PROGRESS=json` in production, a bug report —
    /// shows, on the ``recorder`` or on an overlay over an `InMemoryTerminal`.
    ///
    /// - Parameters:
    ///   - recording: the stream to play.
    ///   - speed: how many times faster than recorded.
    ///   - sourceLocation: where an issue is reported when the alerts cannot end.
    public func play(
        _ recording: WaitAlertRecording, speed: Double = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let presenter = presenter
        let playing = start { await presenter.play(recording, speed: speed) }
        _ = try? await run(until: playing, sourceLocation: sourceLocation)
        await run(sourceLocation: sourceLocation)
    }
}

// Where recorded event streams play again: ``WaitAlertPresenter/play(_:speed:)``.
extension WaitAlertPresenter {
    /// Plays a recorded event stream: its alerts begin, change and end on this presenter as they
    /// did when it was recorded, at the original pace or `speed` times faster.
    ///
    /// Alerts show as alerts of this program do, with this presenter's timing: work that ended
    /// within its grace delay stays hidden, final lines stay readable, then fade. Ids are the
    /// recording's own, so a recording cannot touch other alerts. Alerts the recording leaves
    /// open (it was cut short) end as cancelled when it ends, and so do alerts open when the
    /// calling task is cancelled — or Ctrl-C, or ``cancelAll()``, cancels the alerts' work —
    /// which ends the playing at once.
    ///
    /// ```swift
    /// let recording = WaitAlertRecording(try String(contentsOfFile: "build.jsonl", encoding: .utf8))
    /// await WaitAlertPresenter.current.play(recording, speed: 4)
    /// ```
    ///
    /// A pause of more than 10 seconds between two events (as played) is shortened to 10
    /// seconds, and a line printed on standard error says how long it was. `speed` shortens
    /// the waits between events only: the presenter's own timing still applies, so at a high
    /// speed a task that showed when recorded may end within its grace delay and leave no
    /// record, and final lines say how long an alert was shown while playing. A presenter
    /// whose clock runs `speed` times faster (as `wait-alert replay --speed` makes) shows the
    /// recording as it was, faster, with the recorded times.
    ///
    /// Returns after the last event, without waiting for the last alert to fade: await
    /// ``idle()`` for that.
    ///
    /// - Parameters:
    ///   - recording: the stream to play.
    ///   - speed: how many times faster than recorded; `.infinity` plays every event at once. A
    ///     speed that is not a positive number plays at the original pace.
    public func play(_ recording: WaitAlertRecording, speed: Double = 1) async {
        let speed = speed > 0 ? speed : 1
        let start = clock.now()
        let playing = WorkCancellation()
        playing.enter()
        defer { playing.leave() }
        var tasks = ReportedTasks(target: nil)
        tasks.cancelSource = { playing.cancel() }
        var previous = Duration.zero
        var shortened = Duration.zero
        for (index, event) in recording.events.enumerated() {
            let time = event.time ?? previous
            let pause = Self.playingTime(of: time - previous, speed: speed)
            if pause > Self.longestPause {
                shortened += pause - Self.longestPause
                let silence = DurationFormat.seconds(time - previous)
                print(
                    "wait-alert: the recording has no event for \(silence) here; "
                        + "playing on in \(DurationFormat.seconds(Self.longestPause))",
                    to: .standardError)
            }
            previous = time
            let due = start + Self.playingTime(of: time, speed: speed) - shortened
            if due > clock.now() {
                do { try await clock.sleep(due) } catch { break }
            } else if index % 256 == 255 {
                await Task.yield()  // events played at once still let the display and input run
            }
            if Task.isCancelled { break }
            // At the instant it was due, not the one the wake-up came: the alerts' times are the
            // recorded ones, whatever the delay of each wake-up.
            tasks.apply(event, on: self, at: min(due, clock.now()))
        }
        tasks.endOpen(on: self)
    }

    /// The longest wait between two events while playing: a longer pause of the recording is
    /// shortened to it, and a line says so.
    static let longestPause = Duration.seconds(10)

    /// When an event recorded at `time` plays at `speed`, since the playing began: at most a
    /// century, so no speed, however slow, overflows a duration.
    private static func playingTime(of time: Duration, speed: Double) -> Duration {
        let (seconds, attoseconds) = time.components
        let scaled = (Double(seconds) + Double(attoseconds) * 1e-18) / speed
        return scaled < 3.2e9 ? .seconds(scaled) : .seconds(3_200_000_000)
    }
}

public import Observation

/// Where wait alerts appear: a set of renderers, a default timing and a clock.
///
/// `withWaitAlert`, `showWaitAlert` and `showToast` use ``shared`` unless told otherwise. An app
/// that draws alerts itself observes ``alerts``; a test injects a manual clock:
///
/// ```swift
/// let clock = ManualClock()
/// let presenter = WaitAlertPresenter(renderers: [recorder], clock: clock)
/// ```
///
/// A presenter keeps every alert alive until it has faded out, so an alert shown and forgotten
/// still finishes its animation and fires its completion.
@MainActor
@Observable
public final class WaitAlertPresenter {
    /// The alerts alive now, in the order they began.
    public private(set) var alerts: [WaitAlertModel] = []

    /// The timing used when a call does not pass one.
    @ObservationIgnored public let timing: WaitAlertTiming
    @ObservationIgnored let renderers: [any WaitAlertRenderer]
    @ObservationIgnored let clock: AlertClock
    @ObservationIgnored let wantsFrames: Bool
    /// Where the work of `withWaitAlert` runs when it is not isolated to an actor; `nil` for the
    /// global concurrent executor. A test bed sets its own, which serves jobs on the main queue,
    /// so work and alerts advance one step at a time under a manual clock.
    @ObservationIgnored package var workExecutor: (any TaskExecutor)?
    @ObservationIgnored private var drivers: [WaitAlertID: WaitAlertDriver] = [:]
    @ObservationIgnored private(set) lazy var scheduler = AlertScheduler(clock: clock) { [unowned self] id in
        drivers[id]?.timerFired()
    }

    /// Makes a presenter.
    ///
    /// - Parameters:
    ///   - renderers: what draws the alerts; none for a model-only presenter observed by a UI.
    ///   - timing: the default timing of its alerts.
    ///   - clock: the clock alerts sleep on; a `ManualClock` in tests.
    public init(
        renderers: [any WaitAlertRenderer] = [],
        timing: WaitAlertTiming = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.renderers = renderers
        self.timing = timing
        self.clock = AlertClock(clock)
        // A presenter with no renderer is observed by a UI, which animates from its snapshots.
        self.wantsFrames = renderers.isEmpty || renderers.contains { $0.wantsFrames }
        renderers.forEach { $0.didAttach(to: self) }
        PendingWakes.installExitFlush()
    }

    /// The presenter used when none is given: a ``TerminalOverlay`` on standard error, with
    /// persistent final lines and the ``WaitAlertTiming/terminal`` timing.
    ///
    /// An app that draws alerts itself replaces it: `WaitAlertPresenter.shared = WaitAlertPresenter()`.
    public static var shared = WaitAlertPresenter(renderers: [TerminalOverlay()], timing: .terminal)

    /// Begins an alert showing `text`.
    func begin(
        _ text: String, timing: WaitAlertTiming? = nil, kind: WaitAlertKind = .waitAlert,
        mailbox: ReportMailbox = ReportMailbox()
    ) -> WaitAlertDriver {
        let driver = WaitAlertDriver(
            text: text, timing: timing ?? self.timing, kind: kind, presenter: self, mailbox: mailbox)
        drivers[driver.id] = driver
        alerts.append(driver.model)
        driver.start()
        return driver
    }

    func remove(_ driver: WaitAlertDriver) {
        drivers[driver.id] = nil
        scheduler.schedule(driver.id, at: nil)
        alerts.removeAll { $0.id == driver.id }
    }

    /// Waits until every alert alive now has faded out and been removed.
    ///
    /// A command-line program can await this before exiting so a transient alert finishes its
    /// fade; `withWaitAlert` itself never waits for it.
    public func idle() async {
        for alert in alerts {
            _ = await alert.completed()
        }
    }

    /// Cancels the work of every alert that is waiting for work.
    ///
    /// - Returns: whether there was any work to cancel.
    @discardableResult
    public func cancelAll() -> Bool {
        let cancels = drivers.values.compactMap(\.cancelWork)
        cancels.forEach { $0() }
        return !cancels.isEmpty
    }

    /// Lets go of every alert at once: their work is cancelled, their timer stopped, and nothing
    /// is drawn any more. For an owner that goes away mid-flight (a test bed at the end of a test),
    /// so nothing of it outlives it.
    package func shutDown() {
        drivers.values.forEach { $0.cancelWork?() }
        drivers = [:]
        alerts = []
        scheduler.removeAll()
    }

    /// Waits until no alert has anything due at the clock's current time.
    package func settle() async {
        while true {
            if let driver = drivers.values.first(where: \.hasWakePending) {
                await driver.settle()
            } else if let timer = scheduler.dueTimer {
                await timer.value
            } else {
                return
            }
        }
    }

    /// The deadline the presenter's timer sleeps until, if any.
    package var timerDeadline: Duration? { scheduler.timerDeadline }

    /// Main-actor wake-ups of one live alert so far.
    package func wakeUps(of id: WaitAlertID) -> Int? { drivers[id]?.wakeUps }
}

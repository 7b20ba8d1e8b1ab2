extension WaitAlertPresenter {
    /// The presenter used when none is given: a ``TerminalOverlay`` on standard error, with
    /// persistent final lines and the ``WaitAlertTiming/terminal`` timing.
    ///
    /// An app that draws alerts itself replaces it: `WaitAlertPresenter.shared = WaitAlertPresenter()`;
    /// a tool with a `--progress` option, with an overlay in the mode asked for. The default is
    /// made when it is first read, so replacing it before then never makes it (it would read
    /// `WAIT_ALERT_PROGRESS`, and on standard error connect to the alert of a program that
    /// started this one). To redirect the alerts of one piece of code only — in a test that runs
    /// in parallel with others — use ``withWaitAlertPresenter(_:isolation:operation:)`` instead.
    public static var shared: WaitAlertPresenter {
        get {
            if let presenter = sharedPresenter { return presenter }
            let presenter = WaitAlertPresenter(renderers: [TerminalOverlay()], timing: .terminal)
            sharedPresenter = presenter
            return presenter
        }
        set { sharedPresenter = newValue }
    }

    /// ``shared``, once it has been read or set.
    private static var sharedPresenter: WaitAlertPresenter?

    /// The presenter `withWaitAlert`, `showWaitAlert` and `showToast` use when none is given: the
    /// one set for the current task by ``withWaitAlertPresenter(_:isolation:operation:)``, else
    /// ``shared``.
    public static var current: WaitAlertPresenter { TaskPresenter.value ?? shared }
}

/// The presenter set for the current task, if any.
enum TaskPresenter {
    @TaskLocal static var value: WaitAlertPresenter?
}

/// Runs `operation` with `presenter` as the current presenter: every alert it shows without naming
/// a presenter — in child tasks too — appears there.
///
/// The way to capture the alerts of code under test without touching
/// ``WaitAlertPresenter/shared``, so tests can run in parallel:
///
/// ```swift
/// let bed = WaitAlertTestBed()
/// try await withWaitAlertPresenter(bed.presenter) {
///     try await synchronizeEverything()  // calls withWaitAlert("Syncing…") { … }
/// }
/// ```
///
/// - Parameters:
///   - presenter: where alerts appear meanwhile.
///   - isolation: the caller's actor, where `operation` runs; filled in by the compiler.
///   - operation: the code whose alerts go to `presenter`.
/// - Returns: what `operation` returned.
/// - Throws: what `operation` threw.
public func withWaitAlertPresenter<Value>(
    _ presenter: WaitAlertPresenter,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Value
) async rethrows -> Value {
    try await TaskPresenter.$value.withValue(presenter, operation: operation, isolation: isolation)
}

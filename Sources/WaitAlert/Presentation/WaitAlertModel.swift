public import Observation

/// One live alert, observable from SwiftUI, AppKit or UIKit.
///
/// The model lives on the main actor; bind a view to ``snapshot`` and it follows the alert
/// through every phase. ``completion`` is set once, when the alert has been removed.
///
/// ```swift
/// struct AlertView: View {
///     let alert: WaitAlertModel
///     var body: some View {
///         Label(alert.snapshot.text, systemImage: "hourglass")
///             .opacity(alert.snapshot.opacity)
///             .scaleEffect(alert.snapshot.scale)
///     }
/// }
/// ```
@MainActor
@Observable
public final class WaitAlertModel: Identifiable {
    /// The alert's identity.
    public nonisolated let id: WaitAlertID
    /// How the alert looks now.
    public internal(set) var snapshot: WaitAlertSnapshot
    /// How the alert ended, set once it has been removed.
    public private(set) var completion: WaitAlertCompletion? {
        get { storedCompletion?.unboxed }
        set { storedCompletion = newValue.map(OutOfLine.value) }
    }
    /// ``completion``, kept out of line: ten thousand rows that have not ended stay small.
    private var storedCompletion: OutOfLine<WaitAlertCompletion>?

    /// Set by the presenter: fades the alert out now.
    @ObservationIgnored var onDismiss: (() -> Void)?
    @ObservationIgnored private var waiters: [CheckedContinuation<WaitAlertCompletion, Never>] = []

    /// The alert this one is a child task of, or `nil` for a top-level alert.
    public nonisolated let parentID: WaitAlertID?
    /// The child tasks alive now, in the order they began (an outline binds to this).
    public internal(set) var children: [WaitAlertModel] = []

    init(id: WaitAlertID, parentID: WaitAlertID? = nil, snapshot: WaitAlertSnapshot) {
        self.id = id
        self.parentID = parentID
        self.snapshot = snapshot
    }

    /// Removes the alert now: it fades out without waiting for any minimum.
    public func dismiss() {
        onDismiss?()
    }

    /// Waits until the alert has been removed and returns how it ended.
    public func completed() async -> WaitAlertCompletion {
        if let completion { return completion }
        return await withCheckedContinuation { waiters.append($0) }
    }

    func complete(_ completion: WaitAlertCompletion) {
        guard self.completion == nil else { return }
        self.completion = completion
        let waiters = self.waiters
        self.waiters = []
        waiters.forEach { $0.resume(returning: completion) }
    }
}

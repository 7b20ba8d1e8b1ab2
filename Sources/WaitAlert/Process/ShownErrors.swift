import Synchronization

/// The errors alerts (and questions) ended with lately, as their type and description, each with
/// the signal that cancelled the work it ended, if one did: what ``WaitAlertExit`` counts as
/// shown. Bounded: an error is asked about right after its alert ended.
package enum ShownErrors {
    private struct Shown: Hashable {
        let type: ObjectIdentifier
        let description: String
    }

    private static let capacity = 32
    private static let shown = Mutex<[(error: Shown, signal: Int32)]>([])

    private static func key(_ error: any Error) -> Shown {
        Shown(type: ObjectIdentifier(type(of: error)), description: String(describing: error))
    }

    /// Records that `error` was shown, `signal` (0 for none) having cancelled the work it ended;
    /// it replaces an earlier record of an equal error.
    package static func record(_ error: any Error, signal: Int32) {
        let key = key(error)
        shown.withLock { shown in
            shown.removeAll { $0.error == key }
            shown.append((key, signal))
            if shown.count > capacity { shown.removeFirst(shown.count - capacity) }
        }
    }

    /// The signal recorded with `error` (or an equal one), 0 for none; `nil` when it was not shown.
    package static func signal(for error: any Error) -> Int32? {
        let key = key(error)
        return shown.withLock { shown in shown.last { $0.error == key }?.signal }
    }
}

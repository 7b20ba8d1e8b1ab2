import Dispatch

/// Whether code runs where the main actor runs: a report made there cannot wait for the main
/// actor, and an ending made there can be applied before it returns.
///
/// On Linux the main actor runs on the main dispatch queue, which is not always served by the
/// process's first thread (once the async top-level code has suspended, another thread drains
/// it), so the queue is asked, not the thread.
enum MainThread {
    #if canImport(Darwin)
        /// Whether the calling code runs on the main thread.
        static var isCurrent: Bool { Platform.isMainThread }
    #else
        private static let key: DispatchSpecificKey<Bool> = {
            let key = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: key, value: true)
            return key
        }()

        /// Whether the calling code runs on the main dispatch queue.
        static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
    #endif
}

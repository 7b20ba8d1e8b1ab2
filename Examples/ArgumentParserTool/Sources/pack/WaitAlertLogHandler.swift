import Logging
import WaitAlert

/// Prints log messages above the wait alerts, on standard error.
struct WaitAlertLogHandler: LogHandler {
    var label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let text = "\(event.level) \(label): \(event.message)"
        Task { @MainActor in WaitAlertPresenter.current.print(text, to: .standardError) }
    }
}

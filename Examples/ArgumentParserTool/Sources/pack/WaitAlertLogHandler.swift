import Foundation
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
        if DispatchQueue.getSpecific(key: mainQueue) == true {
            // On the main actor: through the presenter, in order with the alerts' own lines.
            MainActor.assumeIsolated { WaitAlertPresenter.current.print(text, to: .standardError) }
        } else {
            // Elsewhere, at once: while alerts show, the overlay catches what is written to
            // standard error and prints it above them.
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }
}

/// Marks the main queue, where the main actor runs.
private let mainQueue: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

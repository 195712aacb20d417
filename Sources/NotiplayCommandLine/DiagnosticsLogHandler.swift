import Logging
import NotiplayCore

/// A swift-log handler that writes one line per message to ``Diagnostics``.
///
/// The command line installs it (``bootstrap(environment:)``) when it owns the process; the
/// libraries only log, and never choose where logs go.
struct DiagnosticsLogHandler: LogHandler {
    /// The logger's label, printed before each message.
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    /// Creates a handler.
    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let text = TerminalText.clean(event.message.description)
        Diagnostics.shared.write("\(NotiplayCLI.commandName): \(event.level) [\(label)] \(text)\n")
    }

    /// The level named by `NOTIPLAY_LOG` in `environment` (`trace` … `critical`), or `nil` when
    /// it is unset or unknown.
    static func level(in environment: [String: String]) -> Logger.Level? {
        guard let raw = environment["NOTIPLAY_LOG"] else { return nil }
        return Logger.Level(rawValue: raw.lowercased())
    }

    /// Labels of loggers that carry other libraries' diagnostics (libmpv, ALSA, PipeWire).
    /// They are silent unless `NOTIPLAY_LOG` names a level: failures that matter to the user
    /// reach them through notiplay's own errors, with the file and the exit status.
    static let libraryLabels: Set<String> = ["libmpv", "native"]

    /// Installs this handler for every logger: `NOTIPLAY_LOG`'s level (read from `environment`),
    /// else `warning` for notiplay's own loggers and `critical` for ``libraryLabels``.
    static func bootstrap(environment: [String: String]) {
        let chosen = level(in: environment)
        LoggingSystem.bootstrap { label in
            let level = chosen ?? (libraryLabels.contains(label) ? .critical : .warning)
            return DiagnosticsLogHandler(label: label, level: level)
        }
    }
}

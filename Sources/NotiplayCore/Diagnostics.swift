#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization

/// Where notiplay's own messages for the user go: standard error, or the copy of it kept aside
/// when native libraries' output is captured (see `NativeStderrCapture` in NotiplayPlayback).
public final class Diagnostics: Sendable {
    /// The process-wide instance.
    public static let shared = Diagnostics()

    private let descriptor = Atomic<Int32>(2)

    /// The file descriptor written to; 2 until something redirects it.
    public var fileDescriptor: Int32 {
        get { descriptor.load(ordering: .acquiring) }
        set { descriptor.store(newValue, ordering: .releasing) }
    }

    /// Writes `text` as it is; add the newline yourself.
    public func write(_ text: String) {
        writeAll(fileDescriptor, text)
    }

    /// Writes `notiplay: MESSAGE` and a newline.
    public func report(_ message: String) {
        write("notiplay: \(message)\n")
    }
}

/// Writes all of `text` to `fd`, retrying short writes and EINTR; gives up on other errors.
/// - Returns: Whether all of it was written.
@discardableResult
public func writeAll(_ fd: Int32, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { writeAll(fd, $0) }
}

/// Writes all of `bytes` to `fd` (one `write` when the descriptor takes it all), retrying short
/// writes and EINTR; gives up on other errors.
/// - Returns: Whether all of it was written.
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
}

private func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    var offset = 0
    while offset < buffer.count {
        let n = Glibc.write(fd, base + offset, buffer.count - offset)
        if n > 0 {
            offset += n
        } else if n < 0 && errno == EINTR {
            continue
        } else {
            return false
        }
    }
    return true
}

/// A swift-log handler that writes one line per message to ``Diagnostics``.
public struct DiagnosticsLogHandler: LogHandler {
    /// The logger's label, printed before each message.
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler.
    public init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let text = TerminalText.clean(event.message.description)
        Diagnostics.shared.write("notiplay: \(event.level) [\(label)] \(text)\n")
    }

    /// The level named by the `NOTIPLAY_LOG` environment variable (`trace` … `critical`), or
    /// `nil` when it is unset or unknown.
    public static func levelFromEnvironment() -> Logger.Level? {
        guard let raw = getenv("NOTIPLAY_LOG") else { return nil }
        return Logger.Level(rawValue: String(cString: raw).lowercased())
    }

    /// Labels of loggers that carry other libraries' diagnostics (libmpv, ALSA, PipeWire).
    /// They are silent unless `NOTIPLAY_LOG` names a level: failures that matter to the user
    /// reach them through notiplay's own errors, with the file and the exit status.
    public static let libraryLabels: Set<String> = ["libmpv", "native"]

    /// Installs this handler for every logger: `NOTIPLAY_LOG`'s level, else `warning` for
    /// notiplay's own loggers and `critical` for ``libraryLabels``.
    public static func bootstrap() {
        let chosen = levelFromEnvironment()
        LoggingSystem.bootstrap { label in
            let level = chosen ?? (libraryLabels.contains(label) ? .critical : .warning)
            return DiagnosticsLogHandler(label: label, level: level)
        }
    }
}

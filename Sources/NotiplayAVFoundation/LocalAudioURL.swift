import Foundation
import NotiplayCore

/// The check every URL handed to this module passes before libmpv may open it: a `file:` URL on
/// this machine, naming a regular local file that is acceptable audio, as attachments are
/// validated (``AudioFileValidator``: recognised from its first bytes, within the audio size limit).
enum LocalAudioURL {
    /// The validated file `url` names.
    /// - Throws: ``NotiplayError`` naming the URL or file: a URL of another scheme or host
    ///   (`.badData`), a missing file (`.missingInput`), a directory, device or other non-regular
    ///   file, an empty, oversize or unreadable file, or content that is not audio (`.badData`).
    static func validate(_ url: URL) throws(NotiplayError) -> AudioFile {
        guard url.isFileURL else {
            let scheme = url.scheme.map { "a URL (\($0):)" } ?? "not a URL with a scheme"
            throw NotiplayError(
                .badData, file: url.absoluteString,
                "is \(scheme), not a file URL; notiplay plays local files only — download it first")
        }
        if let host = url.host, !host.isEmpty, host != "localhost" {
            throw NotiplayError(
                .badData, file: url.absoluteString, "names the host \"\(host)\"; notiplay plays local files only")
        }
        let path = url.path
        return try AudioFileValidator().validate(path)
    }
}

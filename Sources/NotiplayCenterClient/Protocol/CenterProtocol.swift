#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The protocol between `notiplay serve` and its clients, over a Unix stream socket: its
/// versions and limits.
///
/// Every message is a *frame*: a 4-byte big-endian length, then that many bytes of UTF-8 JSON
/// (``FrameReader``, ``FrameWriter``). A client sends requests (``CenterRequest``); the server
/// answers each with a reply (``CenterReply``), in the order the requests came, and may push
/// events (``CenterEvent``) to a connection that asked to wait. The article <doc:Protocol>
/// describes the JSON for clients written in other languages.
public enum CenterProtocol {
    /// The protocol version this build writes in every message's `"v"`.
    public static let version = 1

    /// Every version this build's server answers; a request with another `"v"` gets an
    /// `unsupported-version` error naming these.
    public static let versions = [1]

    /// The length of a frame's header: a 4-byte big-endian byte count.
    public static let headerLength = 4

    /// The largest frame body either side accepts, 16 MiB. Attachments travel inline (base64),
    /// so a `send` with a few attachments of a few MB each fits.
    public static let maximumFrameLength = 16 * 1024 * 1024

    /// The encoder every message is written with: dates in ISO 8601, data in base64, slashes
    /// as they are.
    package static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The decoder every message is read with, the encoder's counterpart.
    package static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .base64
        return decoder
    }
}

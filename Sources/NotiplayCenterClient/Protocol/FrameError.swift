/// Why bytes on a connection are not a frame a message can be read from. After any of these
/// the stream cannot be trusted: the server answers with an error reply and closes the
/// connection.
public enum FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The header announces more bytes than ``CenterProtocol/maximumFrameLength``.
    case oversized(length: Int, limit: Int)
    /// The frame's bytes are not valid UTF-8.
    case invalidUTF8
    /// The frame's text is not JSON (what the JSON reader said).
    case invalidJSON(String)

    /// What is wrong, in words a person reads in a log or an error reply.
    public var description: String {
        switch self {
        case .oversized(let length, let limit):
            "a frame of \(length) bytes is larger than the limit of \(limit) bytes"
        case .invalidUTF8: "the frame is not valid UTF-8"
        case .invalidJSON(let reason): "the frame is not JSON: \(reason)"
        }
    }
}

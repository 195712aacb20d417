public import NotiplayCore
package import NotiplaySystem
public import SystemPackage

/// Why the center's socket could not be used: by the server (``CenterSocketServer``) or by a
/// client (``CenterClient``).
public enum CenterSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A server already answers at the path (the command line exits 69).
    case alreadyRunning(path: String)
    /// No server answers at the path: nothing is there, or a socket nobody listens on (the
    /// command line exits 69 and suggests `notiplay serve`).
    case noServer(path: String)
    /// The socket's folder cannot be trusted or used: the reason says why and what to do.
    case unsafeFolder(path: String, reason: String)
    /// A client did not send anything, because what it would reach may be another user's: the
    /// socket's folder (`path`) is another user's or others may enter it, or the server at the
    /// socket (`path`) runs as another user. The reason says which, and what to do; the command
    /// line exits 69.
    case untrusted(path: String, reason: String)
    /// Something other than a socket is at the path, and it is left alone.
    case notASocket(path: String, found: String)
    /// The path is longer than a Unix socket address holds (107 bytes).
    case pathTooLong(path: String, limit: Int)
    /// A system call failed: its name (`"bind"`), the error it left, and the path it was
    /// about.
    case system(call: String, errno: Errno, path: String)
    /// No reply (or event) came in time.
    case timedOut(waitingFor: String, after: Duration)
    /// The server closed the connection.
    case connectionClosed(path: String)
    /// The server sent something that is not a message of this protocol.
    case protocolViolation(String)
    /// The server refused the request: its code and message.
    case failed(CenterFailure)
    /// The task waiting for the server was cancelled (the connection is shut).
    case cancelled

    /// What went wrong, for a person.
    public var description: String {
        switch self {
        case .alreadyRunning(let path): "a server is already running at \(path)"
        case .noServer(let path): "no notification center is running at \(path); start one with `notiplay serve`"
        case .unsafeFolder(let path, let reason): "\(path): \(reason)"
        case .untrusted(let path, let reason): "\(path): not connecting: \(reason)"
        case .notASocket(let path, let found): "\(path) is \(found), not a socket; move it away if it is not needed"
        case .pathTooLong(let path, let limit): "\(path) is longer than a socket path may be (\(limit) bytes)"
        case .system(let call, let errno, let path): "\(path): \(call): \(errno)"
        case .timedOut(let what, let after): "no \(what) came from the notification center within \(after)"
        case .connectionClosed(let path): "the notification center at \(path) closed the connection"
        case .protocolViolation(let reason): "the notification center sent something unexpected: \(reason)"
        case .failed(let failure): "the notification center refused the request: \(failure)"
        case .cancelled: "cancelled"
        }
    }

    /// The same failure as the libraries report failures to a person: a server already running
    /// or none running, a server not to be trusted, a timeout or a closed connection are
    /// `.unavailable` (exit 69), a path in the way or unusable is `.badData`, a refused request
    /// is `.badData`.
    public var notiplayError: NotiplayError {
        switch self {
        case .alreadyRunning(let path):
            NotiplayError(.unavailable, file: path, "a server is already running here")
        case .noServer(let path):
            NotiplayError(.unavailable, file: path, "no notification center is running here; start one with `notiplay serve`")
        case .unsafeFolder(let path, let reason): NotiplayError(.badData, file: path, reason)
        case .untrusted(let path, let reason): NotiplayError(.unavailable, file: path, "not connecting: \(reason)")
        case .notASocket(let path, let found):
            NotiplayError(.badData, file: path, "is \(found), not a socket; move it away if it is not needed")
        case .pathTooLong(let path, let limit):
            NotiplayError(.badData, file: path, "is longer than a socket path may be (\(limit) bytes)")
        case .system(let call, let errno, let path): NotiplayError(.unavailable, file: path, "\(call): \(errno)")
        case .timedOut, .connectionClosed, .protocolViolation, .cancelled: NotiplayError(.unavailable, description)
        case .failed(let failure): NotiplayError(.badData, failure.message)
        }
    }

    /// A failed system call about `path`.
    package init(_ error: SystemCallError, path: String) {
        self = .system(call: error.call, errno: error.errno, path: path)
    }
}

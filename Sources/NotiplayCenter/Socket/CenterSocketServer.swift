import NotiplaySystem
public import SystemPackage
import Synchronization
public import NotiplayCenterClient

/// The notification center's server end: a Unix stream socket that clients (`notiplay send`,
/// an app's `UNUserNotificationCenter`, a script in any language) connect to, speaking
/// ``CenterProtocol``.
///
/// ```swift
/// let server = try CenterSocketServer(path: socketPath) { request, peer in
///     switch request.operation {
///     case .ping: .pong(PingReply(pid: getpid()))
///     default: .failure(CenterFailure(.internal, "not yet"))
///     }
/// }
/// defer { server.stop() }
/// ```
///
/// Starting makes the socket's folder (mode 0700; an existing one must be the user's and 0700),
/// takes over a stale socket (one nobody listens on) and refuses a live one
/// (``CenterSocketError/alreadyRunning(path:)``), binds with mode 0600 and starts one thread
/// that serves every connection with `poll(2)`. Peers running as another user are refused. The
/// handler runs in a task, one request at a time per connection; its replies go back in the
/// order the requests came. ``stop()`` closes everything and removes the socket file.
public final class CenterSocketServer: Sendable {
    /// Answers one request; `peer` says who asked and on which connection (to push events to
    /// it later).
    public typealias Handler = @Sendable (_ request: CenterRequest, _ peer: CenterPeer) async -> CenterReply

    /// How a server behaves beyond its path and handler.
    public struct Configuration: Sendable {
        /// How long a connection may stay in the middle of a frame without a byte coming before
        /// it is closed (a connection that sends nothing at all may stay open).
        public var partialFrameTimeout: Duration
        /// The only user id served; the server's own effective user id unless a test says
        /// otherwise.
        public var userID: UInt32
        /// Told what the server does: connections accepted, refused and closed, system calls
        /// that failed. Called on the server's thread: keep it short, and do not call ``stop()``
        /// from it.
        public var activity: (@Sendable (Activity) -> Void)?

        /// A configuration.
        /// - Parameters:
        ///   - partialFrameTimeout: How long a partial frame may wait for its next byte.
        ///   - userID: The only user id served; `nil` for the server's own.
        ///   - activity: Told what the server does, on its thread.
        public init(
            partialFrameTimeout: Duration = .seconds(10), userID: UInt32? = nil,
            activity: (@Sendable (Activity) -> Void)? = nil
        ) {
            self.partialFrameTimeout = partialFrameTimeout
            self.userID = userID ?? Posix.effectiveUserID
            self.activity = activity
        }
    }

    /// Something the server did, for a log (and for tests, which wait on these rather than on
    /// time).
    public enum Activity: Sendable, Equatable, CustomStringConvertible {
        /// A connection was accepted.
        case accepted(CenterPeer)
        /// A connection from another user was refused (after an error reply, if it could be
        /// sent) and closed.
        case refused(PeerCredentials, reason: String)
        /// A connection was closed.
        case closed(CenterConnectionID, CloseReason)
        /// A system call failed and the server went on (or, for `poll`, stopped).
        case failed(call: String, errno: Errno)
        /// The server stopped: every connection is closed and the socket file removed.
        case stopped

        /// A line for a log.
        public var description: String {
            switch self {
            case .accepted(let peer): "connection \(peer.connection) accepted (\(peer.credentials))"
            case .refused(let credentials, let reason): "connection refused (\(credentials)): \(reason)"
            case .closed(let id, let reason): "connection \(id) closed: \(reason)"
            case .failed(let call, let errno): "\(call) failed: \(errno)"
            case .stopped: "stopped"
            }
        }
    }

    /// Why a connection was closed.
    public enum CloseReason: Sendable, Equatable, CustomStringConvertible {
        /// The peer closed it between frames (after its replies were sent).
        case peerClosed
        /// The peer went away in the middle of a frame.
        case vanishedMidFrame
        /// The peer sent bytes that are not a UTF-8 JSON frame (it got an error reply first).
        case badFrame
        /// The peer announced a frame over the limit (it got an error reply first).
        case frameTooLarge
        /// Part of a frame came, then nothing for the configured time (or a last reply was not
        /// read in that time).
        case timedOut
        /// The socket failed.
        case failed(String)
        /// The server stopped.
        case serverStopped

        /// In words.
        public var description: String {
            switch self {
            case .peerClosed: "the peer closed it"
            case .vanishedMidFrame: "the peer went away in the middle of a frame"
            case .badFrame: "the peer sent something that is not a frame of JSON"
            case .frameTooLarge: "the peer announced a frame over the limit"
            case .timedOut: "the peer stopped in the middle of a frame"
            case .failed(let reason): reason
            case .serverStopped: "the server stopped"
            }
        }
    }

    /// The socket's path.
    public let path: String
    private let core: ServerCore
    private let thread: SystemThread
    private let stopped = Mutex(false)

    /// Binds the socket at `path` and starts serving.
    /// - Parameters:
    ///   - path: The socket's path (at most 107 bytes); its folder is made if missing.
    ///   - configuration: Time limits, the user served, and who is told what happens.
    ///   - handler: Answers each request.
    /// - Throws: ``CenterSocketError/alreadyRunning(path:)`` when a server answers at `path`;
    ///   ``CenterSocketError/unsafeFolder(path:reason:)``,
    ///   ``CenterSocketError/notASocket(path:found:)``,
    ///   ``CenterSocketError/pathTooLong(path:limit:)`` or ``CenterSocketError/system(call:errno:path:)``
    ///   when the path cannot be used.
    public init(path: String, configuration: Configuration = Configuration(), handler: @escaping Handler) throws(CenterSocketError) {
        self.path = path
        try SocketPlace.prepare(path, owner: Posix.effectiveUserID)
        let listener: FileDescriptor
        let identity: SocketPlace.Identity
        do {
            listener = try Posix.unixStreamSocket(nonBlocking: true)
        } catch {
            throw CenterSocketError(error, path: path)
        }
        do throws(CenterSocketError) {
            do {
                try Posix.bind(listener, toPath: path)
            } catch where error.errno == .addressInUse {
                throw CenterSocketError.alreadyRunning(path: path)  // another server bound it just now
            } catch {
                throw CenterSocketError(error, path: path)
            }
            identity = try SocketPlace.finishBinding(path)
            do { try Posix.listen(listener) } catch { throw CenterSocketError(error, path: path) }
        } catch {
            Posix.close(listener)
            throw error
        }
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            pipe = try Posix.pipe()
        } catch {
            Posix.close(listener)
            throw CenterSocketError(error, path: path)
        }
        let core = ServerCore(handler: handler, configuration: configuration, wake: pipe)
        self.core = core
        do {
            thread = try SystemThread.start(name: "notiplay-center") {
                ServerLoop(core: core, listener: listener, path: path, identity: identity).run()
            }
        } catch {
            Posix.close(listener)
            core.closeMailbox()
            SocketPlace.removeIfOurs(path, identity: identity)
            throw CenterSocketError(error, path: path)
        }
    }

    deinit {
        stop()
    }

    /// Sends `event` to a connection, after the reply to the request it is handling, if any.
    /// An event for a connection that has closed is dropped.
    public func push(_ event: CenterEvent, to connection: CenterConnectionID) {
        guard let frame = try? CenterMessageCodec.frame(event) else { return }
        core.post(.push(connection, frame: frame))
    }

    /// Closes every connection and the socket, removes the socket file, and returns once the
    /// server's thread has ended. Replies still being worked out are dropped. Calling it again
    /// does nothing.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        core.requestStop()
        thread.join()
        core.closeMailbox()
    }

    /// How many times the server's thread has woken from `poll(2)`: an idle server's count
    /// stays put.
    package var wakeCount: Int { core.wakeCount.load(ordering: .relaxed) }
}

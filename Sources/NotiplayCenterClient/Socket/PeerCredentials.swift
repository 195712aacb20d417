/// Who is at the other end of a connection, as the kernel recorded it when the peer connected
/// (`SO_PEERCRED`): not something the peer can claim.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32

    /// Credentials, as `struct ucred` holds them.
    /// - Parameters:
    ///   - pid: The process id.
    ///   - uid: The user id.
    ///   - gid: The group id.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// `pid P, uid U, gid G`.
    public var description: String { "pid \(pid), uid \(uid), gid \(gid)" }
}

/// The server's number for one connection, unique for the server's life: what a handler keeps
/// to push events to that connection later (``CenterSocketServer/push(_:to:)``).
public struct CenterConnectionID: Sendable, Hashable, CustomStringConvertible {
    /// The number (connections are counted from 1).
    public let rawValue: UInt64

    /// A connection's id.
    /// - Parameter rawValue: The number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// `#N`.
    public var description: String { "#\(rawValue)" }
}

/// Where a request came from: the connection, and who opened it.
public struct CenterPeer: Sendable, Hashable {
    /// The connection the request came on (to push events to it later).
    public var connection: CenterConnectionID
    /// Who opened it.
    public var credentials: PeerCredentials

    /// A peer.
    /// - Parameters:
    ///   - connection: The connection.
    ///   - credentials: Who opened it.
    public init(connection: CenterConnectionID, credentials: PeerCredentials) {
        self.connection = connection
        self.credentials = credentials
    }
}

/// Which peers the server serves: those running as one user (the server's own, unless a test
/// says otherwise). Root gets no exception: a notification center belongs to one user.
package struct PeerPolicy: Sendable, Equatable {
    /// The only user id served.
    package var userID: UInt32

    /// A policy serving `userID` only.
    package init(userID: UInt32) {
        self.userID = userID
    }

    /// Why `credentials` are refused, or `nil` when they are served.
    package func refusal(of credentials: PeerCredentials) -> String? {
        guard credentials.uid != userID else { return nil }
        return "this notification center serves uid \(userID) only; the connecting process (\(credentials)) runs as another user"
    }
}

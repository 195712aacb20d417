import NotiplayCenterClient
import NotiplaySystem

/// The server of the user's session as one app's program reaches it: where its socket is, and
/// the app the program speaks for. Every call makes a connection of its own, which the call
/// closes, so a server restarted in between is found again.
///
/// Every exchange is bounded: with no server the connection fails at once; a server that does
/// not answer fails the call after ``replyTimeout``.
package struct AppServerLink: Sendable, Equatable {
    /// The socket's path.
    package let socketPath: String
    /// The app's name as sent to the server, which matches it to a registered app ignoring case,
    /// spaces and punctuation.
    package let app: String

    /// A link to the server at `socketPath`, for `app`.
    package init(socketPath: String, app: String) {
        self.socketPath = socketPath
        self.app = app
    }

    /// How long connecting may wait when the server's backlog is full.
    static let connectTimeout = Duration.seconds(5)
    /// How long a request may wait for its reply (a `send` is answered once it is stored durably).
    static let replyTimeout = Duration.seconds(30)

    /// The link of this process: the one place an app's notification center reads the process's
    /// environment and `argv[0]`. The socket is `$XDG_RUNTIME_DIR/notiplay/center.sock` (else
    /// `/tmp/notiplay-UID/center.sock`); the app is `$NOTIPLAY_APP`, else the program's name.
    package static func forThisProcess() -> AppServerLink {
        let environment = Posix.environment
        return AppServerLink(
            socketPath: CenterAddress.socketPath(environment: environment, userID: Posix.userID),
            app: CenterAddress.appName(environment: environment, programPath: CommandLine.arguments.first ?? ""))
    }

    /// Performs `operation` on a connection of its own, blocking the calling thread until the
    /// reply comes (or a time limit passes).
    /// - Throws: What ``CenterErrorMapping`` makes of the failure.
    func perform<Operation: CenterOperation>(_ operation: Operation) throws -> Operation.Reply {
        do {
            let client = try CenterClient.connect(to: socketPath, timeout: Self.connectTimeout)
            defer { client.close() }
            return try client.perform(operation, timeout: Self.replyTimeout)
        } catch {
            throw CenterErrorMapping.error(for: error)
        }
    }

    /// Performs `operation` on a connection of its own, waiting on a thread of the client's,
    /// not on the caller's; cancelling the task shuts the connection.
    /// - Throws: What ``CenterErrorMapping`` makes of the failure.
    func perform<Operation: CenterOperation>(_ operation: Operation) async throws -> Operation.Reply {
        do {
            let client = try await CenterClient.connect(to: socketPath, timeout: Self.connectTimeout)
            defer { client.close() }
            return try await client.perform(operation, timeout: Self.replyTimeout)
        } catch {
            throw CenterErrorMapping.error(for: error)
        }
    }
}

package import NotiplayCenterClient

/// What an app sees of a failed exchange with the server: Apple's ``UNError`` where Apple has a
/// code for the failure, else a ``NotificationCenterError``.
package enum CenterErrorMapping {
    /// The error an app's call throws (or hands its completion handler) for `error`.
    ///
    /// | The server's code or the socket's failure | The error |
    /// |---|---|
    /// | `not-allowed` | ``UNError/Code-swift.enum/notificationsNotAllowed`` |
    /// | `invalid-trigger` | ``UNError/Code-swift.enum/notificationInvalidNoDate`` |
    /// | `invalid-payload` | ``UNError/Code-swift.enum/notificationInvalidNoContent`` |
    /// | `unknown-app` | ``NotificationCenterError/unknownApp(message:)`` |
    /// | any other code | ``NotificationCenterError/refused(code:message:)`` |
    /// | no server at the path | ``NotificationCenterError/noServer(socketPath:)`` |
    /// | the task was cancelled | `CancellationError` |
    /// | a timeout, a closed connection, a path that cannot be used, a socket or server of another user | ``NotificationCenterError/unavailable(_:)`` |
    package static func error(for error: CenterSocketError) -> any Error {
        switch error {
        case .failed(let failure): return self.error(for: failure)
        case .noServer(let path): return NotificationCenterError.noServer(socketPath: path)
        case .cancelled: return CancellationError()
        case .alreadyRunning, .unsafeFolder, .untrusted, .notASocket, .pathTooLong, .system, .timedOut, .connectionClosed,
            .protocolViolation:
            return NotificationCenterError.unavailable(error.description)
        }
    }

    /// The error for a failure the server answered with.
    package static func error(for failure: CenterFailure) -> any Error {
        switch failure.code {
        case .notAllowed: UNError(.notificationsNotAllowed, failure.message)
        case .invalidTrigger: UNError(.notificationInvalidNoDate, failure.message)
        case .invalidPayload: UNError(.notificationInvalidNoContent, failure.message)
        case .unknownApp: NotificationCenterError.unknownApp(message: failure.message)
        default: NotificationCenterError.refused(code: failure.code.rawValue, message: failure.message)
        }
    }
}

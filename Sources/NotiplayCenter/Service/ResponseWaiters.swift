import Synchronization
package import NotiplayCenterClient

/// The clients waiting for a notification's response (`send --wait`), by the notification's
/// identifier: each gets one `response` event, when a person answers or dismisses the card, or
/// when the notification ends otherwise (removed, or replaced by a newer one with its
/// identifier).
package final class ResponseWaiters: Sendable {
    /// A client waiting: its connection and the `send` request that asked to wait.
    package struct Waiter: Sendable, Equatable {
        /// The client's connection.
        package var connection: CenterConnectionID
        /// The id of its `send` request.
        package var requestID: Int

        /// A client on `connection` waiting since its request `requestID`.
        package init(connection: CenterConnectionID, requestID: Int) {
            self.connection = connection
            self.requestID = requestID
        }
    }

    /// The action of the response a waiting client gets when its notification was removed.
    package static let removedAction = "notiplay.removed"
    /// The action of the response a waiting client gets when its notification expired (a desktop
    /// notification's time on screen ran out).
    package static let expiredAction = "notiplay.expired"
    /// The action of the response a waiting client gets when a newer notification with the same
    /// identifier replaced its own.
    package static let replacedAction = "notiplay.replaced"

    private let waiting = Mutex<[String: Waiter]>([:])

    /// No one waiting.
    package init() {}

    /// `waiter` waits for `identifier`'s response; returns the client that waited for it before
    /// (its notification was just replaced).
    package func add(_ waiter: Waiter, for identifier: String) -> Waiter? {
        waiting.withLock { $0.updateValue(waiter, forKey: identifier) }
    }

    /// The client waiting for `identifier`'s response, no longer waiting.
    package func take(_ identifier: String) -> Waiter? {
        waiting.withLock { $0.removeValue(forKey: identifier) }
    }

    /// The event that answers `waiter`.
    package static func event(for waiter: Waiter, identifier: String, action: String, text: String? = nil) -> CenterEvent {
        .response(ResponseEvent(requestID: waiter.requestID, identifier: identifier, action: action, text: text))
    }
}

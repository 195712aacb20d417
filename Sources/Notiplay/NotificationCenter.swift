import NotiplayCore
import NotiplayViews
/// The app's notification center as an extension reaches it: the requests waiting to be
/// delivered and the notifications delivered, which seed 001's NagMe removes when its reminder is
/// cancelled.
///
/// ```swift
/// let identifiers = [response.notification.request.identifier]
/// UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: identifiers)
/// UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: identifiers)
/// ```
///
/// Each removal is recorded as a `removed` event (`kind` pending or delivered, `identifiers`
/// comma-separated). A delivered notification removed while its card is shown stays on the card,
/// as on iOS, where the expanded notification stays until the person closes it. Pending requests
/// come with notiplay's notification center (`notiplay serve`); until then there are none.
@MainActor
public final class UNUserNotificationCenter {
    private weak var session: PresentationSession?

    private init(session: PresentationSession?) {
        self.session = session
    }

    /// The center of the app presenting now.
    public static func current() -> UNUserNotificationCenter {
        UNUserNotificationCenter(session: PresentationSession.current)
    }

    /// The notifications delivered and not removed, oldest first.
    public func deliveredNotifications() -> [UNNotification] {
        session?.delivered ?? []
    }

    /// The requests waiting to be delivered.
    public func pendingNotificationRequests() -> [UNNotificationRequest] {
        session?.pending ?? []
    }

    /// Removes the delivered notifications with these request identifiers.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        guard let session else { return }
        session.delivered.removeAll { identifiers.contains($0.request.identifier) }
        session.log.record(.removed(.delivered, identifiers: identifiers))
    }

    /// Removes every delivered notification.
    public func removeAllDeliveredNotifications() {
        removeDeliveredNotifications(withIdentifiers: deliveredNotifications().map(\.request.identifier))
    }

    /// Removes the pending requests with these identifiers.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        guard let session else { return }
        session.pending.removeAll { identifiers.contains($0.identifier) }
        session.log.record(.removed(.pending, identifiers: identifiers))
    }

    /// Removes every pending request.
    public func removeAllPendingNotificationRequests() {
        removePendingNotificationRequests(withIdentifiers: pendingNotificationRequests().map(\.identifier))
    }
}

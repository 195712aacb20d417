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
    private weak var store: NotificationStore?

    private init(store: NotificationStore?) {
        self.store = store
    }

    /// The center of the app presenting: the one whose extension the runtime is calling (or
    /// called when it started the `Task` this runs in). Outside a presentation it has no
    /// notifications, and removing does nothing.
    public static func current() -> UNUserNotificationCenter {
        UNUserNotificationCenter(store: PresentationScope.current?.notifications)
    }

    /// The notifications delivered and not removed, oldest first.
    public func deliveredNotifications() -> [UNNotification] {
        store?.delivered ?? []
    }

    /// The requests waiting to be delivered.
    public func pendingNotificationRequests() -> [UNNotificationRequest] {
        store?.pending ?? []
    }

    /// Removes the delivered notifications with these request identifiers.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        store?.removeDelivered(identifiers)
    }

    /// Removes every delivered notification.
    public func removeAllDeliveredNotifications() {
        removeDeliveredNotifications(withIdentifiers: deliveredNotifications().map(\.request.identifier))
    }

    /// Removes the pending requests with these identifiers.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        store?.removePending(identifiers)
    }

    /// Removes every pending request.
    public func removeAllPendingNotificationRequests() {
        removePendingNotificationRequests(withIdentifiers: pendingNotificationRequests().map(\.identifier))
    }
}

import NotiplayCore

/// The app's notifications as its notification center knows them: those delivered and not
/// removed, and the requests waiting to be delivered (none until notiplay has a notification
/// center). ``UNUserNotificationCenter`` reads and removes them; each removal is a `removed` event.
@MainActor
final class NotificationStore {
    private let log: EventLog
    /// Every notification presented and not removed, oldest first.
    private(set) var delivered: [UNNotification] = []
    /// Requests waiting to be delivered.
    private(set) var pending: [UNNotificationRequest] = []

    init(log: EventLog) {
        self.log = log
    }

    /// `notification` was presented (again, when its identifier was delivered before).
    func deliver(_ notification: UNNotification) {
        delivered.removeAll { $0.request.identifier == notification.request.identifier }
        delivered.append(notification)
    }

    /// Removes the delivered notifications with these request identifiers.
    func removeDelivered(_ identifiers: [String]) {
        delivered.removeAll { identifiers.contains($0.request.identifier) }
        log.record(.removed(.delivered, identifiers: identifiers))
    }

    /// Removes the pending requests with these identifiers.
    func removePending(_ identifiers: [String]) {
        pending.removeAll { identifiers.contains($0.identifier) }
        log.record(.removed(.pending, identifiers: identifiers))
    }
}

import Notiplay

/// The NagMe reminder's content extension, ported from iOS (seeds 001 and 003): a
/// "Reminder: …" label and a speaker; the `cancel` action removes the reminder's pending and
/// delivered notifications, mutes the speaker and keeps the card,
/// any other action closes it.
///
/// Compared with the iOS original only the view changed: a `TerminalView`'s lines instead of a
/// storyboard's labels.
public final class NotificationViewController: TerminalViewController, UNNotificationContentExtension {
    private var reminder = ""
    private var speaker = "🔊"

    public required init() {}

    public func didReceive(_ notification: UNNotification) {
        reminder = "Reminder: \(notification.request.content.body)"
        redraw()
    }

    public func didReceive(
        _ response: UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        if response.actionIdentifier == "cancel" {
            let identifiers = [response.notification.request.identifier]
            // Remove future notifications that have been scheduled, and the ones delivered, so
            // that the notification center is not cluttered.
            UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: identifiers)
            UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: identifiers)
            // Visual feedback that the reminder has been cancelled; the card stays.
            speaker = "🔇"
            redraw()
            completion(.doNotDismiss)
        } else {
            completion(.dismiss)
        }
    }

    private func redraw() {
        view.lines = ["\(reminder)  \(speaker)"]
    }
}

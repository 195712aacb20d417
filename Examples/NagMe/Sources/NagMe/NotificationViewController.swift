import Notiplay

/// The NagMe reminder's content extension, ported from iOS (seeds 001 and 003): a
/// "Reminder: …" label and a speaker; the `cancel` action removes the reminder's pending and
/// delivered notifications, mutes the speaker and keeps the card,
/// any other action closes it.
///
/// The article's two methods are between the `seed-diff` markers, compared with `Seed.swift.txt`
/// by `Scripts/seed-diff` (README.md holds the diff): only the view changed — the storyboard's
/// two labels are the lines of a `TerminalView`, and the speaker does not shake. This module
/// registers the class itself (``NagMeExtensions``), so the tool never names it and it could be
/// `internal`, as in an iOS extension target; it is `public` only because NagMe's tests make one
/// directly to call its methods.
public final class NotificationViewController: TerminalViewController, UNNotificationContentExtension {
    // The storyboard's labels, the article's outlets: the reminder, and the speaker beside it.
    var label = "" { didSet { redraw() } }
    var speakerLabel = "🔊" { didSet { redraw() } }

    private func redraw() {
        view.lines = ["\(label)  \(speakerLabel)"]
    }
}

public extension NotificationViewController {
    // seed-diff: begin didReceive-notification
    func didReceive(_ notification: UNNotification) {
        label = "Reminder: \(notification.request.content.body)" // view
    }
    // seed-diff: end

    // seed-diff: begin didReceive-response
    func didReceive(_ response: UNNotificationResponse,
                    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {

        if response.actionIdentifier == "cancel" {
            let request = response.notification.request

            let identifiers = [request.identifier]

            // Remove future notifications that have been scheduled
            UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: identifiers)

            // Remove any notifications that have already been delivered so we're not cluttering up the user's notification center
            UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: identifiers)

            // Visual feedback that notification has been cancelled
            speakerLabel = "🔇" // view

            completion(.doNotDismiss)
        }
        else {
            completion(.dismiss)
        }
    }
    // seed-diff: end
}

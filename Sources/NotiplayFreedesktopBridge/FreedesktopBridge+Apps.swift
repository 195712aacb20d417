import NotiplayCenter
import NotiplayCore
import NotiplayFreedesktop

/// Which category a freedesktop notification is presented under, for the app it goes to.
extension FreedesktopBridge {
    /// What the center stores for a mapped notification: its payload, the category to register
    /// for its buttons (if it has any), and its category identifier.
    struct Presentation {
        var payload: String
        var category: UNNotificationCategory?
        var categoryIdentifier: String?
    }

    /// How `mapped` is presented for `app`. For the bridge's own app, as mapped: the category
    /// `freedesktop.ID` with the notification's buttons. For an app registered by
    /// `desktop-entry` that ships content extensions, under a category one of them claims, so
    /// its extension draws the card: the `category` hint when one claims it, else the first
    /// category its first extension claims; the notification's buttons, if it has any, are
    /// registered under that category (otherwise the app's own actions for it show).
    func presentation(of mapped: FreedesktopMapped, for app: String) -> Presentation {
        let claimed = app == defaultApp ? [] : service.claimedCategories(of: app)
        guard let first = claimed.first else {
            return Presentation(payload: mapped.payloadJSON, category: mapped.category, categoryIdentifier: mapped.categoryIdentifier)
        }
        let identifier = mapped.extras.category.flatMap { claimed.contains($0) ? $0 : nil } ?? first
        let content = UNMutableNotificationContent(mapped.content)
        content.categoryIdentifier = identifier
        return Presentation(
            payload: content.payloadJSON,
            category: mapped.extras.actions.category(identifier: identifier), categoryIdentifier: identifier)
    }
}

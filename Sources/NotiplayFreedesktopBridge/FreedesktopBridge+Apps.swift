import NotiplayCenter
import NotiplayCore
import NotiplayFreedesktop

/// Which category a freedesktop notification is presented under, for the app it goes to.
extension FreedesktopBridge {
    /// Presents `mapped` for `app`. For the bridge's own app, as mapped: the category
    /// `freedesktop.ID` with the notification's buttons. For an app registered by
    /// `desktop-entry` that ships content extensions, under a category one of them claims, so
    /// its extension draws the card: the `category` hint when one claims it, else the first
    /// category its first extension claims; the notification's buttons, if it has any, are
    /// registered under that category (otherwise the app's own actions for it show).
    func present(_ mapped: inout FreedesktopMapped, for app: String) {
        let claimed = app == defaultApp ? [] : service.claimedCategories(of: app)
        guard let first = claimed.first else { return }
        mapped.present(under: mapped.extras.category.flatMap { claimed.contains($0) ? $0 : nil } ?? first)
    }
}

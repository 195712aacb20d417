package import Notiplay
package import NotiplayCore
import NotiplayFreedesktop
import NotiplayViews

/// The card of a freedesktop notification that no registered app claims: the content extension
/// of ``FreedesktopApp``, for every category.
///
/// Its manifest (``FreedesktopApp/manifest``) sets `UNNotificationExtensionOverridesDefaultTitle`
/// and `UNNotificationExtensionDefaultContentHidden`: the header is the client's `app_name` (the
/// payload's `freedesktop.app`) and the extension draws the content itself, because the card's
/// default content has no styles. Top to bottom, the view shows
///
/// - the sound attachment (the first audio attachment) as the default card does: its name after a
///   `.default` play/pause button, which starts on ▶, and a progress row (``AudioAttachmentRows``);
/// - the title, in bold;
/// - the body with its markup's styles, wrapped (``FreedesktopCardContent``);
/// - `image: PATH`, dim, for an `image-path` hint (listed, not drawn).
///
/// A notification without a `freedesktop` object is drawn as the default card draws it, under
/// the app's own name.
package final class FreedesktopCardExtension: TerminalViewController, UNNotificationContentExtension
{
    /// The name it is registered under.
    package nonisolated static let typeName = "FreedesktopCardExtension"

    private lazy var audio: AudioAttachmentRows = {
        let audio = AudioAttachmentRows(owner: self)
        audio.onChange = { [weak self] in self?.redraw() }
        return audio
    }()
    /// What shows under the sound rows.
    private var content: [any ViewElement] = []
    /// The `resident` hint: choosing an action leaves the card open.
    private var resident = false

    package var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { audio.buttonType }

    package var mediaPlayPauseButtonFrame: CGRect { CGRect(cells: AudioAttachmentRows.buttonFrame) }

    package func didReceive(_ notification: UNNotification) {
        let received = notification.request.content
        if let extras = FreedesktopExtras(payload: received.jsonUserInfo) {
            title = extras.app
            resident = extras.resident
            content = FreedesktopCardContent.elements(received, extras: extras)
        } else {
            title = nil
            resident = false
            content = FreedesktopCardContent.plainElements(received)
        }
        audio.receive(notification)
    }

    /// An action chosen: the card stays when the notification is resident (the server has
    /// already told the client which action), else it closes and the action goes on.
    package func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        completion(resident ? .doNotDismiss : .dismissAndForwardAction)
    }

    package func mediaPlay() {
        audio.play()
    }

    package func mediaPause() {
        audio.pause()
    }

    private func redraw() {
        view.elements = audio.rows + content
    }
}

public import Foundation
import NotiplayCore
import NotiplayViews
/// The built-in card for notifications no extension claims: the title, subtitle and body (drawn
/// by the card as default content), the actions, and for the first audio attachment a `.default`
/// play button with position and duration (``AudioAttachmentRows``). It is an extension like any
/// other and emits the same events.
public final class DefaultContentExtension: TerminalViewController, UNNotificationContentExtension {
    /// The name it is registered under.
    public nonisolated static let typeName = "DefaultContentExtension"

    private lazy var audio: AudioAttachmentRows = {
        let audio = AudioAttachmentRows(owner: self)
        audio.onChange = { [weak self, weak audio] in self?.view.elements = audio?.rows ?? [] }
        return audio
    }()

    /// The attachment's player, once there is one.
    var player: MediaPlayer? { audio.player }

    public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { audio.buttonType }

    public var mediaPlayPauseButtonFrame: CGRect { CGRect(cells: AudioAttachmentRows.buttonFrame) }

    public func didReceive(_ notification: UNNotification) {
        audio.receive(notification)
    }

    public func mediaPlay() {
        audio.play()
    }

    public func mediaPause() {
        audio.pause()
    }
}

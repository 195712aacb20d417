public import Foundation
import NotiplayCore
import NotiplayViews
/// The built-in card for notifications no extension claims: the title, subtitle and body (drawn
/// by the card as default content), the actions, and for the first audio attachment a `.default`
/// play button with position and duration (``AudioAttachmentRows``), and under them the first
/// PNG or JPEG attachment, fitted into at most 8 rows (an image view: a picture on a terminal
/// that draws them, its stand-in elsewhere). It is an extension like any other and emits the same
/// events.
public final class DefaultContentExtension: TerminalViewController, UNNotificationContentExtension {
    /// The name it is registered under.
    public nonisolated static let typeName = "DefaultContentExtension"

    private lazy var audio: AudioAttachmentRows = {
        let audio = AudioAttachmentRows(owner: self)
        audio.onChange = { [weak self] in self?.redraw() }
        return audio
    }()

    /// The attachment's player, once there is one.
    var player: MediaPlayer? { audio.player }

    public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { audio.buttonType }

    public var mediaPlayPauseButtonFrame: CGRect { CGRect(cells: AudioAttachmentRows.buttonFrame) }

    /// The first image attachment, once received.
    private var image: ImageView?

    /// The rows an image attachment takes.
    static let imageRows = 8

    public func didReceive(_ notification: UNNotification) {
        let attachment = notification.request.content.attachments.first {
            if case .image = $0.kind { true } else { false }
        }
        image = attachment.flatMap { UIImage(contentsOfFile: $0.url.path) }.map { image in
            var view = ImageView(image: image.picture, contentMode: .scaleAspectFit)
            view.maximumRows = Self.imageRows
            return view
        }
        audio.receive(notification)
        redraw()
    }

    /// The audio rows, then the image under them, in the flow: laid out at the card's width
    /// whenever it is drawn.
    private func redraw() {
        view.elements = audio.rows + (image.map { [$0] } ?? [])
    }

    public func mediaPlay() {
        audio.play()
    }

    public func mediaPause() {
        audio.pause()
    }
}

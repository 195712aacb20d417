// Photo's content extension, ported: the original (Seed.swift.txt, written for iOS) is the region
// between the seed-diff markers, compared line by line by Scripts/seed-diff (README.md holds the
// diff). Outside it: the storyboard's layout, the label over the image view.
// seed-diff: begin NotificationViewController.swift
import Notiplay

class NotificationViewController: TerminalViewController, UNNotificationContentExtension { // view

    var imageView = UIImageView(image: nil) { didSet { layOut() } } // view
    var titleLabel = LabelOutlet() { didSet { layOut() } } // view

    override func viewDidLoad() {
        super.viewDidLoad()
        // Do any required interface initialization here.
        imageView.contentMode = .scaleAspectFit
        let size = view.frame.size
        preferredContentSize = CGSize(width: size.width, height: size.width * 0.75)
    }

    func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        titleLabel.text = content.title

        if let attachment = content.attachments.first {
            if attachment.url.startAccessingSecurityScopedResource() {
                imageView.image = UIImage(contentsOfFile: attachment.url.path)
                attachment.url.stopAccessingSecurityScopedResource()
            }
        }
    }

    func didReceive(_ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {
        if response.actionIdentifier == "LIKE" {
            titleLabel.text = "❤️ " + (titleLabel.text ?? "")
            completion(.doNotDismiss)
        } else {
            completion(.dismissAndForwardAction)
        }
    }
}
// seed-diff: end

extension NotificationViewController {
    /// The storyboard: the title label, then the image view under it.
    func layOut() {
        view.elements = [Label(titleLabel.text ?? "", style: .bold), imageView]
    }
}

/// A storyboard label's outlet: its `text`, which the view draws.
struct LabelOutlet {
    /// The label's text.
    var text: String?
}

import Notiplay

/// Seed 002's content extension: the number the notification carries as `customNumber`, drawn
/// large. The article's `didReceive(_:)` is between the `seed-diff` markers, compared with
/// `Seed.swift.txt` by `Scripts/seed-diff` (README.md holds the diff); around it, the class of
/// Xcode's template, whose storyboard label (`@IBOutlet var label: UILabel?`, text size 96) is
/// drawn in the terminal.
final class NotificationViewController: TerminalViewController, UNNotificationContentExtension {
    /// The storyboard's label: its text, drawn in block digits.
    var label: String? { didSet { view.elements = BlockDigits.rows(label ?? "").map { Label($0, alignment: .center) } } }

    // seed-diff: begin didReceive
    func didReceive(_ notification: UNNotification) {
        if let number = notification.request.content.userInfo["customNumber"] as? Int {
            label = "\(number)" // view
        }
    }
    // seed-diff: end
}

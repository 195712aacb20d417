public import Notiplay

/// Seed 002's example: the whole number a notification carries in `userInfo["customNumber"]`,
/// drawn large, above the default content (title, subtitle, body). Built from Xcode's template,
/// so its `Info.plist` names `NSExtensionMainStoryboard` and it is registered under its bundle's
/// name, `CustomNumber`.
///
/// The seed reads `userInfo["customNumber"] as? Int` and leaves the label alone otherwise; here
/// a missing or unusable value shows a large `?` and a line saying what was found (a string, a
/// fraction, a number too large for an `Int`), so a bad payload is visible at a glance.
///
/// It handles no actions: every action goes on to the app, as iOS does for an extension without
/// `didReceive(_:completionHandler:)`.
public final class CustomNumberViewController: TerminalViewController, UNNotificationContentExtension {
    /// The payload key, as the seed names it.
    public nonisolated static let payloadKey = "customNumber"

    /// The number shown, when the payload had a usable one.
    private(set) var number: Int?

    /// Shows the notification (called on presentation and for each new notification of the thread).
    public func didReceive(_ notification: UNNotification) {
        let value = notification.request.content.jsonUserInfo[Self.payloadKey]
        let caption: any ViewElement
        if let value, let number = value.intValue {
            self.number = number
            caption = Label("customNumber", style: .dim, alignment: .center)
        } else {
            number = nil
            let why: String =
                switch value {
                case nil, .null?: "This notification has no customNumber."
                case .number(let d)? where d.isFinite && d == d.rounded():
                    "customNumber \(d) is too large for a whole number."
                case let value?: "customNumber is \(PayloadField.describe(value)), not a whole number."
                }
            caption = Paragraph(why, style: CellStyle(foreground: .yellow), maxLines: 2)
        }
        view.elements = [
            BlockNumber(number.map(String.init) ?? "?", style: CellStyle(foreground: number == nil ? .yellow : .standard, bold: true)),
            caption,
        ]
        // The placeholder's line may wrap onto a second row.
        preferredContentSize = CGSize(rows: BlockNumber.height + (number == nil ? 2 : 1))
    }
}

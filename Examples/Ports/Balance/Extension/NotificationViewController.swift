import Foundation
import Notiplay

/// Seed 004's content extension: a phone account's balance under three actions. `addBalance`
/// tops the account up by 500 ₽ asynchronously while the card stays (`.doNotDismiss`) and then
/// shows the new balance; `myPlan` and `showMore` open the app by its URL (`callProvider://`)
/// and close the card. `viewDidLoad` makes the view half as high as it is wide.
///
/// The article's fragments are between the `seed-diff` markers, compared with `Seed.swift.txt`
/// by `Scripts/seed-diff` (README.md holds the diff). Around them: the class of Xcode's template,
/// the method bodies' braces the article leaves out (it prints two declarations, and their
/// bodies apart), `addBalance()` and `openMainApplication()`, which it names without printing,
/// and the view, which it leaves to the storyboard.
final class NotificationViewController: TerminalViewController, UNNotificationContentExtension {
    /// The balance the card opens with, in kopecks.
    static let openingBalance = 42_50
    /// What `addBalance` adds, in kopecks.
    static let topUpAmount = 500_00

    /// The account at the operator.
    let account = OperatorAccount(kopecks: NotificationViewController.openingBalance)
    /// The balance shown, in kopecks.
    private(set) var balance = NotificationViewController.openingBalance { didSet { redraw() } }
    /// The line under the balance.
    private(set) var status = "Top up 500 ₽ without leaving the notification." { didSet { redraw() } }
    /// The top-up under way, if any (done once it has shown the new balance).
    private(set) var topUp: Task<Void, Never>?

    override func viewDidLoad() {
        super.viewDidLoad()
        // seed-diff: begin viewDidLoad
        let size = view.bounds.size
        preferredContentSize = CGSize(width: size.width, height: size.width / 2)
        // seed-diff: end
        redraw()
    }

    // seed-diff: begin didReceive-notification
    func didReceive(_ notification: UNNotification)
    // seed-diff: end
    {
        // "In this example, for simplicity, we will not implement it."
    }

    // seed-diff: begin didReceive-response
    func didReceive(_ response: UNNotificationResponse, completionHandler completion: (UNNotificationContentExtensionResponseOption) -> Swift.Void)
    // seed-diff: end
    {
        // seed-diff: begin switch
        switch response.actionIdentifier {
        case "addBalance":
            addBalance()
            completion(.doNotDismiss)
        case "myPlan":
            openMainApplication()
            completion(.dismiss)
        case "showMore":
            openMainApplication()
            completion(.dismiss)
        default:
            completion(.dismiss)
        }
        // seed-diff: end
    }

    /// "In our test application, we refill the account asynchronously": the card says a top-up
    /// is under way and shows the new balance once the operator has answered.
    func addBalance() {
        status = "Topping up 500 ₽…"
        topUp = Task {
            balance = await account.topUp(by: Self.topUpAmount)
            status = "Topped up 500 ₽."
        }
    }

    /// "For other actions, we are switching to the main application in the usual extension way
    /// (after registering the application URL scheme)".
    func openMainApplication() {
        // seed-diff: begin open-url
        if let url = URL(string: "callProvider://") {
            extensionContext?.open(url, completionHandler: nil)
        }
        // seed-diff: end
    }

    // MARK: The view (the article's storyboard)

    private func redraw() {
        view.elements = [
            Label("Balance", style: .bold),
            Label(Self.rubles(balance), style: CellStyle(foreground: .green, bold: true)),
            Label(status, style: .dim),
        ]
    }

    /// `542.50 ₽`.
    static func rubles(_ kopecks: Int) -> String {
        let cents = abs(kopecks) % 100
        return "\(kopecks < 0 ? "-" : "")\(abs(kopecks) / 100).\(cents < 10 ? "0" : "")\(cents) ₽"
    }
}

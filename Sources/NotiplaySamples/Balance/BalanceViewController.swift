public import Notiplay

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The phone-balance card of seed 004: the balance and three actions. `addBalance` tops the
/// account up by 500 right in the notification — asynchronously, while the card stays
/// (`.doNotDismiss`) and shows the balance change; `myPlan` opens the app on the plan
/// (`.dismissAndForwardAction`); `showMore` opens the app through the extension context's
/// `open(_:)` with the provider's URL (`callProvider://`) and closes the card (`.dismiss`), as the
/// seed's `openMainApplication()` does. Any other action closes the card.
///
/// It answers with Swift concurrency (``UNNotificationContentExtension``):
/// the answer to `addBalance` comes when the top-up is done.
///
/// Payload keys (`Samples/Balance/balance.apns`): `balance` (a number, the amount in the account,
/// at most a billion either way), `currency` (a short string; `₽` by default, as in the seed),
/// `account` (a short string shown beside the title). Without a usable balance the card says so,
/// and `addBalance` goes on to the app, which knows the account.
public final class BalanceViewController: TerminalViewController, UNNotificationContentExtension {
    /// Tops the balance up.
    public nonisolated static let addBalanceIdentifier = "addBalance"
    /// Opens the app on the plan.
    public nonisolated static let myPlanIdentifier = "myPlan"
    /// Opens the app's details screen.
    public nonisolated static let showMoreIdentifier = "showMore"
    /// What `addBalance` adds, in hundredths.
    public nonisolated static let topUpHundredths: Int64 = 500_00
    /// The app's URL scheme, opened by `showMore`.
    public nonisolated static let appURL = "callProvider://"
    /// The largest balance shown, in hundredths (a billion).
    nonisolated static let limit: Int64 = 1_000_000_000_00

    /// How long the simulated provider takes to top up.
    static let topUpDelay = Duration.milliseconds(400)
    /// The clock the simulated provider takes its time on; tests move a manual one by hand.
    static var topUpClock: any Clock<Duration> & Sendable = ContinuousClock()

    private enum Status: Equatable {
        case idle
        case toppingUp
        case toppedUp
        case failed(String)
    }

    /// The balance in hundredths, when the payload gave a usable one.
    private(set) var hundredths: Int64?
    private var currency = "₽"
    private var account = ""
    private var problem = ""
    private var status = Status.idle
    /// Top-ups under way.
    private var running = 0

    /// Shows the notification (called on presentation and for each new notification of the thread).
    public func didReceive(_ notification: UNNotification) {
        let info = notification.request.content.jsonUserInfo
        switch PayloadField.number(info, "balance", in: -1e9...1e9) {
        case .success(let amount):
            hundredths = Int64((amount * 100).rounded())
            problem = ""
        case .failure(.missing):
            hundredths = nil
            problem = "This notification carries no balance."
        case .failure(.unusable(let found)):
            hundredths = nil
            problem = "Its balance is \(found), not an amount."
        }
        if case .success(let symbol) = PayloadField.string(info, "currency", limit: 8) { currency = symbol }
        if case .success(let name) = PayloadField.string(info, "account", limit: 40) { account = name }
        status = .idle
        redraw()
    }

    /// Handles an action; returns when the card's fate is known (after the top-up for `addBalance`).
    public func didReceive(_ response: any UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption {
        switch response.actionIdentifier {
        case Self.addBalanceIdentifier:
            guard hundredths != nil else { return .dismissAndForwardAction }
            await addBalance()
            return .doNotDismiss
        case Self.myPlanIdentifier:
            return .dismissAndForwardAction
        case Self.showMoreIdentifier:
            openMainApplication()
            return .dismiss
        default:
            return .dismiss
        }
    }

    /// Tops the account up through the (simulated) provider; the card shows the new balance.
    private func addBalance() async {
        running += 1
        status = .toppingUp
        redraw()
        defer {
            running -= 1
            redraw()
        }
        do {
            try await Self.topUpClock.sleep(for: Self.topUpDelay)
        } catch {
            status = .failed("cancelled")
            return
        }
        guard let current = hundredths else { return }
        guard current <= Self.limit - Self.topUpHundredths else {
            status = .failed("the provider refuses balances over \(Self.money(Self.limit, currency))")
            return
        }
        hundredths = current + Self.topUpHundredths
        status = running > 1 ? .toppingUp : .toppedUp
    }

    private func openMainApplication() {
        if let url = URL(string: Self.appURL) { extensionContext?.open(url) }
    }

    // MARK: The view

    private func redraw() {
        var header = [TextSpan("Balance", style: .bold)]
        if !account.isEmpty { header.append(TextSpan("  " + account, style: .dim)) }
        var elements: [any ViewElement] = [Label(spans: header)]
        if let hundredths {
            let color: TerminalColor = hundredths < 0 ? .red : .green
            elements.append(Label(Self.money(hundredths, currency), style: CellStyle(foreground: color, bold: true)))
            let line: String
            switch status {
            case .idle: line = "Top up \(Self.money(Self.topUpHundredths, currency)) without leaving the notification."
            case .toppingUp: line = "Topping up \(Self.money(Self.topUpHundredths, currency))…"
            case .toppedUp: line = "Topped up \(Self.money(Self.topUpHundredths, currency))."
            case .failed(let why): line = "Top-up failed: \(why)."
            }
            elements.append(Label(line, style: .dim))
        } else {
            elements.append(Label("Balance unavailable", style: CellStyle(foreground: .yellow, bold: true)))
            elements.append(Label(problem, style: .dim))
        }
        view.elements = elements
        preferredContentSize = CGSize(rows: elements.count)
    }

    /// `1 234.50 ₽`: hundredths as an amount, thousands grouped by spaces, then the currency.
    static func money(_ hundredths: Int64, _ currency: String) -> String {
        let negative = hundredths < 0
        let magnitude = hundredths.magnitude
        let whole = String(magnitude / 100)
        let cents = magnitude % 100
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(" ") }
            grouped.append(digit)
        }
        return "\(negative ? "-" : "")\(grouped).\(cents < 10 ? "0" : "")\(cents) \(currency)"
    }
}

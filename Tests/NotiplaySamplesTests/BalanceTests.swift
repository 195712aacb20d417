import NotiplayCore
import Foundation
import Notiplay
import NotiplayTestSupport
import Synchronization
import Testing

@testable import NotiplaySamples

extension RealEngine {
    /// The top-up takes its time on a manual clock, moved by the tests: one test at a time, since the
    /// sample's clock is one for the process.
    @MainActor
    @Suite("Balance (seed 004): an async top-up that keeps the card, and two ways to the app", .serialized)
    struct BalanceTests {
        let clock = ManualClock()

        init() {
            BalanceViewController.topUpClock = clock
        }

        /// Waits until `count` top-ups sleep on the clock: under way, not finished. A hang guard
        /// of 30 s (the clock's own wait has none).
        func topUpsUnderWay(_ count: Int) async throws {
            let clock = self.clock
            let once = Once()
            let arrived = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Task {
                    await clock.waitForSleepers(count)
                    if once.claim() { continuation.resume(returning: true) }
                }
                Task {
                    try? await Task.sleep(for: .seconds(30))
                    if once.claim() { continuation.resume(returning: false) }
                }
            }
            try #require(arrived, "\(count) top-up(s) never began (\(clock.sleepers) under way)")
        }

        @Test("didReceive shows the balance, the account and the offer; the three actions of the app file")
        func showsTheBalance() async throws {
            try await SampleCard.run("Balance") { card in
                let controller = try await card.present("balance.apns")
                #expect(controller is BalanceViewController)
                #expect(card.events("didReceive").first?.string("extension") == "Balance")
                let text = card.text
                #expect(text.contains("Balance  +7 900 123-45-67"), "\(text)")
                #expect(text.contains("42.50 ₽"), "\(text)")
                #expect(text.contains("Top up 500.00 ₽ without leaving the notification."), "\(text)")
                #expect(text.contains("1 Show more  2 Top up 500 ₽  3 My plan"), "\(text)")
                #expect(card.actions == ["showMore", "addBalance", "myPlan"])
            }
        }

        @Test("addBalance: the card shows the top-up under way, then the new balance; the answer is .doNotDismiss")
        func addBalanceIsAsynchronous() async throws {
            try await SampleCard.run("Balance") { card in
                try await card.present("balance.apns")
                let mark = card.mark
                card.session.handle(.action(2))
                // The work has started and not finished: no answer yet, the card says so.
                try await topUpsUnderWay(1)
                #expect(card.text.contains("Topping up 500.00 ₽…"), "\(card.text)")
                #expect(card.session.awaitsResponse)
                #expect(card.events("response", since: mark).isEmpty)
                #expect(card.text.contains("42.50 ₽"))
                clock.advance(by: BalanceViewController.topUpDelay - .milliseconds(1))
                #expect(clock.sleepers == 1, "the top-up takes its time")
                clock.advance(by: .milliseconds(1))
                let response = try await card.response(to: "addBalance", since: mark)
                #expect(response.string("option") == "doNotDismiss")
                #expect(!card.session.isDismissed && !card.session.awaitsResponse)
                #expect(card.text.contains("542.50 ₽") && card.text.contains("Topped up 500.00 ₽."), "\(card.text)")

                // Twice in a row: both counted, the card says done only when both are.
                let again = card.mark
                card.session.handle(.action(2))
                card.session.handle(.action(2))
                try await topUpsUnderWay(2)
                #expect(card.text.contains("Topping up"), "\(card.text)")
                clock.advance(by: BalanceViewController.topUpDelay)
                try await card.wait(for: "two responses", since: again) { _ in
                    card.events("response", since: again).count == 2
                }
                #expect(card.events("response", since: again).allSatisfy { $0.string("option") == "doNotDismiss" })
                #expect(card.text.contains("1 542.50 ₽") && card.text.contains("Topped up"), "\(card.text)")
                #expect(card.names(since: again).filter { $0 == "forwarded" || $0 == "dismissed" }.isEmpty)
            }
        }

        @Test("myPlan goes on to the app (.dismissAndForwardAction); showMore opens the app's URL and closes the card")
        func otherActions() async throws {
            try await SampleCard.run("Balance") { card in
                try await card.present("balance.apns")
                let mark = card.mark
                card.session.handle(.actionNamed("myPlan"))
                #expect(try await card.response(to: "myPlan", since: mark).string("option") == "dismissAndForwardAction")
                #expect(card.names(since: mark) == ["action", "response", "forwarded", "dismissed"])
                #expect(card.events("forwarded", since: mark).first?.string("action") == "myPlan")
            }
            try await SampleCard.run("Balance") { card in
                try await card.present("balance.apns")
                let mark = card.mark
                card.session.handle(.action(1))
                #expect(try await card.response(to: "showMore", since: mark).string("option") == "dismiss")
                #expect(card.names(since: mark) == ["action", "forwarded", "response", "dismissed"])
                let forwarded = try #require(card.events("forwarded", since: mark).first)
                #expect(forwarded.string("action") == "openURL" && forwarded.string("url") == "callProvider://")
            }
        }

        @Test("A bad payload: 'Balance unavailable', escape sequences cleaned, addBalance left to the app")
        func badPayload() async throws {
            try await SampleCard.run("Balance") { card in
                try await card.present("balance-bad.apns")
                let text = card.text
                #expect(text.contains("Balance unavailable"), "\(text)")
                #expect(text.contains("Its balance is the string \"quite low\", not an amount."), "\(text)")
                #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "\(text)")
                #expect(text.contains("+7 900 123-45-67"), "\(text)")
                let mark = card.mark
                card.session.handle(.actionNamed("addBalance"))
                #expect(try await card.response(to: "addBalance", since: mark).string("option") == "dismissAndForwardAction")
                #expect(card.session.isDismissed)
            }
        }

        @Test("Absurd balances: out of range refused, the provider's ceiling reported, negatives in red")
        func absurdBalances() async throws {
            try await SampleCard.run("Balance") { card in
                for value in [JSONValue.number(1e300), .number(-2e9), .array([.integer(1)]), .null, .bool(true)] {
                    let content = UNMutableNotificationContent()
                    content.categoryIdentifier = "balance"
                    content.jsonUserInfo = JSONObject([("balance", value), ("currency", .string(String(repeating: "€", count: 50)))])
                    try card.present(content)
                    #expect(card.text.contains("Balance unavailable"), "\(value): \(card.text)")
                }
                let content = UNMutableNotificationContent()
                content.categoryIdentifier = "balance"
                content.jsonUserInfo = JSONObject([("balance", .number(999_999_900)), ("currency", .string("$"))])
                try card.present(content)
                #expect(card.text.contains("999 999 900.00 $"), "\(card.text)")
                let mark = card.mark
                card.session.handle(.actionNamed("addBalance"))
                try await topUpsUnderWay(1)
                clock.advance(by: BalanceViewController.topUpDelay)
                #expect(try await card.response(to: "addBalance", since: mark).string("option") == "doNotDismiss")
                #expect(card.text.contains("Top-up failed") && card.text.contains("999 999 900.00 $"), "\(card.text)")

                content.jsonUserInfo = JSONObject([("balance", .integer(-12))])
                try card.present(content)
                #expect(card.text.contains("-12.00 ₽"), "\(card.text)")
            }
            #expect(BalanceViewController.money(123_456_789, "₽") == "1 234 567.89 ₽")
            #expect(BalanceViewController.money(-5, "₽") == "-0.05 ₽")
            #expect(BalanceViewController.money(0, "$") == "0.00 $")
        }
    }
}

/// True for the first caller of ``claim()`` only.
final class Once: Sendable {
    private let claimed = Mutex(false)

    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}

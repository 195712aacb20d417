@testable import BalanceContent
import Foundation
import Notiplay
import NotiplayTesting
import Testing

/// Seed 004's extension presented by the test host, with its Info.plist and app file.
@MainActor
@Suite("Seed 004: the balance top-up")
struct BalanceTests {
    static let folder = Ports.folder("Balance")
    let presented = Presented<NotificationViewController>()

    func host() throws -> NotificationTestHost {
        var types = ExtensionTypes()
        presented.register(in: &types, as: "BalanceContent") { NotificationViewController() }
        return try NotificationTestHost(app: "\(Self.folder)/Balance.app.json", types: types)
    }

    @Test("viewDidLoad makes the view half as high as it is wide")
    func halfAsHighAsWide() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/balance.apns")
        let controller = try #require(presented.last)
        let bounds = controller.view.bounds
        #expect(bounds.width > 0)
        #expect(controller.preferredContentSize == CGSize(width: bounds.width, height: bounds.width / 2))
        // The default content is hidden: the card is the view's lines, then the actions.
        #expect(!host.screen().contains("Low balance"))
        await host.close()
    }

    @Test("addBalance keeps the card (.doNotDismiss) and shows the new balance once the top-up is done")
    func addBalanceKeepsTheCard() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/balance.apns")
        #expect(Ports.lines(host.screen())[1...3] == ["Balance", "42.50 ₽", "Top up 500 ₽ without leaving the notification."])
        try host.action("addBalance")
        #expect(try await host.wait(until: "response").string("option") == "doNotDismiss")
        #expect(!host.isDismissed)
        let controller = try #require(presented.last)
        await controller.topUp?.value
        #expect(Ports.lines(host.screen())[1...3] == ["Balance", "542.50 ₽", "Topped up 500 ₽."])
        #expect(await controller.account.kopecks == 542_50)
        #expect(host.events(named: "forwarded").isEmpty)
        await host.close()
    }

    @Test("myPlan and showMore open the app by its URL and close the card", arguments: ["myPlan", "showMore"])
    func opensTheApp(action: String) async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/balance.apns")
        try host.action(action)
        try await host.wait(until: "dismissed")
        #expect(host.events(named: "response").map { $0.string("option") } == ["dismiss"])
        #expect(host.events(named: "forwarded").map { $0.string("url") } == ["callProvider://"])
        await host.close()
    }

    @Test("Any other action closes the card")
    func otherActions() {
        let controller = NotificationViewController()
        let content = UNMutableNotificationContent()
        content.categoryIdentifier = "balance"
        let notification = UNNotification(request: UNNotificationRequest(identifier: "b", content: content, trigger: nil), date: Date())
        var options: [UNNotificationContentExtensionResponseOption] = []
        controller.didReceive(UNNotificationActionResponse(notification: notification, actionIdentifier: "other")) { options.append($0) }
        #expect(options == [.dismiss])
        #expect(NotificationViewController.rubles(-5) == "-0.05 ₽")
    }
}

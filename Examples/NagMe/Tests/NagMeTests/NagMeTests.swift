import NagMe
import NotiplayCommandLine
import Testing

/// The extension tested on its own, as an iOS author would unit-test a view controller.
@MainActor
@Suite("NagMe's content extension")
struct NagMeTests {
    let notification: UNNotification = {
        let content = UNMutableNotificationContent()
        content.title = "NagMe"
        content.body = "Water the plants"
        content.categoryIdentifier = "reminder"
        return UNNotification(
            request: UNNotificationRequest(identifier: "r1", content: content, trigger: nil), date: .now)
    }()

    @Test("shows the reminder with a speaker")
    func showsReminder() {
        let controller = NotificationViewController()
        controller.didReceive(notification)
        #expect(controller.view.lines == ["Reminder: Water the plants  🔊"])
    }

    @Test("cancel mutes the speaker and keeps the card; other actions close it")
    func cancelKeepsTheCard() {
        let controller = NotificationViewController()
        controller.didReceive(notification)
        var options: [UNNotificationContentExtensionResponseOption] = []
        controller.didReceive(UNNotificationActionResponse(notification: notification, actionIdentifier: "cancel")) {
            options.append($0)
        }
        controller.didReceive(UNNotificationActionResponse(notification: notification, actionIdentifier: "snooze")) {
            options.append($0)
        }
        #expect(options == [.doNotDismiss, .dismiss])
        #expect(controller.view.lines == ["Reminder: Water the plants  🔇"])
    }

    @Test("the tool's command line knows the extension type")
    func commandLineKnowsTheType() async {
        var types = ExtensionTypes()
        NagMeExtensions.register(in: &types)
        #expect(types.factory(for: "NagMe.NotificationViewController") != nil)
        // notiplay's own Media/Extensions holds NagMe.appex, whose class is this type.
        let extensions = #filePath.split(separator: "/").dropLast(5).joined(separator: "/")
        #expect(await NotiplayCLI.run(["deliver", "/\(extensions)/Media/nagme.apns", "--extensions", "/\(extensions)/Media/Extensions",
                                       "--headless", "--keys", "1", "--audio", "null"], types: types) == 0)
        #expect(await NotiplayCLI.run(["deliver", "/\(extensions)/Media/nagme.apns", "--extensions", "/\(extensions)/Media/Extensions",
                                       "--headless", "--audio", "null"], types: ExtensionTypes()) == 65)
    }
}

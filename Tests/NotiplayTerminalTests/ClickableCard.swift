import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import NotiplayViews

/// An extension with a media button at the start of its view and two buttons of its own, which
/// record their titles.
final class ClickableExtension: TerminalViewController, UNNotificationContentExtension {
    var pressed: [String] = []
    var calls: [String] = []
    let mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 0, y: 0, width: 3, height: 1))

    func didReceive(_ notification: UNNotification) {
        view.elements = [
            Label("    Water the plants"),
            Button("Snooze") { [weak self] in self?.pressed.append("Snooze") },
            Button("Done") { [weak self] in self?.pressed.append("Done") },
        ]
    }

    func mediaPlay() {
        calls.append("mediaPlay")
        extensionContext?.mediaPlayingStarted()
    }

    func mediaPause() {
        calls.append("mediaPause")
        extensionContext?.mediaPlayingPaused()
    }
}

/// A session presenting a notification to ``ClickableExtension``, whose manifest enables user
/// interaction as `interaction` says; its category has one action, "Later".
@MainActor
func clickableSession(interaction: Bool) throws -> (PresentationSession, ClickableExtension) {
    var types = ExtensionTypes()
    types.register(ClickableExtension.self, as: "Test.ClickableExtension")
    let manifest = ExtensionManifest(
        bundleName: "Clickable", path: "Clickable.appex/Info.plist", point: .content, principalClass: "Test.ClickableExtension",
        mainStoryboard: nil, typeName: "Test.ClickableExtension", bundleIdentifier: nil, displayName: nil, categories: ["test"],
        initialContentSizeRatio: 0, defaultContentHidden: true, overridesDefaultTitle: false,
        userInteractionEnabled: interaction, warnings: [])
    let category = UNNotificationCategory(identifier: "test", actions: [UNNotificationAction(identifier: "later", title: "Later")], options: [])
    let app = AppDefinition(name: "Clickable", categories: [category], extensionsDirectory: nil, forwardedActions: .printOnly)
    let session = PresentationSession(app: app, registry: try ExtensionRegistry([manifest]), types: types, engine: FakeEngine())
    let content = UNMutableNotificationContent()
    content.categoryIdentifier = "test"
    try session.present(UNNotification(request: UNNotificationRequest(identifier: "n1", content: content, trigger: nil), date: Date()))
    return (session, session.controller as! ClickableExtension)
}

extension PresentationSession {
    /// Waits for an event named `name` (the first, if one was recorded already); `nil` after the
    /// limit, a hang guard.
    func waitFor(_ name: String, count: Int = 1) async -> Bool {
        while log.events(named: name).count < count {
            guard await log.next(timeout: .seconds(30), where: { $0.name == name }) != nil else { return false }
        }
        return true
    }
}

import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCore
import NotiplayTestSupport
import Testing

/// A notification whose content extension crashed is remembered by the store: restored after a
/// restart, it is shown with the default card and the line saying why, never by that extension.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct CenterCrashMarkTests {
    final class Marked: TerminalViewController, UNNotificationContentExtension {
        required init() {}
        func didReceive(_ notification: UNNotification) { view.setText("marked") }
    }

    let folder: String
    let engine = FakeEngine()

    init() throws {
        folder = try TestMedia.scratch().appendingPathComponent("store").path
    }

    func center() throws -> CenterService {
        let manifest = ExtensionManifest(
            bundleName: "Marked", path: "Marked.appex/Info.plist", point: .content, principalClass: "Test.Marked",
            mainStoryboard: nil, typeName: "Test.Marked", bundleIdentifier: nil, displayName: nil, categories: ["x"],
            initialContentSizeRatio: 0.1, defaultContentHidden: false, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        let app = CenterService.App(
            definition: AppDefinition(name: "App", categories: [], extensionsDirectory: nil, forwardedActions: .printOnly),
            registry: try ExtensionRegistry([manifest]))
        var types = ExtensionTypes()
        types.register(Marked.self, as: "Test.Marked")
        return CenterService(store: try CenterStore.open(folder: folder), apps: [app], types: types, engine: engine)
    }

    static func incoming(_ id: String) -> IncomingNotification {
        IncomingNotification(
            identifier: id, app: "App", payload: "{\"aps\":{\"alert\":{\"title\":\"\(id)\"},\"category\":\"x\"}}",
            categoryIdentifier: "x")
    }

    static func presenter(_ service: CenterService) -> String? {
        (service.shownSession as? PresentationSession)?.log.events(named: "didReceive").last?.string("extension")
    }

    @Test("Marked crashed, a restored notification shows with the default card and the line; another one with its extension")
    func restoredWithTheDefaultCard() async throws {
        let first = try center()
        _ = try first.receive(Self.incoming("a"))
        #expect(Self.presenter(first) == "Marked")
        #expect(try first.store.markCrashed("a", extension: "Marked"))
        #expect(try first.store.markCrashed("gone", extension: "Marked") == false)
        await first.close()
        try first.store.close()

        let again = try center()
        try again.restore()
        #expect(Self.presenter(again) == DefaultContentExtension.typeName)
        #expect(again.shownNotice == "Marked.appex crashed while presenting this notification: shown with the default card")
        _ = try again.receive(Self.incoming("b"))
        #expect(Self.presenter(again) == "Marked", "an unmarked notification is its extension's")
        await again.close()
        try again.store.close()
    }
}

import Foundation
import Notiplay
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import NotiplayViews
import Testing

/// An iOS content extension's template code, as it reads in Swift: the view's frame, a
/// preferred size from it, a label given a frame.
final class FrameTemplateExtension: TerminalViewController, UNNotificationContentExtension {
    var label = Label("")
    var frameAtLoad = CGRect.zero
    var frameAfterSize = CGRect.zero

    override func viewDidLoad() {
        super.viewDidLoad()
        frameAtLoad = view.frame
        self.preferredContentSize = CGSize(width: view.frame.width, height: 64)
        frameAfterSize = view.frame
        label.frame = CGRect(x: 16, y: 16, width: view.frame.width - 32, height: 32)
    }

    func didReceive(_ notification: UNNotification) {
        label.spans = [TextSpan(notification.request.content.title)]
        view.elements = [Label("flow"), label]
    }
}

@MainActor
@Suite("frame: iOS's UIView.frame in points, for the view and its elements")
struct ViewFrameTests {
    let engine = FakeEngine.scripted()

    func session() throws -> PresentationSession {
        var types = ExtensionTypes()
        types.register(FrameTemplateExtension.self, as: "Test.FrameTemplateExtension")
        let manifest = ExtensionManifest(
            bundleName: "Test", path: "Test.appex/Info.plist", point: .content, principalClass: "Test.FrameTemplateExtension",
            mainStoryboard: nil, typeName: "Test.FrameTemplateExtension", bundleIdentifier: nil, displayName: nil,
            categories: ["test"], initialContentSizeRatio: 0.5, defaultContentHidden: true, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        let app = AppDefinition(
            name: "Test", categories: [UNNotificationCategory(identifier: "test", actions: [], intentIdentifiers: [])],
            extensionsDirectory: nil, forwardedActions: .init(print: true, command: nil))
        return PresentationSession(app: app, registry: try ExtensionRegistry([manifest]), types: types, engine: engine)
    }

    func notification() -> UNNotification {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.categoryIdentifier = "test"
        return UNNotification(request: UNNotificationRequest(identifier: "n1", content: content, trigger: nil), date: Date())
    }

    @Test("The view's frame is where the runtime laid it out: at the origin, the content's width, the rows' height")
    func viewFrameAfterLayout() throws {
        let s = try session()
        try s.present(notification())
        let controller = try #require(s.controller as? FrameTemplateExtension)
        // 80 columns less the card's edges: 76 columns of 8 points; ratio 0.5 of the width.
        #expect(controller.frameAtLoad == CGRect(x: 0, y: 0, width: 608, height: 304))
        // The preferred size lays the view out again: 64 points, 4 rows.
        #expect(controller.frameAfterSize == CGRect(x: 0, y: 0, width: 608, height: 64))
        #expect(s.card().preferredRows == 4)
        s.layoutWidth = 44
        #expect(controller.view.frame == CGRect(x: 0, y: 0, width: 320, height: 64))
        #expect(controller.view.frame == CGRect(origin: .zero, size: controller.view.bounds.size))
    }

    @Test("Setting the view's frame moves and resizes it as UIKit does: origin there, bounds' size follows")
    func setViewFrame() throws {
        let s = try session()
        try s.present(notification())
        let view = try #require(s.controller).view
        view.frame = CGRect(x: 8, y: 16, width: 100, height: 50)
        #expect(view.frame == CGRect(x: 8, y: 16, width: 100, height: 50))
        #expect(view.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        s.layoutWidth = 60  // the runtime lays it out again
        #expect(view.frame == CGRect(x: 0, y: 0, width: 448, height: 64))
    }

    @Test("An element's frame reads back as set, and draws it at the cells it covers")
    func elementFrame() throws {
        let s = try session()
        try s.present(notification())
        let controller = try #require(s.controller as? FrameTemplateExtension)
        #expect(controller.label.frame == CGRect(x: 16, y: 16, width: 576, height: 32))
        #expect(Label("no frame").frame == .zero)
        let lines = CardLayout.render(s.card(), width: 80).lines
        // The card's edge and a space, then the view: "flow" in the flow, "Hello" at column 2, row 1.
        #expect(lines[1].hasPrefix("│ flow"))
        #expect(lines[2].hasPrefix("│   Hello"))
        #expect(lines.count == 1 + 4 + 1)
    }
}

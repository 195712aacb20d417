import Foundation
import Notiplay
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import NotiplayViews
import Testing

// Extensions declared as an iOS author declares them: one protocol, the optional members written
// or left out, Apple's types for geometry and colour.

/// Apple's declaration, with a media button and a response handler.
final class AppleDeclaredExtension: TerminalViewController, UNNotificationContentExtension {
    var lifecycle: [String] = []
    var boundsAtLoad: CGRect?
    var responses: [String] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        lifecycle.append("viewDidLoad")
        boundsAtLoad = view.bounds
        // Seed 004: half as high as wide.
        let size = view.bounds.size
        preferredContentSize = CGSize(width: size.width, height: size.width / 2)
    }

    override func viewWillAppear(_ animated: Bool) { lifecycle.append("viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { lifecycle.append("viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { lifecycle.append("viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { lifecycle.append("viewDidDisappear") }

    func didReceive(_ notification: UNNotification) {
        lifecycle.append("didReceive")
    }

    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .default }

    var mediaPlayPauseButtonFrame: CGRect { CGRect(x: 20, y: 18, width: 24, height: 10) }

    var mediaPlayPauseButtonTintColor: UIColor { .systemOrange }

    func mediaPlay() { lifecycle.append("mediaPlay") }

    func mediaPause() { lifecycle.append("mediaPause") }

    // Swift 3's signature, as seed 004 writes it: a non-escaping handler still counts.
    func didReceive(_ response: any UNNotificationResponse, completionHandler completion: (UNNotificationContentExtensionResponseOption) -> Void) {
        responses.append(response.actionIdentifier)
        completion(.doNotDismiss)
    }
}

/// Apple's declaration with only the required member.
final class BareExtension: TerminalViewController, UNNotificationContentExtension {
    func didReceive(_ notification: UNNotification) {}
}

/// A frame in cells, as the API had it before: Swift takes it as the class's own property, the
/// protocol's default (an empty frame) applies.
final class CellFrameExtension: TerminalViewController, UNNotificationContentExtension {
    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .default }
    var mediaPlayPauseButtonFrame: Rect { Rect(x: 0, y: 0, width: 2, height: 1) }

    func didReceive(_ notification: UNNotification) {
        extensionContext?.mediaPlayingStarted()
    }
}

/// Opens a URL through its context, as seed 004 does.
final class OpeningExtension: TerminalViewController, UNNotificationContentExtension {
    var opened: [Bool] = []

    func didReceive(_ notification: UNNotification) {}

    func didReceive(_ response: any UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {
        if let url = URL(string: "callProvider://") {
            extensionContext?.open(url, completionHandler: { self.opened.append($0) })
        }
        completion(.dismiss)
    }
}

@MainActor
@Suite("Porting: one protocol with Apple's defaults, the view's life, points and colours")
struct PortingFidelityTests {
    let engine = FakeEngine.scripted()

    func session(_ typeName: String, ratio: Double = 0.5) throws -> PresentationSession {
        var types = ExtensionTypes()
        types.register(AppleDeclaredExtension.self, as: "Test.AppleDeclaredExtension")
        types.register(BareExtension.self, as: "Test.BareExtension")
        types.register(OpeningExtension.self, as: "Test.OpeningExtension")
        types.register(CellFrameExtension.self, as: "Test.CellFrameExtension")
        let manifest = ExtensionManifest(
            bundleName: "Test", path: "Test.appex/Info.plist", point: .content, principalClass: typeName,
            mainStoryboard: nil, typeName: typeName, bundleIdentifier: nil, displayName: nil, categories: ["test"],
            initialContentSizeRatio: ratio, defaultContentHidden: false, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        let category = UNNotificationCategory(
            identifier: "test", actions: [UNNotificationAction(identifier: "done", title: "Done")], intentIdentifiers: [])
        let app = AppDefinition(
            name: "Test", categories: [category], extensionsDirectory: nil, forwardedActions: .init(print: true, command: nil))
        return PresentationSession(app: app, registry: try ExtensionRegistry([manifest]), types: types, engine: engine)
    }

    func notification(_ identifier: String = "n1") -> UNNotification {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.categoryIdentifier = "test"
        return UNNotification(request: UNNotificationRequest(identifier: identifier, content: content, trigger: nil), date: Date())
    }

    @Test("A class declared as Apple's with a button and a response handler gets its button and its responses")
    func appleDeclaration() throws {
        let s = try session("Test.AppleDeclaredExtension")
        try s.present(notification())
        #expect(s.buttonType == .default)
        #expect(s.buttonState == .play)
        s.layoutWidth = 60
        let card = s.card()
        // x 20…44 pt → columns 2…6 (5 wide); y 18…28 pt → row 1 (1 high).
        #expect(card.buttonFrame == Rect(x: 2, y: 1, width: 4, height: 1))
        #expect(card.buttonTint == .palette(208))
        s.handle(.media)
        #expect((s.controller as? AppleDeclaredExtension)?.lifecycle.last == "mediaPlay")
        s.handle(.action(1))
        #expect((s.controller as? AppleDeclaredExtension)?.responses == ["done"])
        #expect(s.log.events(named: "response").map { $0.string("option") } == ["doNotDismiss"])
        #expect(s.log.events(named: "forwarded").isEmpty)
        #expect(!s.isDismissed)
    }

    @Test("One that implements neither gets no button, and its actions go to the app and close the card")
    func bareDeclaration() throws {
        let s = try session("Test.BareExtension")
        try s.present(notification())
        #expect(s.buttonType == .none)
        #expect(s.buttonState == .none)
        s.handle(.media)
        #expect(s.log.events(named: "mediaPlay").isEmpty)
        s.handle(.action(1))
        #expect(s.log.events(named: "forwarded").map { $0.string("action") } == ["done"])
        #expect(s.log.events(named: "dismissed").map { $0.string("reason") } == ["forwarded"])
        #expect(s.log.events(named: "response").isEmpty)
        #expect(s.isDismissed)
    }

    @Test("A member of another type is not the protocol's: no button, and the error names what to check")
    func mistypedMember() throws {
        let s = try session("Test.CellFrameExtension")
        try s.present(notification())
        #expect(s.buttonType == .none)
        let message = s.log.events(named: "error").first?.string("message") ?? ""
        #expect(message.contains("mediaPlayingStarted() ignored"))
        #expect(message.contains("var mediaPlayPauseButtonFrame: CGRect"))
    }

    @Test("viewDidLoad runs once, with the bounds set, before didReceive; the view hears it appear and disappear")
    func viewLifecycle() throws {
        let s = try session("Test.AppleDeclaredExtension")
        try s.present(notification())
        let controller = try #require(s.controller as? AppleDeclaredExtension)
        // The default width (80 columns) less the frame: 76 columns of 8 points; ratio 0.5.
        #expect(controller.boundsAtLoad == CGRect(x: 0, y: 0, width: 608, height: 304))
        #expect(controller.lifecycle == ["viewDidLoad", "didReceive", "viewWillAppear", "viewDidAppear"])
        // Seed 004's viewDidLoad: half the width high, 304 points → 19 rows, what ratio 0.5 gives.
        #expect(s.card().preferredRows == 19)
        try s.present(notification("n2"))
        #expect(controller.lifecycle.suffix(2) == ["viewWillDisappear", "viewDidDisappear"])
        #expect(controller.lifecycle.filter { $0 == "viewDidLoad" }.count == 1)
    }

    @Test("The bounds follow the card's width")
    func boundsFollowWidth() throws {
        let s = try session("Test.BareExtension", ratio: 0.25)
        try s.present(notification())
        s.layoutWidth = 84
        #expect(s.controller?.view.bounds == CGRect(x: 0, y: 0, width: 640, height: 160))
    }

    @Test("open(_:completionHandler:) passes the URL to the app and says so")
    func openURL() throws {
        let s = try session("Test.OpeningExtension")
        try s.present(notification())
        s.handle(.action(1))
        #expect((s.controller as? OpeningExtension)?.opened == [true])
        #expect(s.log.events(named: "forwarded").map { $0.string("url") } == ["callProvider://"])
        var late: [Bool] = []
        s.controller?.extensionContext?.open(URL(string: "callProvider://again")!) { late.append($0) }
        #expect(late == [false])
    }

    @Test("Points map to cells: origins round down, far edges up; sizes to the nearest row")
    func pointsToCells() {
        #expect(Rect(points: CGRect(x: 0, y: 0, width: 16, height: 16)) == Rect(x: 0, y: 0, width: 2, height: 1))
        #expect(Rect(points: CGRect(x: 7, y: 15, width: 2, height: 2)) == Rect(x: 0, y: 0, width: 2, height: 2))
        #expect(Rect(points: CGRect(x: 0, y: 0, width: 0.5, height: 0.5)) == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(Rect(points: .zero).isEmpty)
        #expect(Rect(points: CGRect(x: 0, y: 0, width: 10, height: 0)).isEmpty)
        #expect(Rect(points: .infinite).isEmpty)
        #expect(Rect(points: CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)).isEmpty)
        #expect(Rect(points: CGRect(x: 0, y: 0, width: 1e300, height: 10)).isEmpty)
        #expect(CGRect(cells: Rect(x: 1, y: 2, width: 3, height: 1)) == CGRect(x: 8, y: 32, width: 24, height: 16))
        #expect(Rect(points: CGRect(cells: Rect(x: 1, y: 2, width: 3, height: 1))) == Rect(x: 1, y: 2, width: 3, height: 1))
        #expect(CGSize(rows: 3).height == 48)
    }

    @Test("UIColor's named colours and components map to terminal colours")
    func colours() {
        #expect(UIColor.red.terminalColor == .red)
        #expect(UIColor.systemBlue.terminalColor == .systemTint)
        #expect(UIColor.label.terminalColor == .standard)
        #expect(UIColor(red: 1, green: 0.5, blue: 0, alpha: 1).terminalColor == .rgb(255, 128, 0))
        #expect(UIColor(red: 2, green: -1, blue: .nan, alpha: 1).terminalColor == .rgb(255, 0, 0))
        #expect(UIColor(white: 0.5, alpha: 1).terminalColor == .rgb(128, 128, 128))
    }

    @Test("Attachment URLs can be opened as on iOS: start returns true for a file, stop does nothing")
    func securityScopedURLs() {
        let file = URL(fileURLWithPath: "/tmp/a.wav")
        #expect(file.startAccessingSecurityScopedResource())
        file.stopAccessingSecurityScopedResource()
        #expect(!URL(string: "https://example.com/a.wav")!.startAccessingSecurityScopedResource())
    }
}

import Foundation
import Notiplay
import NotiplayCore
import NotiplayTestSupport
import NotiplayViews
import Testing

/// An extension that shows its image attachment as iOS code does.
final class ImageAttachmentExtension: TerminalViewController, UNNotificationContentExtension {
    func didReceive(_ notification: UNNotification) {
        guard let attachment = notification.request.content.attachments.first,
            let image = UIImage(contentsOfFile: attachment.url.path)
        else { return }
        var imageView = UIImageView(image: image)
        imageView.contentMode = .scaleAspectFit
        imageView.frame = CGRect(x: 0, y: 0, width: view.frame.width, height: 64)
        view.elements = [imageView]
    }
}

@Suite("UIImage and UIImageView: images from files and data, shown as pictures or their stand-ins")
struct UIImageTests {
    @Test("UIImage(contentsOfFile:) and UIImage(data:) take a PNG or JPEG; anything else is nil")
    func loading() throws {
        let folder = try TestMedia.scratch()
        let png = folder.appendingPathComponent("photo.png")
        try Data(TestImages.png(width: 640, height: 480)).write(to: png)
        let image = try #require(UIImage(contentsOfFile: png.path))
        #expect(image.size == CGSize(width: 640, height: 480))
        #expect(UIImage(data: Data(TestImages.jpeg(width: 3, height: 2)))?.size == CGSize(width: 3, height: 2))

        let text = folder.appendingPathComponent("fake.png")
        try Data("not a png".utf8).write(to: text)
        #expect(UIImage(contentsOfFile: text.path) == nil)
        #expect(UIImage(contentsOfFile: folder.appendingPathComponent("missing.png").path) == nil)
        #expect(UIImage(contentsOfFile: folder.path) == nil)  // a folder
        let big = folder.appendingPathComponent("big.png")
        try Data(TestImages.png(width: 1, height: 1) + [UInt8](repeating: 0, count: 10 * 1_048_576)).write(to: big)
        #expect(UIImage(contentsOfFile: big.path) == nil)
        #expect(UIImage(data: Data()) == nil)
    }

    @MainActor
    @Test("An extension's image view of its attachment: the stand-in on the card, and the picture placed over it")
    func attachmentOnCard() throws {
        let folder = try TestMedia.scratch()
        let png = folder.appendingPathComponent("photo.png")
        try Data(TestImages.png(width: 640, height: 480)).write(to: png)
        var types = ExtensionTypes()
        types.register(ImageAttachmentExtension.self, as: "Test.ImageAttachmentExtension")
        let manifest = ExtensionManifest(
            bundleName: "Test", path: "Test.appex/Info.plist", point: .content, principalClass: "Test.ImageAttachmentExtension",
            mainStoryboard: nil, typeName: "Test.ImageAttachmentExtension", bundleIdentifier: nil, displayName: nil,
            categories: ["photo"], initialContentSizeRatio: 0, defaultContentHidden: true, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        let app = AppDefinition(
            name: "Photos", categories: [UNNotificationCategory(identifier: "photo", actions: [], intentIdentifiers: [])],
            extensionsDirectory: nil, forwardedActions: .init(print: true, command: nil))
        let session = PresentationSession(
            app: app, registry: try ExtensionRegistry([manifest]), types: types, engine: FakeEngine.scripted())
        session.layoutWidth = 44  // the width the card is drawn at, as a driver sets it
        let content = UNMutableNotificationContent()
        content.categoryIdentifier = "photo"
        content.attachments = [try UNNotificationAttachment(identifier: "", url: png)]
        try session.present(UNNotification(request: UNNotificationRequest(identifier: "p", content: content, trigger: nil), date: Date()))

        let grid = CardLayout.render(session.card(), width: 44)
        // 40 columns × 4 rows of view; 640×480 fitted into 320×64 points: 85×64 → 11 columns.
        #expect(grid.pictures.map(\.frame) == [Rect(x: 2 + 14, y: 1, width: 11, height: 4)])
        #expect(grid.lines.contains { $0.contains("[image: photo.png 640×480]") })
    }
}

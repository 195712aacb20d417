import Foundation
import Notiplay
import NotiplayTesting
@testable import PhotoContent
import Testing

/// Photo (written for iOS, no seed article) presented by the test host, with its Info.plist and
/// app file: the image attachment in a `UIImageView` under the title label.
@MainActor
@Suite("Photo: an image attachment under its title, two actions")
struct PhotoTests {
    static let folder = Ports.folder("Photo")
    let presented = Presented<NotificationViewController>()

    func host() throws -> NotificationTestHost {
        var types = ExtensionTypes()
        presented.register(in: &types, as: "PhotoContent") { NotificationViewController() }
        return try NotificationTestHost(app: "\(Self.folder)/Photo.app.json", types: types)
    }

    @Test("The attachment's PNG fills the image view (aspect fit) under the title; the view is 0.75 as high as wide")
    func showsTheImage() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/photo.apns", attachments: ["\(Self.folder)/photo.png"])
        let controller = try #require(presented.last)
        #expect(controller.titleLabel.text == "Sam shared a photo")
        #expect(controller.imageView.contentMode == .scaleAspectFit)
        #expect(controller.imageView.image?.size == CGSize(width: 96, height: 72))
        let width = controller.view.frame.width
        #expect(width > 0)
        #expect(controller.preferredContentSize == CGSize(width: width, height: width * 0.75))
        // Headless, the image view draws its text stand-in under the title.
        let lines = Ports.lines(host.screen())
        #expect(lines[1] == "Sam shared a photo")
        #expect(host.screen().contains("[image: "))
        #expect(host.actionIdentifiers == ["LIKE", "OPEN"])
        await host.close()
    }

    @Test("Without an attachment the image view is empty and the title shows")
    func noAttachment() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/photo.apns")
        let controller = try #require(presented.last)
        #expect(controller.imageView.image == nil)
        #expect(!host.screen().contains("[image: "))
        #expect(Ports.lines(host.screen())[1] == "Sam shared a photo")
        await host.close()
    }

    @Test("Like marks the title and keeps the card; Open goes to the app")
    func actions() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/photo.apns", attachments: ["\(Self.folder)/photo.png"])
        try host.action("LIKE")
        #expect(try await host.wait(until: "response").string("option") == "doNotDismiss")
        try await host.expectScreen(contains: "❤️ Sam shared a photo")
        #expect(!host.isDismissed)
        try host.action("OPEN")
        #expect(try await host.wait(until: "response").string("option") == "dismissAndForwardAction")
        #expect(host.events(named: "forwarded").map { $0.string("action") } == ["OPEN"])
        #expect(host.isDismissed)
        await host.close()
    }
}

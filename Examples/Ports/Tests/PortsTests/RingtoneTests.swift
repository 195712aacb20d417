import Foundation
import Notiplay
import NotiplayTesting
@testable import RingtoneContent
import Testing

/// Ringtone (written for iOS, no seed article) presented by the test host, with its Info.plist
/// and app file.
///
/// Its `mediaPlay()` schedules a block 3 s on that captures the view controller `[unowned self]`,
/// as the original does: freeing the controller before the block runs traps, and this process
/// is the test run. So every controller these tests make is kept for the life of the process
/// (``keptAlive``); what the block does to a controller that is gone is
/// `Scripts/crashes-after-dismiss.playback`'s, run in a process of its own.
@MainActor
@Suite("Ringtone: a sound previewed for 3 s, three actions")
struct RingtoneTests {
    static let folder = Ports.folder("Ringtone")
    /// Every controller made here, never freed (see the suite's comment).
    static var keptAlive: [NotificationViewController] = []
    let presented = Presented<NotificationViewController>()

    func host() throws -> NotificationTestHost {
        var types = ExtensionTypes()
        presented.register(in: &types, as: "RingtoneContent") {
            let controller = NotificationViewController()
            RingtoneTests.keptAlive.append(controller)
            return controller
        }
        return try NotificationTestHost(app: "\(Self.folder)/Ringtone.app.json", types: types)
    }

    @Test("The labels show the title and body; the view is 0.4 as high as wide; the button is at the frame's right")
    func presents() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/ringtone.apns")
        let controller = try #require(presented.last)
        #expect(Array(Ports.lines(host.screen())[1...2]) == ["Ringtone of the day: Marimba Bells", "Press ▶ for a 3-second preview."])
        let width = controller.view.frame.width
        #expect(width > 0)
        #expect(controller.preferredContentSize == CGSize(width: width, height: width * 0.4))
        #expect(controller.mediaPlayPauseButtonFrame == CGRect(x: width - 60, y: controller.view.frame.height / 2 - 22, width: 44, height: 44))
        #expect(host.buttonState == .play)
        #expect(host.actionIdentifiers == ["SET_RINGTONE", "SEND_TO_FRIEND", "NOT_NOW"])
        await host.close()
    }

    @Test("Play plays the sound bundled as the module's resource, and the block stops it 3 s on")
    func previewsForThreeSeconds() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/ringtone.apns")
        try host.press(.play)
        try await host.wait(until: "mediaPlayingStarted")
        // The player was made from `Bundle.main.path(forResource: "ringtone", ofType: "wav")!`.
        let started = try await host.wait(until: "playback")
        #expect(started.string("state") == "started")
        let controller = try #require(presented.last)
        #expect(controller.player?.url?.lastPathComponent == "ringtone.wav")
        // The block's report; the clip (3.0 s, untimed here) may have ended before it.
        try await host.wait(until: "mediaPlayingPaused")
        #expect(host.buttonState == .play)
        #expect(controller.player?.isPlaying == false)
        #expect(host.events(named: "error").isEmpty)
        await host.close()
    }

    @Test("Send to a Friend keeps the card and says to whom; Set as Ringtone goes to the app")
    func actions() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/ringtone.apns")
        try host.action("SEND_TO_FRIEND", text: "Alex")
        #expect(try await host.wait(until: "response").string("option") == "doNotDismiss")
        try await host.expectScreen(contains: "Sent to Alex ✓")
        #expect(!host.isDismissed)
        try host.action("SET_RINGTONE")
        #expect(try await host.wait(until: "response").string("option") == "dismissAndForwardAction")
        #expect(host.events(named: "forwarded").map { $0.string("action") } == ["SET_RINGTONE"])
        #expect(host.isDismissed)
        await host.close()
    }
}

import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import Synchronization
import Testing

/// Makes a ``MediaPlayer`` for its first audio attachment in `didReceive(_:)` and counts what the
/// player reports; removes its notification from the delivered ones when an action is chosen.
class LeasePlayerExtension: TerminalViewController, UNNotificationContentExtension
{
    let mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 0, y: 0, width: 2, height: 1))
    var player: MediaPlayer?
    var reports: [String] = []
    /// The notifications delivered, as the extension's notification center saw them at a response.
    var deliveredAtResponse: [String]?

    func didReceive(_ notification: UNNotification) {
        guard let attachment = notification.request.content.attachments.first else { return }
        player = makePlayer(attachment)
    }

    func makePlayer(_ attachment: UNNotificationAttachment) -> MediaPlayer? {
        let player = MediaPlayer(attachment: attachment)
        player?.onStart = { [weak self] in
            self?.reports.append("start")
            self?.extensionContext?.mediaPlayingStarted()
        }
        player?.onPause = { [weak self] in self?.reports.append("pause") }
        player?.onFinish = { [weak self] in self?.reports.append("finish") }
        player?.onError = { [weak self] in self?.reports.append("error: \($0)") }
        return player
    }

    func mediaPlay() { player?.play() }
    func mediaPause() { player?.pause() }

    func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        let center = UNUserNotificationCenter.current()
        center.removeDeliveredNotifications(withIdentifiers: [response.notification.request.identifier])
        deliveredAtResponse = center.deliveredNotifications().map(\.request.identifier)
        completion(.doNotDismiss)
    }
}

/// The same, making its player in a `Task` started in `didReceive(_:)`, and playing it there.
final class TaskPlayerExtension: LeasePlayerExtension {
    var making: Task<Void, Never>?

    override func didReceive(_ notification: UNNotification) {
        guard let attachment = notification.request.content.attachments.first else { return }
        making = Task { @MainActor in
            self.player = self.makePlayer(attachment)
            self.player?.play()
        }
    }
}

/// Messages a callback collects.
@MainActor
final class Messages {
    var list: [String] = []
}

@MainActor
@Suite("The engine lease: what a MediaPlayer plays through, and which events reach it", .serialized, .timeLimit(.minutes(1)))
struct EngineLeaseTests {
    let engine = FakeEngine.scripted()

    func session() throws -> PresentationSession {
        var types = ExtensionTypes()
        types.register(LeasePlayerExtension.self, as: "Test.LeasePlayerExtension")
        types.register(TaskPlayerExtension.self, as: "Test.TaskPlayerExtension")
        func manifest(_ type: String, _ category: String) -> ExtensionManifest {
            ExtensionManifest(
                bundleName: type, path: "\(type).appex/Info.plist", point: .content, principalClass: "Test.\(type)",
                mainStoryboard: nil, typeName: "Test.\(type)", bundleIdentifier: nil, displayName: nil,
                categories: [category], initialContentSizeRatio: 0.5, defaultContentHidden: false,
                overridesDefaultTitle: false, userInteractionEnabled: false, warnings: [])
        }
        let registry = try ExtensionRegistry([
            manifest("LeasePlayerExtension", "player"), manifest("TaskPlayerExtension", "task"),
        ])
        let category = UNNotificationCategory(identifier: "player", actions: [UNNotificationAction(identifier: "done", title: "Done")])
        let app = AppDefinition(name: "Test", categories: [category], extensionsDirectory: nil, forwardedActions: .printOnly)
        return PresentationSession(app: app, registry: registry, types: types, engine: engine)
    }

    func notification(_ id: String = "n1", category: String = "player", thread: String = "t") throws -> UNNotification {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.categoryIdentifier = category
        content.threadIdentifier = thread
        content.attachments = [try AttachmentValidator().validate(TestMedia.path("chime.wav"))]
        return UNNotification(request: UNNotificationRequest(identifier: id, content: content, trigger: nil), date: Date())
    }

    func playback(_ s: PresentationSession) -> [String] {
        s.log.events(named: "playback").compactMap { $0.string("state") }
    }

    /// Waits for the `playback` event with `state` (the guard only stops a hang).
    @discardableResult
    func waitPlayback(_ s: PresentationSession, _ state: PresentationEvent.PlaybackState) async -> Bool {
        let seen = s.log.events.contains {
            if case .playback(state, _, _) = $0.event { true } else { false }
        }
        if seen { return true }
        return await s.log.next(timeout: .seconds(60)) {
            if case .playback(state, _, _) = $0.event { true } else { false }
        } != nil
    }

    @Test("A player made outside any presentation reports, through onError, that none is running")
    func outsidePresentation() async throws {
        let s = try session()
        try s.present(notification())  // a session presents: still, the player below is not made for it
        let file = try #require(try AttachmentValidator().validate(TestMedia.path("chime.wav")).audioFile)
        let player = MediaPlayer(file: file)
        let errors = Messages()
        player.onError = { errors.list.append($0) }
        player.play()
        player.pause()
        await player.settle()
        #expect(errors.list.count == 2)
        #expect(errors.list.allSatisfy { $0.hasPrefix("no presentation is running") })
        #expect(engine.loads == 0)
        #expect(await UNUserNotificationCenter.current().deliveredNotifications().isEmpty, "nor does it reach the app's notifications")
    }

    @Test("A player made in a Task the extension started in didReceive plays through the card")
    func madeInTask() async throws {
        let s = try session()
        try s.present(notification(category: "task"))
        let ext = try #require(s.controller as? TaskPlayerExtension)
        await ext.making?.value
        #expect(await waitPlayback(s, .started))
        await s.settle()
        #expect(engine.loads == 1)
        #expect(ext.reports == ["start"])
        #expect(s.buttonState == .pause)
    }

    @Test("Playback started is recorded once, and the player hears it once, though the engine reported it before load returned")
    func startedOnce() async throws {
        let s = try session()
        try s.present(notification())
        let ext = try #require(s.controller as? LeasePlayerExtension)
        s.handle(.media)
        #expect(await waitPlayback(s, .started))
        await s.settle()
        #expect(playback(s) == ["started"])
        #expect(ext.reports == ["start"])
        #expect(s.log.events(named: "mediaPlayingStarted").count == 1)
        #expect(s.canSeek)
    }

    @Test("The media of a card waits for what the host said it waits for (the stop of another session's card)")
    func mediaWaitsForTheGate() async throws {
        let s = try session()
        let (opened, gate) = AsyncStream<Void>.makeStream()
        let waiting = Task { for await _ in opened {} }
        s.mediaWaits(for: waiting)
        try s.present(notification())
        s.handle(.media)
        for _ in 0..<100 { await Task.yield() }
        #expect(engine.loads == 0, "the play reached the engine before the gate opened")
        gate.finish()
        #expect(await waitPlayback(s, .started))
        await s.settle()
        #expect(engine.loads == 1)
    }

    @Test("Events of another file are ignored, whether they come while the file loads or after")
    func otherItemsIgnored() async throws {
        let s = try session()
        try s.present(notification())
        let ext = try #require(s.controller as? LeasePlayerExtension)
        let stray = PlaybackItemID(99)
        engine.sendWhileLoading([PlaybackEvent(item: stray, .ended(.endOfFile)), PlaybackEvent(item: stray, .paused(position: 1))])
        s.handle(.media)
        #expect(await waitPlayback(s, .started))
        engine.send(.ended(.failed(PlaybackFailure(code: -1, message: "not ours", operation: "load"))), item: stray)
        engine.send(.paused(position: 0.25), item: engine.item)  // ours: once it is recorded, the stray ones were passed over
        #expect(await waitPlayback(s, .paused))
        #expect(playback(s) == ["started", "paused"])
        #expect(ext.reports == ["start", "pause"])
        #expect(ext.player?.position == 0.25)
    }

    @Test("A player of a replaced card stays silent, and so does one of a dismissed card")
    func replacedCardSilent() async throws {
        let s = try session()
        try s.present(notification("n1", thread: "a"))
        let first = try #require(s.controller as? LeasePlayerExtension)
        try s.present(notification("n2", thread: "b"))  // another thread: a new card
        #expect(s.controller !== first)
        first.player?.play()
        await first.player?.settle()
        #expect(engine.loads == 0)
        #expect(first.reports.isEmpty, "ignored, not an error")

        let second = try #require(s.controller as? LeasePlayerExtension)
        s.handle(.dismiss)
        second.player?.play()
        await second.player?.settle()
        #expect(engine.loads == 0)
        #expect(second.reports.isEmpty)
    }

    @Test("A notification of the shown thread keeps the card and its lease: the player made for it plays")
    func redeliveryKeepsLease() async throws {
        let s = try session()
        try s.present(notification("n1", thread: "a"))
        let ext = try #require(s.controller as? LeasePlayerExtension)
        try s.present(notification("n2", thread: "a"))  // the same thread: the same card, a new player
        #expect(s.controller === ext)
        s.handle(.media)
        #expect(await waitPlayback(s, .started))
        await s.settle()
        #expect(engine.loads == 1)
        #expect(ext.reports == ["start"])
    }

    @Test("UNUserNotificationCenter.current() reaches the app's notifications while the extension handles a response")
    func notificationCenter() async throws {
        let s = try session()
        try s.present(notification("n1", thread: "a"))
        try s.present(notification("n2", thread: "a"))
        let ext = try #require(s.controller as? LeasePlayerExtension)
        s.handle(.action(1))
        #expect(ext.deliveredAtResponse == ["n1"])
        let removed = s.log.events.compactMap { logged -> [String]? in
            if case .removed(.delivered, let identifiers) = logged.event { identifiers } else { nil }
        }
        #expect(removed == [["n2"]])
    }
}

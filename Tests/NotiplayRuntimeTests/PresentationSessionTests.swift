import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import Synchronization
import Testing

/// A content extension whose media button type and frame a test chooses; it records the
/// runtime's calls and, like a real extension, reports playing when told to play.
final class MediaExtension: TerminalViewController, UNNotificationContentExtension {
    nonisolated(unsafe) static var nextType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    nonisolated(unsafe) static var nextFrame = Rect(x: 0, y: 0, width: 2, height: 1)

    var calls: [String] = []
    let mediaPlayPauseButtonType = MediaExtension.nextType
    let mediaPlayPauseButtonFrame = CGRect(cells: MediaExtension.nextFrame)
    var reportsPlayback = true

    func didReceive(_ notification: UNNotification) {
        calls.append("didReceive:\(notification.request.identifier)")
    }

    func mediaPlay() {
        calls.append("mediaPlay")
        if reportsPlayback { extensionContext?.mediaPlayingStarted() }
    }

    func mediaPause() {
        calls.append("mediaPause")
        if reportsPlayback { extensionContext?.mediaPlayingPaused() }
    }
}

/// An extension that handles responses as a test says.
final class RespondingExtension: TerminalViewController, UNNotificationContentExtension {
    enum Behaviour { case answer(UNNotificationContentExtensionResponseOption), never, twice, later }
    nonisolated(unsafe) static var behaviour = Behaviour.answer(.doNotDismiss)
    var pending: ((UNNotificationContentExtensionResponseOption) -> Void)?
    var responses: [String] = []

    func didReceive(_ notification: UNNotification) {}

    func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        if let text = response as? UNTextInputNotificationResponse {
            responses.append("\(text.actionIdentifier):\(text.userText)")
        } else {
            responses.append(response.actionIdentifier)
        }
        switch Self.behaviour {
        case .answer(let option): completion(option)
        case .never: pending = completion
        case .twice:
            completion(.doNotDismiss)
            completion(.dismiss)
        case .later:
            Task { @MainActor in completion(.dismiss) }
        }
    }
}

/// An extension with neither media nor response handling.
final class PlainExtension: TerminalViewController, UNNotificationContentExtension {
    func didReceive(_ notification: UNNotification) {
        extensionContext?.mediaPlayingStarted()  // bad input: it has no media button
    }
}

@MainActor
@Suite("The presentation session: buttons, responses, threads", .serialized, .timeLimit(.minutes(1)))
struct PresentationSessionTests {
    let engine = FakeEngine.scripted()

    func session(
        extensionType: String, categories: [UNNotificationCategory] = [], limit: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws -> PresentationSession {
        var types = ExtensionTypes()
        types.register(MediaExtension.self, as: "Test.MediaExtension")
        types.register(RespondingExtension.self, as: "Test.RespondingExtension")
        types.register(PlainExtension.self, as: "Test.PlainExtension")
        let manifest = ExtensionManifest(
            bundleName: "Test", path: "Test.appex/Info.plist", point: .content, principalClass: extensionType,
            mainStoryboard: nil, typeName: extensionType, bundleIdentifier: nil, displayName: nil, categories: ["test"],
            initialContentSizeRatio: 0.5, defaultContentHidden: false, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        let registry = try ExtensionRegistry([manifest])
        let app = AppDefinition(name: "Test", categories: categories, extensionsDirectory: nil, forwardedActions: .printOnly)
        return PresentationSession(
            app: app, registry: registry, types: types, engine: engine,
            configuration: .init(responseTimeLimit: limit, clock: clock))
    }

    func notification(_ id: String = "n1", thread: String = "t", category: String = "test", audio: Bool = false) throws -> UNNotification {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.categoryIdentifier = category
        content.threadIdentifier = thread
        if audio { content.attachments = [try AttachmentValidator().validate(TestMedia.path("chime.wav"))] }
        return UNNotification(request: UNNotificationRequest(identifier: id, content: content, trigger: nil), date: Date())
    }

    func states(_ session: PresentationSession) -> [String] {
        session.log.events(named: "buttonState").compactMap { $0.string("state") }
    }

    @Test("default: ▶ → ⏸ → ▶, calling mediaPlay and mediaPause")
    func defaultButton() throws {
        MediaExtension.nextType = .default
        let s = try session(extensionType: "Test.MediaExtension")
        try s.present(notification())
        #expect(s.buttonState == .play)
        s.handle(.media)
        #expect(s.buttonState == .pause)
        s.handle(.tapContent)  // touching content does nothing under a default button
        #expect(s.buttonState == .pause)
        s.handle(.media)
        #expect(s.buttonState == .play)
        let ext = try #require(s.controller as? MediaExtension)
        #expect(ext.calls == ["didReceive:n1", "mediaPlay", "mediaPause"])
        #expect(states(s) == ["play", "pause", "play"])
        #expect(s.log.events.map(\.name).prefix(4) == ["didReceive", "buttonState", "mediaPlay", "buttonState"])
    }

    @Test("overlay: ▶ hides while playing; touching the content pauses")
    func overlayButton() throws {
        MediaExtension.nextType = .overlay
        let s = try session(extensionType: "Test.MediaExtension")
        try s.present(notification())
        #expect(s.buttonState == .play)
        s.handle(.tapContent)  // paused: a touch is not the button
        #expect(s.buttonState == .play)
        s.handle(.media)
        #expect(s.buttonState == .hidden)
        s.handle(.tapContent)
        #expect(s.buttonState == .play)
        #expect((s.controller as? MediaExtension)?.calls == ["didReceive:n1", "mediaPlay", "mediaPause"])
        #expect(states(s) == ["play", "hidden", "play"])
    }

    @Test("none, or an empty frame: no button, media input ignored")
    func noButton() throws {
        for (type, frame) in [(UNNotificationContentExtensionMediaPlayPauseButtonType.none, Rect(x: 0, y: 0, width: 2, height: 1)), (.default, .zero)] {
            MediaExtension.nextType = type
            MediaExtension.nextFrame = frame
            defer { MediaExtension.nextFrame = Rect(x: 0, y: 0, width: 2, height: 1) }
            let s = try session(extensionType: "Test.MediaExtension")
            try s.present(notification())
            s.handle(.media)
            s.handle(.tapContent)
            #expect(s.buttonState == .none)
            #expect(states(s) == ["none"])
            #expect((s.controller as? MediaExtension)?.calls == ["didReceive:n1"])
        }
    }

    @Test("mediaPlayingStarted/Paused set the state without calling mediaPlay/mediaPause")
    func reportsSetState() throws {
        MediaExtension.nextType = .default
        let s = try session(extensionType: "Test.MediaExtension")
        try s.present(notification())
        let ext = try #require(s.controller as? MediaExtension)
        ext.extensionContext?.mediaPlayingStarted()  // auto-play on arrival
        ext.extensionContext?.mediaPlayingStarted()  // idempotent
        #expect(s.buttonState == .pause)
        ext.extensionContext?.mediaPlayingPaused()  // end of audio
        #expect(s.buttonState == .play)
        #expect(ext.calls == ["didReceive:n1"])
        #expect(states(s) == ["play", "pause", "play"])
        #expect(s.log.events(named: "mediaPlayingStarted").count == 2)
    }

    @Test("mediaPlayingStarted() with type none is ignored and logged")
    func reportWithoutButton() throws {
        let s = try session(extensionType: "Test.PlainExtension")
        try s.present(notification())
        #expect(s.buttonState == .none)
        #expect(s.log.events(named: "mediaPlayingStarted").isEmpty)
        #expect(s.log.events(named: "error").first?.string("message")?.contains("type none") == true)
    }

    static let actions = [
        UNNotificationCategory(
            identifier: "test",
            actions: [
                UNNotificationAction(identifier: "done", title: "Done"),
                UNTextInputNotificationAction(identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: ""),
            ], options: [.customDismissAction])
    ]

    @Test(
        "Each response option is applied",
        arguments: [
            (UNNotificationContentExtensionResponseOption.doNotDismiss, false, false),
            (.dismiss, true, false),
            (.dismissAndForwardAction, true, true),
        ])
    func responseOptions(_ option: UNNotificationContentExtensionResponseOption, dismissed: Bool, forwarded: Bool) throws {
        RespondingExtension.behaviour = .answer(option)
        let s = try session(extensionType: "Test.RespondingExtension", categories: Self.actions)
        try s.present(notification())
        s.handle(.action(1))
        #expect(s.isDismissed == dismissed)
        #expect(s.log.events(named: "response").first?.string("option") == option.rawValue)
        #expect(s.log.events(named: "forwarded").map { $0.string("action") } == (forwarded ? ["done"] : []))
        #expect((s.controller as? RespondingExtension)?.responses == ["done"])
    }

    @Test("A text-input action reaches the extension as UNTextInputNotificationResponse")
    func textInput() throws {
        RespondingExtension.behaviour = .answer(.doNotDismiss)
        let s = try session(extensionType: "Test.RespondingExtension", categories: Self.actions)
        try s.present(notification())
        s.handle(.actionNamed("reply", text: "on my way"))
        #expect((s.controller as? RespondingExtension)?.responses == ["reply:on my way"])
    }

    @Test("An extension that does not handle responses: every action goes to the app")
    func forwarding() throws {
        MediaExtension.nextType = .default
        let s = try session(extensionType: "Test.MediaExtension", categories: Self.actions)
        try s.present(notification())
        s.handle(.action(1))
        #expect(s.log.events(named: "forwarded").map { $0.string("action") } == ["done"])
        #expect(s.isDismissed)
        #expect(s.log.events(named: "response").isEmpty)
    }

    @Test("A completion never called counts as .dismiss after the limit, and the log says so")
    func completionNeverCalled() async throws {
        RespondingExtension.behaviour = .never
        // The limit runs on a clock the test moves: nothing before 100 ms, the timeout at 100 ms.
        let clock = ManualClock()
        let s = try session(extensionType: "Test.RespondingExtension", categories: Self.actions, limit: .milliseconds(100), clock: clock)
        try s.present(notification())
        s.handle(.action(1))
        #expect(s.awaitsResponse && !s.isDismissed)
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(99))
        #expect(clock.sleepers == 1, "the limit is not due before 100 ms")
        await s.settle()
        #expect(s.awaitsResponse && !s.isDismissed && s.log.events(named: "response").isEmpty, "no answer before the limit")
        clock.advance(by: .milliseconds(1))
        let response = await s.log.next(timeout: .seconds(60)) { $0.name == "response" }
        #expect(response?.string("option") == "dismiss" && response?.string("reason") == "timeout")
        #expect(s.isDismissed)
        #expect(s.log.events(named: "error").contains { $0.string("message")?.contains("not called within") == true })
        // Calling it afterwards is ignored and logged.
        (s.controller as? RespondingExtension)?.pending?(.doNotDismiss)
        #expect(s.log.events(named: "response").count == 1)
    }

    @Test("A completion called twice: the second call is ignored and logged")
    func completionTwice() throws {
        RespondingExtension.behaviour = .twice
        let s = try session(extensionType: "Test.RespondingExtension", categories: Self.actions)
        try s.present(notification())
        s.handle(.action(1))
        #expect(s.log.events(named: "response").map { $0.string("option") } == ["doNotDismiss"])
        #expect(!s.isDismissed)
        #expect(s.log.events(named: "error").first?.string("message")?.contains("called again") == true)
    }

    @Test("A completion called later, from a task, is applied")
    func completionLater() async throws {
        RespondingExtension.behaviour = .later
        let s = try session(extensionType: "Test.RespondingExtension", categories: Self.actions)
        try s.present(notification())
        s.handle(.action(1))
        let response = await s.log.next(timeout: .seconds(60)) { $0.name == "response" }
        #expect(response?.string("option") == "dismiss" && s.isDismissed)
    }

    @Test("A new notification of the shown thread is delivered to the same extension")
    func threadRedelivery() throws {
        MediaExtension.nextType = .default
        let s = try session(extensionType: "Test.MediaExtension")
        try s.present(notification("n1", thread: "kitchen"))
        let first = try #require(s.controller as? MediaExtension)
        try s.present(notification("n2", thread: "kitchen"))
        #expect(s.controller === first)
        #expect(first.calls == ["didReceive:n1", "didReceive:n2"])
        try s.present(notification("n3", thread: "other"))
        #expect(s.controller !== first)
        #expect(s.log.events(named: "didReceive").map { $0.string("identifier") } == ["n1", "n2", "n3"])
    }

    @Test("Dismiss with customDismissAction forwards the dismiss action; Enter forwards the default action")
    func dismissAndDefault() throws {
        MediaExtension.nextType = .default
        let s = try session(extensionType: "Test.MediaExtension", categories: Self.actions)
        try s.present(notification())
        s.handle(.dismiss)
        #expect(s.log.events(named: "forwarded").map { $0.string("action") } == [UNNotificationDismissActionIdentifier])
        #expect(s.isDismissed)
        try s.present(notification("n2", thread: "x"))
        s.handle(.defaultAction)
        #expect(s.log.events(named: "forwarded").last?.string("action") == UNNotificationDefaultActionIdentifier)
    }

    @Test("notificationActions replaces the buttons; the extension can dismiss and open URLs")
    func contextCalls() throws {
        RespondingExtension.behaviour = .answer(.doNotDismiss)
        let s = try session(extensionType: "Test.RespondingExtension", categories: Self.actions)
        try s.present(notification())
        let context = try #require(s.controller?.extensionContext)
        #expect(context.notificationActions.map(\.identifier) == ["done", "reply"])
        context.notificationActions = [UNNotificationAction(identifier: "pending", title: "Pending")]
        #expect(s.actions.map(\.identifier) == ["pending"])
        s.handle(.action(1))
        #expect((s.controller as? RespondingExtension)?.responses == ["pending"])
        context.open(URL(string: "nagme://reminder/1")!)
        #expect(s.log.events(named: "forwarded").last?.string("url") == "nagme://reminder/1")
        context.dismissNotificationContentExtension()
        context.dismissNotificationContentExtension()
        #expect(s.isDismissed && s.log.events(named: "dismissed").count == 1)
    }

    @Test("A principal class that is not registered: a clear error")
    func unregistered() throws {
        let s = try session(extensionType: "Test.Missing")
        #expect(throws: NotiplayError.self) { try s.present(notification()) }
        let types = ExtensionTypes()
        let manifest = try #require(s.registry.extensions.first)
        #expect {
            try types.check(s.registry)
        } throws: { error in
            "\(error)".contains("names Test.Missing, which is not a registered extension type") && manifest.bundleName == "Test"
        }
    }

    @Test("The default card plays the first audio attachment and reports the end of the audio")
    func defaultCard() async throws {
        let s = try session(extensionType: "Test.MediaExtension")
        try s.present(notification(category: "unclaimed", audio: true))
        #expect(s.controller is DefaultContentExtension)
        #expect(s.buttonState == .play)
        s.handle(.media)
        let started = await s.log.next(timeout: .seconds(60)) { $0.name == "mediaPlayingStarted" }
        #expect(started != nil)
        engine.finish()
        let paused = await s.log.next(timeout: .seconds(60)) { $0.name == "mediaPlayingPaused" }
        #expect(paused != nil && s.buttonState == .play)
        #expect(s.log.events(named: "playback").compactMap { $0.string("state") } == ["started", "ended"])
    }

    @Test("An attachment gone at presentation: the card shows, the button is disabled, an error says why")
    func attachmentGone() throws {
        let dir = try TestMedia.scratch()
        let copy = dir.appendingPathComponent("memo.wav")
        try FileManager.default.copyItem(atPath: TestMedia.path("chime.wav"), toPath: copy.path)
        let content = UNMutableNotificationContent()
        content.categoryIdentifier = "unclaimed"
        content.attachments = [try AttachmentValidator().validate(copy.path)]
        try FileManager.default.removeItem(at: copy)
        let s = try session(extensionType: "Test.MediaExtension")
        try s.present(UNNotification(request: UNNotificationRequest(identifier: "gone", content: content, trigger: nil), date: Date()))
        #expect(s.controller is DefaultContentExtension)
        #expect(s.buttonState == .none)
        #expect(s.log.events(named: "error").first?.string("message")?.contains("memo.wav") == true)
    }
}

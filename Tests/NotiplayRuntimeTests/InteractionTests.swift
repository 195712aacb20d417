import NotiplayCore
import Foundation
import Notiplay
import NotiplayTestSupport
import NotiplayViews
import Testing

/// An extension with buttons of its own (as `@IBAction`s wire them) and a media button: each
/// button records its title; "Play here" plays the attachment through a `MediaPlayer` made in
/// its action, which plays only when the action runs in the card's scope.
final class ButtonsExtension: TerminalViewController, UNNotificationContentExtension {
    var pressed: [String] = []
    var calls: [String] = []
    var player: MediaPlayer?
    let mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 30, y: 0, width: 3, height: 1))

    func didReceive(_ notification: UNNotification) {
        let attachment = notification.request.content.attachments.first
        view.elements = [
            Label("Water the plants"),
            Button("Snooze") { [weak self] in self?.pressed.append("Snooze") },
            Button("Play here") { [weak self] in
                self?.pressed.append("Play here")
                self?.player = attachment.flatMap { MediaPlayer(attachment: $0) }
                self?.player?.play()
            },
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

/// Builds `Buttons.appex` folders with a real `Info.plist`, with or without
/// `UNNotificationExtensionUserInteractionEnabled`.
enum ButtonsBundle {
    static func infoPlist(interaction: Bool?) -> String {
        ExtensionPlist.content(category: "test", principalClass: "ButtonsExtension", interaction: interaction)
    }

    /// A fresh folder holding `Buttons.appex/Info.plist`.
    static func folder(interaction: Bool?) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-buttons-\(UUID().uuidString)")
        let bundle = folder.appendingPathComponent("Buttons.appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try infoPlist(interaction: interaction).write(to: bundle.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        return folder.path
    }
}

@MainActor
@Suite("Interaction: Tab, Enter and clicks; the extension's buttons only when its Info.plist says so", .timeLimit(.minutes(1)))
struct InteractionTests {
    let engine = FakeEngine.scripted()

    static let category = UNNotificationCategory(
        identifier: "test",
        actions: [
            UNNotificationAction(identifier: "done", title: "Done"),
            UNTextInputNotificationAction(identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: ""),
        ], options: [])

    /// A session over the `Buttons.appex` whose Info.plist has the key as `interaction` says (nil:
    /// the key left out), presenting a notification with a 2 s chime.
    func session(interaction: Bool?, actions: Bool = true) throws -> (PresentationSession, ButtonsExtension) {
        let folder = try ButtonsBundle.folder(interaction: interaction)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let registry = try ExtensionRegistry.load(folder: folder)
        #expect(registry.contentExtension(for: "test")?.userInteractionEnabled == (interaction == true))
        var types = ExtensionTypes()
        types.register(ButtonsExtension.self, as: "Buttons.ButtonsExtension")
        let app = AppDefinition(
            name: "Test", categories: actions ? [Self.category] : [], extensionsDirectory: nil, forwardedActions: .printOnly)
        let session = PresentationSession(app: app, registry: registry, types: types, engine: engine)
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.categoryIdentifier = "test"
        content.attachments = [try AttachmentValidator().validate(TestMedia.path("chime.wav"))]
        try session.present(UNNotification(request: UNNotificationRequest(identifier: "n1", content: content, trigger: nil), date: Date()))
        return (session, try #require(session.controller as? ButtonsExtension))
    }

    func names(_ session: PresentationSession) -> [String] { session.log.events.map(\.name) }

    @Test("Tab + Enter reaches the extension's button only when the Info.plist enables interaction")
    func tabEnter() throws {
        let (on, onExtension) = try session(interaction: true)
        #expect(on.userInteractionEnabled)
        on.handle(.focusNext)
        #expect(on.focus == .control(0))
        on.handle(.confirm)
        #expect(onExtension.pressed == ["Snooze"])
        #expect(on.log.events(named: "control").map { $0.string("title") } == ["Snooze"])
        #expect(!on.isDismissed && on.log.events(named: "action").isEmpty, "Enter went to the button, not the default action")

        for interaction in [false, nil] as [Bool?] {
            let (off, offExtension) = try session(interaction: interaction)
            #expect(!off.userInteractionEnabled)
            off.handle(.focusNext)
            #expect(off.focus == .action(1), "Tab passes the extension's buttons by, to the first action")
            off.handle(.confirm)
            #expect(offExtension.pressed.isEmpty)
            #expect(off.log.events(named: "control").isEmpty)
            #expect(off.log.events(named: "action").map { $0.string("identifier") } == ["done"])
        }

        // Without actions Tab has nowhere to go on a card that takes no input: Enter is the default action.
        let (bare, bareExtension) = try session(interaction: false, actions: false)
        bare.handle(.focusNext)
        #expect(bare.focus == nil)
        bare.handle(.confirm)
        #expect(bareExtension.pressed.isEmpty)
        #expect(bare.log.events(named: "action").first?.string("identifier") == UNNotificationDefaultActionIdentifier)
        #expect(bare.isDismissed)
    }

    @Test("Tab goes round: buttons, actions, nothing; Shift-Tab the other way; Enter with nothing focused is the default action")
    func focusOrder() throws {
        let (s, _) = try session(interaction: true)
        var seen: [CardTarget?] = []
        for _ in 0..<6 {
            s.handle(.focusNext)
            seen.append(s.focus)
        }
        #expect(seen == [.control(0), .control(1), .action(1), .action(2), nil, .control(0)])
        s.handle(.focusPrevious)
        s.handle(.focusPrevious)
        #expect(s.focus == .action(2), "from the first button, back through nothing to the last action")
        #expect(s.textInputAction(for: .confirm) == 2, "Enter on a text-input action opens its prompt in a terminal")
        s.handle(.focusNext)
        #expect(s.focus == nil)
        #expect(s.textInputAction(for: .confirm) == nil)
        s.handle(.confirm)
        #expect(s.log.events(named: "action").first?.string("source") == "user")
        #expect(s.isDismissed)
    }

    @Test("the focus is drawn, and a new card starts with none")
    func drawnAndReset() throws {
        let (s, _) = try session(interaction: true)
        s.handle(.focusNext)
        let laid = CardLayout.layout(s.card(), width: s.layoutWidth)
        let frame = try #require(laid.map.frame(of: .control(0)))
        #expect(laid.grid[frame.y, frame.x].style.reverse)
        let content = UNMutableNotificationContent()
        content.categoryIdentifier = "test"
        content.threadIdentifier = "other"
        try s.present(UNNotification(request: UNNotificationRequest(identifier: "n2", content: content, trigger: nil), date: Date()))
        #expect(s.focus == nil)
    }

    @Test("a click at the media button's cell plays; a second pauses")
    func clickMedia() throws {
        for interaction in [true, false] {
            let (s, ext) = try session(interaction: interaction)
            let cell = try #require(s.cardMap().cell(of: .mediaButton))
            let glyph = CardLayout.render(s.card(), width: s.layoutWidth)[cell.row, cell.column].character
            #expect(glyph == "▶")
            s.handle(.click(column: cell.column, row: cell.row))
            #expect(ext.calls == ["mediaPlay"])
            #expect(s.buttonState == .pause)
            s.handle(.click(column: cell.column, row: cell.row))
            #expect(ext.calls == ["mediaPlay", "mediaPause"])
            #expect(s.buttonState == .play)
        }
    }

    @Test("a click on an extension's button runs its action in the card's scope, only with interaction enabled")
    func clickButton() async throws {
        let (on, onExtension) = try session(interaction: true)
        let map = on.cardMap()
        let play = try #require(map.controls.firstIndex { $0.title == "Play here" })
        let cell = CardMap.middle(of: map.controls[play].frame)
        #expect(map.target(column: cell.column, row: cell.row) == .control(play))
        on.handle(.click(column: cell.column, row: cell.row))
        #expect(onExtension.pressed == ["Play here"])
        // The player made in the action plays through the card's lease: the engine loads it.
        let started = await on.log.next(timeout: .seconds(30)) { $0.name == "playback" && $0.string("state") == "started" }
        #expect(started != nil)
        #expect(on.log.events(named: "error").isEmpty, "\(on.log.events.map(\.json))")

        let (off, offExtension) = try session(interaction: false)
        off.handle(.click(column: cell.column, row: cell.row))
        #expect(offExtension.pressed.isEmpty, "a click on a button of an extension that takes no input is a touch on the content")
        #expect(off.log.events(named: "control").isEmpty)
        #expect(off.cardMap().target(column: cell.column, row: cell.row) == .content)
    }

    @Test("clicks on the ✕, an action and elsewhere, with or without interaction")
    func clickSystem() throws {
        for interaction in [true, false] {
            let (s, _) = try session(interaction: interaction)
            let map = s.cardMap()
            let done = try #require(map.cell(of: .action(1)))
            let reply = try #require(map.cell(of: .action(2)))
            #expect(s.textInputAction(for: .click(column: reply.column, row: reply.row)) == 2)
            #expect(s.textInputAction(for: .click(column: done.column, row: done.row)) == nil)
            #expect(s.textInputAction(for: .action(2)) == 2 && s.textInputAction(for: .action(1)) == nil)
            let before = s.log.events.count
            s.handle(.click(column: 0, row: 1))  // the frame
            s.handle(.click(column: 500, row: 500))  // off the card
            #expect(s.log.events.count == before)
            let close = try #require(map.cell(of: .close))
            s.handle(.click(column: close.column, row: close.row))
            #expect(s.isDismissed)
            #expect(s.log.events(named: "dismissed").map { $0.string("reason") } == ["user"])

            let (t, _) = try session(interaction: interaction)
            t.handle(.click(column: done.column, row: done.row))
            #expect(t.log.events(named: "action").map { $0.string("identifier") } == ["done"])
        }
    }
}

import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCore
import NotiplayTestSupport
import Testing

/// A card's whole life in the center, on a real store, a silent engine and virtual clocks (the
/// center's time and the policy's): arrived, shown, waiting, restored, expired. No verdict here
/// depends on how fast the machine is.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct CenterLifeTests {
    /// Traits told by identifier, as the desktop bridge tells them of its notifications.
    final class Traits: NotificationTraitSource {
        var byIdentifier: [String: NotificationTraits] = [:]
        func traits(of notification: UNNotification, app: String) -> NotificationTraits? {
            byIdentifier[notification.request.identifier]
        }
    }

    /// The policy's clock, moved by the test.
    final class PolicyClock: @unchecked Sendable {
        var now: Duration = .zero
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let ask = UNNotificationCategory(
        identifier: "ask", actions: [UNNotificationAction(identifier: "yes", title: "Yes"), UNNotificationAction(identifier: "no", title: "No")])

    let folder: String
    let time = CenterTime.virtual(startingAt: start)
    let clock = PolicyClock()
    let traits = Traits()
    let engine = FakeEngine()

    init() throws {
        folder = try TestMedia.scratch().appendingPathComponent("store").path
    }

    func center(apps: [CenterService.App] = [CenterService.App(definition: .standard, registry: .empty)]) throws -> CenterService {
        let store = try CenterStore.open(folder: folder, now: { [time] in time.now })
        let clock = clock
        let service = CenterService(
            store: store, apps: apps, types: ExtensionTypes(), engine: engine, time: time, policyClock: { clock.now })
        service.addTraitSource(traits)
        return service
    }

    static func incoming(_ id: String, app: String = "notiplay", category: String? = nil) -> IncomingNotification {
        let member = category.map { ",\"category\":\"\($0)\"" } ?? ""
        return IncomingNotification(
            identifier: id, app: app, payload: "{\"aps\":{\"alert\":{\"title\":\"\(id)\"}\(member)}}", categoryIdentifier: category)
    }

    static func shown(_ service: CenterService) -> String? {
        (service.shownSession as? PresentationSession)?.notification?.request.identifier
    }

    @Test("A card keeps the buttons it arrived with after a restart, under its own category")
    func restoredWithItsButtons() async throws {
        traits.byIdentifier["q"] = NotificationTraits(category: Self.ask)
        let first = try center()
        _ = try first.receive(Self.incoming("q", category: "ask"))
        #expect((first.shownSession as? PresentationSession)?.actions.map(\.identifier) == ["yes", "no"])
        await first.close()

        let second = try center()
        try second.restore()
        #expect(Self.shown(second) == "q")
        #expect((second.shownSession as? PresentationSession)?.actions.map(\.identifier) == ["yes", "no"])
        await second.close()
    }

    @Test("A lifetime runs on the center's time: the card leaves the screen, expired, and stays in the history")
    func expires() async throws {
        traits.byIdentifier["brief"] = NotificationTraits(lifetime: .seconds(10))
        let service = try center()
        var removed: [(String, CenterService.RemovalReason)] = []
        service.observe { event in
            if case .removed(let identifiers, let reason) = event { removed += identifiers.map { ($0, reason) } }
        }
        _ = try service.receive(Self.incoming("brief"))
        _ = try service.receive(Self.incoming("stays"))
        _ = service.advance(by: 9.5)
        #expect(removed.isEmpty)
        _ = service.advance(by: 0.5)
        #expect(removed.map(\.0) == ["brief"] && removed.first?.1 == .expired)
        #expect(try service.store.notification("brief")?.state == .expired)
        #expect(try service.store.delivered().map(\.identifier) == ["stays"])
        #expect(Self.shown(service) == "stays")
        await service.close()
    }

    @Test("The shown card does not expire while a key was just pressed on it; it does once it is idle")
    func heldWhileBusy() async throws {
        traits.byIdentifier["brief"] = NotificationTraits(lifetime: .seconds(10))
        let service = try center()
        _ = try service.receive(Self.incoming("brief"))
        clock.now = .seconds(50)
        service.keyPressed()
        _ = service.advance(by: 11)
        #expect(try service.store.notification("brief")?.state == .delivered)
        #expect(Self.shown(service) == "brief")
        clock.now = .seconds(55)
        _ = service.advance(by: 1)
        #expect(try service.store.notification("brief")?.state == .expired)
        #expect(Self.shown(service) == nil)
        await service.close()
    }

    @Test("A card whose sound waits behind playing media does not expire before its turn")
    func unheardSoundDoesNotExpire() async throws {
        traits.byIdentifier["memo"] = NotificationTraits(startsMedia: true)
        traits.byIdentifier["chime"] = NotificationTraits(startsMedia: true, lifetime: .seconds(10))
        let service = try center()
        _ = try service.receive(Self.incoming("memo"))
        service.followMedia(.playback(.started, position: 0))
        _ = try service.receive(Self.incoming("chime"))
        #expect(Self.shown(service) == "memo")
        _ = service.advance(by: 60)
        #expect(try service.store.notification("chime")?.state == .delivered)
        #expect(service.waitingCards(limit: 10).map(\.identifier) == ["chime"])
        await service.close()
    }

    @Test("A lifetime counts from delivery: after a restart past it, the card expires at once")
    func expiresAfterARestart() async throws {
        traits.byIdentifier["brief"] = NotificationTraits(lifetime: .seconds(10))
        let first = try center()
        _ = try first.receive(Self.incoming("brief"))
        await first.close()
        time.move(to: Self.start.addingTimeInterval(60))
        let second = try center()
        try second.restore()
        #expect(try second.store.notification("brief")?.state == .expired)
        #expect(Self.shown(second) == nil)
        await second.close()
    }

    @Test("A key on the card holds the screen for the key grace on the policy's clock; then an arrival takes it")
    func keyGrace() async throws {
        let service = try center()
        _ = try service.receive(Self.incoming("a"))
        clock.now = .seconds(100)
        service.keyPressed()
        clock.now = .seconds(104)
        _ = try service.receive(Self.incoming("b"))
        #expect(Self.shown(service) == "a")
        clock.now = .seconds(105)
        _ = try service.receive(Self.incoming("c"))
        #expect(Self.shown(service) == "c")
        #expect(service.waitingCards(limit: 10).map(\.identifier) == ["a", "b"])
        await service.close()
    }

    @Test("A notification of an app this server does not present is skipped, listed, and shown by one that does")
    func skippedThenShown() async throws {
        let other = CenterService.App(definition: AppDefinition(name: "desktop", categories: [], extensionsDirectory: nil, forwardedActions: .printOnly), registry: .empty)
        let both = try center(apps: [CenterService.App(definition: .standard, registry: .empty), other])
        _ = try both.receive(Self.incoming("d", app: "desktop"))
        await both.close()

        let plain = try center()
        var skipped: [String] = []
        plain.observe { if case .skipped(let identifier, _) = $0 { skipped.append(identifier) } }
        try plain.restore()
        #expect(skipped == ["d"])
        #expect(Self.shown(plain) == nil)
        #expect(plain.deckStatus == "notiplay serve · no notifications · 1 for apps not served here (list shows them) · q quits")
        _ = try plain.receive(Self.incoming("mine"))
        #expect(Self.shown(plain) == "mine")
        #expect(plain.deckStatus == "1 not served here")
        await plain.close()

        let again = try center(apps: [CenterService.App(definition: .standard, registry: .empty), other])
        try again.restore()
        _ = again.move(by: 1)
        #expect(Self.shown(again) == "d")
        await again.close()
    }

    @Test("A warning about a card's sound is on the card, dim; Enter's default action is named")
    func noticeAndHint() async throws {
        traits.byIdentifier["s"] = NotificationTraits(defaultAction: "Open")
        let service = try center()
        service.warn("s", key: "sound-file", message: "/tmp/x.ogg: no such file; no sound")
        service.warn("s", key: "image-path", message: "not drawn")
        _ = try service.receive(Self.incoming("s"))
        #expect(service.shownNotice == "/tmp/x.ogg: no such file; no sound")
        #expect(service.shownHint == "enter Open")
        _ = try service.receive(Self.incoming("t"))
        #expect(service.shownNotice == nil && service.shownHint == nil)
        await service.close()
    }

    @Test("Dismiss all answers each card as dismissed and leaves none")
    func dismissAll() async throws {
        let service = try center()
        var answered: [String] = []
        service.observe { if case .response(let response) = $0 { answered.append(response.identifier) } }
        for id in ["a", "b", "c"] { _ = try service.receive(Self.incoming(id)) }
        service.dismissAll()
        #expect(Set(answered) == ["a", "b", "c"])
        #expect(Self.shown(service) == nil)
        #expect(try service.store.history(limit: 10).allSatisfy { $0.state == .dismissed })
        await service.close()
    }
}

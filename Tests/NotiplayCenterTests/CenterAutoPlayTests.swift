import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// What the desktop bridge asks of the center, on real libmpv: media that starts when its
    /// notification arrives (or when its card shows, if other media was playing), actions
    /// reported when chosen, and notifications the history does not keep.
    @MainActor
    @Suite(.serialized, .timeLimit(.minutes(2))) struct CenterAutoPlayTests {
        typealias Recorder = CenterSoundTests.Recorder

        /// What the desktop bridge tells the center of its notifications, told here by identifier.
        @MainActor final class Traits: NotificationTraitSource {
            var byIdentifier: [String: NotificationTraits] = [:]
            func traits(of notification: UNNotification, app: String) -> NotificationTraits? {
                byIdentifier[notification.request.identifier]
            }
        }

        let traits = Traits()

        func withCenter(_ body: @MainActor (CenterService, Recorder) async throws -> Void) async throws {
            let folder = try TestMedia.scratch().appendingPathComponent("store").path
            let engine = try MPVEngine(output: .null(untimed: false))
            let service = CenterService(
                store: try CenterStore.open(folder: folder), apps: [CenterService.App(definition: .standard, registry: .empty)],
                types: ExtensionTypes(), engine: engine)
            let recorder = Recorder()
            service.observe { event in
                if case .presentation(let logged) = event { recorder.record(logged) } else { recorder.record(event) }
            }
            service.addTraitSource(traits)
            try await body(service, recorder)
            await service.close()
            await engine.shutdown()
        }

        /// A silent 16-bit mono WAV file of `seconds`, at 8 kHz.
        static func silence(seconds: Int) -> [UInt8] {
            let data = seconds * 8000 * 2
            var bytes = Array("RIFF".utf8)
            func le32(_ v: Int) { bytes += (0..<4).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
            func le16(_ v: Int) { bytes += (0..<2).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
            le32(36 + data)
            bytes += Array("WAVEfmt ".utf8)
            le32(16); le16(1); le16(1); le32(8000); le32(16000); le16(2); le16(16)
            bytes += Array("data".utf8)
            le32(data)
            return bytes + [UInt8](repeating: 0, count: data)
        }

        static func withMedia(_ id: String, seconds: Int) -> IncomingNotification {
            IncomingNotification(
                identifier: id, app: "notiplay", payload: "{\"aps\":{\"alert\":{\"title\":\"\(id)\"}}}",
                attachments: [IncomingAttachment(name: "\(id).wav", kind: "com.microsoft.waveform-audio", bytes: silence(seconds: seconds))])
        }

        static func plain(_ id: String, category: String? = nil) -> IncomingNotification {
            let member = category.map { ",\"category\":\"\($0)\"" } ?? ""
            return IncomingNotification(
                identifier: id, app: "notiplay", payload: "{\"aps\":{\"alert\":{\"title\":\"\(id)\"}\(member)}}",
                categoryIdentifier: category)
        }

        static func shown(_ service: CenterService) -> String? {
            (service.shownSession as? PresentationSession)?.notification?.request.identifier
        }

        @Test("A notification that plays on arrival takes the screen from a quiet card and starts its media")
        func playsOnArrival() async throws {
            try await withCenter { service, recorder in
                _ = try service.receive(Self.plain("quiet"))
                #expect(Self.shown(service) == "quiet")
                traits.byIdentifier["memo"] = NotificationTraits(startsMedia: true)
                _ = try service.receive(Self.withMedia("memo", seconds: 30))
                #expect(Self.shown(service) == "memo")
                let card = try #require(service.shownSession as? PresentationSession)
                #expect(card.isPlaying)
                await recorder.wait(forPlayback: "started")
                #expect(card.log.events(named: "mediaPlay").count == 1)
                // Without the trait, the same arrival waits behind the playing card, silent.
                _ = try service.receive(Self.withMedia("later", seconds: 1))
                #expect(Self.shown(service) == "memo")
            }
        }

        @Test("While other media plays it waits its turn, and starts when its card shows")
        func waitsForPlayingMedia() async throws {
            try await withCenter { service, recorder in
                _ = try service.receive(Self.withMedia("first", seconds: 60))
                let first = try #require(service.shownSession as? PresentationSession)
                first.handle(.media)
                await recorder.wait(forPlayback: "started")
                traits.byIdentifier["second"] = NotificationTraits(startsMedia: true)
                _ = try service.receive(Self.withMedia("second", seconds: 30))
                #expect(Self.shown(service) == "first", "took the screen from playing media")
                #expect(service.deckStatus == "1 more · n next · N previous · X dismiss all")
                let second = try #require(service.move(by: 1))
                #expect(Self.shown(service) == "second")
                #expect(second.isPlaying)
                #expect(second.log.events(named: "mediaPlay").count == 1)
                // Shown again later, it does not start by itself a second time.
                _ = service.move(by: -1)
                let again = try #require(service.move(by: 1))
                #expect(!again.isPlaying)
            }
        }

        @Test("A card that waited for playing media shows and starts its own when that media ends, without a key")
        func startsWhenTheMediaAheadEnds() async throws {
            try await withCenter { service, recorder in
                _ = try service.receive(Self.withMedia("first", seconds: 1))
                let first = try #require(service.shownSession as? PresentationSession)
                first.handle(.media)
                await recorder.wait(forPlayback: "started")
                traits.byIdentifier["second"] = NotificationTraits(startsMedia: true)
                _ = try service.receive(Self.withMedia("second", seconds: 30))
                #expect(Self.shown(service) == "first")
                await recorder.wait(for: { $0 == .shown(identifier: "second") })
                await recorder.wait(forPlayback: "ended")
                let second = try #require(service.shownSession as? PresentationSession)
                #expect(Self.shown(service) == "second")
                #expect(second.isPlaying)
                #expect(second.log.events(named: "mediaPlay").count == 1)
            }
        }

        @Test("An action chosen on a card is reported when chosen, before the card is answered")
        func actionChosen() async throws {
            try await withCenter { service, _ in
                let category = UNNotificationCategory(
                    identifier: "ask", actions: [UNNotificationAction(identifier: "yes", title: "Yes")])
                _ = try service.setCategories(CategoryJSON.encode([category]), for: "notiplay")
                var chosen: [CenterResponse] = []
                var answered: [CenterResponse] = []
                service.observe { event in
                    if case .action(let response) = event { chosen.append(response) }
                    if case .response(let response) = event { answered.append(response) }
                }
                _ = try service.receive(Self.plain("q", category: "ask"))
                let card = try #require(service.shownSession as? PresentationSession)
                #expect(card.actions.map(\.identifier) == ["yes"])
                card.handle(.action(1, text: nil))
                await card.settle()
                #expect(chosen == [CenterResponse(identifier: "q", action: "yes", text: nil)])
                #expect(answered.first == CenterResponse(identifier: "q", action: "yes", text: nil))
            }
        }

        @Test("A notification the history does not keep is deleted when dismissed or removed; others stay")
        func transient() async throws {
            try await withCenter { service, _ in
                for id in ["gone-1", "gone-2"] { traits.byIdentifier[id] = NotificationTraits(transient: true) }
                _ = try service.receive(Self.plain("gone-1"))
                #expect(Self.shown(service) == "gone-1")
                service.shownCardDismissed()
                for id in ["gone-2", "kept-1", "kept-2"] { _ = try service.receive(Self.plain(id)) }
                _ = try service.remove(identifiers: ["gone-2", "kept-1"])
                _ = try service.remove(identifiers: nil)
                let history = try service.store.history(limit: 10).map(\.identifier).sorted()
                #expect(history == ["kept-1", "kept-2"])
            }
        }
    }
}

import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// The center on a real store and the real engine (null output, untimed): what arrives is
    /// stored, queued and shown, one card at a time; dismissals and restarts go through the store.
    @MainActor
    struct CenterServiceTests {
        static let app = CenterService.App(definition: .standard, registry: .empty)

        static func payload(_ title: String, thread: String? = nil) -> String {
            let threadMember = thread.map { ",\"thread-id\":\"\($0)\"" } ?? ""
            return "{\"aps\":{\"alert\":{\"title\":\"\(title)\"}\(threadMember)}}"
        }

        static func incoming(_ id: String, thread: String? = nil, app: String = "notiplay") -> IncomingNotification {
            IncomingNotification(identifier: id, app: app, payload: payload(id, thread: thread), threadIdentifier: thread)
        }

        func withService(_ body: @MainActor (CenterService, String) async throws -> Void) async throws {
            let folder = try TestMedia.scratch().appendingPathComponent("store").path
            let engine = try MPVEngine(output: .null(untimed: true))
            let service = CenterService(
                store: try CenterStore.open(folder: folder), apps: [Self.app], types: ExtensionTypes(), engine: engine)
            try await body(service, folder)
            await service.close()
            await engine.shutdown()
        }

        @Test("The first arrival shows; one of its thread joins it; others wait; the status counts them")
        func arrivals() async throws {
            try await withService { service, _ in
                #expect(service.deckStatus == "notiplay serve · no notifications · q quits")
                _ = try service.receive(Self.incoming("a", thread: "t"))
                let first = try #require(service.shownSession)
                _ = try service.receive(Self.incoming("b", thread: "t"))
                #expect(service.shownSession === first)
                #expect(first.log.events(named: "didReceive").count == 2)
                _ = try service.receive(Self.incoming("c"))
                #expect(service.deckStatus == "1 more · n next · N previous · X dismiss all")
                #expect(try service.store.delivered().map(\.identifier) == ["a", "b", "c"])
            }
        }

        @Test("Dismissing the shown card records it and shows the next; n and N move between cards")
        func dismissal() async throws {
            try await withService { service, _ in
                // Newest on top: c shows, b and a wait in that order.
                for id in ["a", "b", "c"] { _ = try service.receive(Self.incoming(id)) }
                #expect(service.move(by: 1)?.log.events(named: "didReceive").first?.string("identifier") == "b")
                let moved = service.move(by: -1)
                #expect(moved?.log.events(named: "didReceive").first?.string("identifier") == "c")
                moved?.handle(.dismiss)
                service.shownCardDismissed()
                #expect(try service.store.notification("c")?.state == .dismissed)
                #expect(service.shownSession?.log.events(named: "didReceive").first?.string("identifier") == "b")
                #expect(service.deckStatus == "1 more · n next · N previous · X dismiss all")
            }
        }

        @Test("A card dismissed in its session (a key, the extension, a script) gives way with no driver telling the center")
        func dismissedInItsSession() async throws {
            try await withService { service, _ in
                for id in ["a", "b"] { _ = try service.receive(Self.incoming(id)) }
                service.shownSession?.handle(.dismiss)
                // The center sees the `dismissed` event and shows the next on the main actor.
                var turns = 0
                while service.shownSession?.isDismissed == true, turns < 10_000 {
                    await Task.yield()
                    turns += 1
                }
                #expect(try service.store.notification("b")?.state == .dismissed)
                #expect(service.shownSession?.log.events(named: "didReceive").first?.string("identifier") == "a")
            }
        }

        @Test("An unknown app is refused before anything is stored")
        func unknownApp() async throws {
            try await withService { service, _ in
                var refused = false
                do { _ = try service.receive(Self.incoming("x", app: "Nope")) } catch { refused = "\(error)".contains("no app named \"Nope\"") }
                #expect(refused)
                let history = try service.store.history(limit: 10)
                #expect(history.isEmpty)
                #expect(service.shownSession == nil)
            }
        }

        @Test("Removal closes a removed shown card; a new center on the same store shows what was delivered")
        func removalAndRestore() async throws {
            try await withService { service, folder in
                for id in ["a", "b"] { _ = try service.receive(Self.incoming(id)) }
                _ = try service.remove(identifiers: ["a"])
                #expect(service.shownSession?.log.events(named: "didReceive").first?.string("identifier") == "b")
                await service.close()

                let engine = try MPVEngine(output: .null(untimed: true))
                let again = CenterService(
                    store: try CenterStore.open(folder: folder), apps: [Self.app], types: ExtensionTypes(), engine: engine)
                try again.restore()
                #expect(again.shownSession?.log.events(named: "didReceive").first?.string("identifier") == "b")
                _ = try again.remove(identifiers: nil)
                #expect(again.shownSession == nil)
                await again.close()
                await engine.shutdown()
            }
        }
    }
}

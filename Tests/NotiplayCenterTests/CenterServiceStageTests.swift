import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

/// What the stage's test extension is told and did.
@MainActor
enum StageScript {
    /// When set, the extension keeps its handler here instead of answering.
    static var holding = false
    static var handler: ((UNNotificationContent) -> Void)?
    static var edited: UNNotificationContent?
}

/// Stamps the title and attaches a one-second tone, as an iOS service extension that downloads
/// media does.
final class StampingService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let content = UNMutableNotificationContent(request.content)
        content.title += " [stamped]"
        if let tone = try? UNNotificationAttachment(identifier: "tone.wav", url: URL(fileURLWithPath: TestMedia.path("tone-1s.wav"))) {
            content.attachments.append(tone)
        }
        StageScript.edited = content.content
        if StageScript.holding { StageScript.handler = contentHandler } else { contentHandler(content.content) }
    }
}

extension RealEngine {
    /// Arrivals through their app's service extension: stored at once, changed, stored as changed,
    /// then shown; one removed meanwhile is never shown.
    @MainActor
    @Suite(.serialized) struct CenterServiceStageTests {
        static let payload = "{\"aps\":{\"alert\":{\"title\":\"Memo\"},\"mutable-content\":1},\"from\":\"Sam\"}"

        func withService(_ body: @MainActor (CenterService, [CenterService.Event]) async throws -> Void) async throws {
            let manifest = ExtensionManifest(
                bundleName: "Stamp", path: "Stamp.appex/Info.plist", point: .service, principalClass: "Test.Stamp",
                mainStoryboard: nil, typeName: "Test.Stamp", bundleIdentifier: nil, displayName: nil, categories: [],
                initialContentSizeRatio: 0, defaultContentHidden: false, overridesDefaultTitle: false,
                userInteractionEnabled: false, warnings: [])
            let app = CenterService.App(
                definition: AppDefinition(name: "Stamp", categories: [], extensionsDirectory: nil, forwardedActions: .printOnly),
                registry: try ExtensionRegistry([manifest]))
            var types = ExtensionTypes()
            types.registerService(StampingService.self, as: "Test.Stamp")
            let folder = try TestMedia.scratch().appendingPathComponent("store").path
            let engine = try MPVEngine(output: .null(untimed: true))
            let service = CenterService(store: try CenterStore.open(folder: folder), apps: [app], types: types, engine: engine)
            StageScript.holding = false
            StageScript.handler = nil
            try await body(service, [])
            await service.close()
            await engine.shutdown()
        }

        static func incoming(_ id: String) -> IncomingNotification {
            IncomingNotification(identifier: id, app: "Stamp", payload: payload)
        }

        /// Waits for the center's event that `matches`.
        func next(_ service: CenterService, _ matches: @escaping (CenterService.Event) -> Bool) async {
            var observation: CenterService.Observation?
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                observation = service.observe { event in
                    guard matches(event), let registered = observation else { return }
                    observation = nil
                    service.cancel(registered)
                    continuation.resume()
                }
            }
        }

        @Test("The extension's content is stored (payload and attachment bytes) before the card shows it")
        func storedThenShown() async throws {
            try await withService { service, _ in
                _ = try service.receive(Self.incoming("memo"))
                #expect(service.shownSession == nil, "shown before the extension finished")
                await next(service) { $0 == .shown(identifier: "memo") }
                let stored = try #require(try service.store.notification("memo"))
                let payload = try PayloadDecoder(sizeLimit: nil).decode(Array(stored.payload.utf8))
                #expect(payload.content.title == "Memo [stamped]")
                #expect(payload.mutableContent == false)
                #expect(payload.content.jsonUserInfo["from"] == .string("Sam"))
                #expect(stored.attachments.map(\.name) == ["tone.wav"])
                let bytes = try Data(contentsOf: URL(fileURLWithPath: service.store.attachmentPath(for: stored.attachments[0])))
                #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("tone-1s.wav")))))
                let shown = try #require(service.shownSession as? PresentationSession)
                #expect(shown.log.events(named: "didReceive").count == 1)
                #expect(shown.buttonState == .play, "the stored tone is the card's media")
            }
        }

        @Test("A notification removed while its extension runs is never queued or shown")
        func removedMeanwhile() async throws {
            try await withService { service, _ in
                StageScript.holding = true
                _ = try service.receive(Self.incoming("memo"))
                while StageScript.handler == nil { await Task.yield() }
                _ = try service.remove(identifiers: ["memo"])
                var events: [CenterService.Event] = []
                service.observe { events.append($0) }
                StageScript.handler?(try #require(StageScript.edited))
                await service.serviceStagesFinished()
                _ = try service.receive(IncomingNotification(identifier: "after", app: "Stamp", payload: "{\"aps\":{\"alert\":\"plain\"}}"))
                let centerEvents = events.filter { if case .presentation = $0 { false } else { true } }
                #expect(centerEvents.first == .arrived(identifier: "after", app: "Stamp", queued: 0), "\(events)")
                #expect(try service.store.notification("memo")?.state == .removed)
                #expect(try service.store.notification("memo")?.attachments.isEmpty == true)
            }
        }

        @Test("A sent payload's file:// media-url is refused (it has no folder) unless a media folder allows the file")
        func sentMediaURL() async throws {
            let scratch = try TestMedia.scratch()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let media = scratch.appendingPathComponent("media").path
            try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestMedia.path("tone-1s.wav"), toPath: media + "/tone.wav")
            let app = CenterService.App(
                definition: AppDefinition(name: "Plain", categories: [], extensionsDirectory: nil, forwardedActions: .printOnly),
                registry: .empty)
            let engine = try MPVEngine(output: .null(untimed: true))
            let service = CenterService(
                store: try CenterStore.open(folder: scratch.appendingPathComponent("store").path), apps: [app], types: ExtensionTypes(),
                engine: engine)
            service.serviceConfiguration.environment = HostEnvironment(mediaCacheDirectory: scratch.appendingPathComponent("cache").path)
            let payload = "{\"aps\":{\"alert\":{\"title\":\"Memo\"},\"mutable-content\":1},\"media-url\":\"file://\(media)/tone.wav\"}"
            _ = try service.receive(IncomingNotification(identifier: "refused", app: "Plain", payload: payload))
            await service.serviceStagesFinished()
            #expect(try service.store.notification("refused")?.attachments.isEmpty == true)
            service.serviceConfiguration.environment.mediaFolders = [media]
            _ = try service.receive(IncomingNotification(identifier: "allowed", app: "Plain", payload: payload))
            await service.serviceStagesFinished()
            #expect(try service.store.notification("allowed")?.attachments.map(\.name) == ["tone.wav"])
            await service.close()
            await engine.shutdown()
        }
    }
}

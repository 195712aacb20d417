import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCenterClient
import NotiplayCore
import NotiplayTestSupport
import Testing

/// Requests as a client's connection hands them to the center (`answer`), on a real store and a
/// silent engine: what the server refuses is refused before anything is stored.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct CenterRequestTests {
    let folder: String
    let engine = FakeEngine()

    init() throws {
        folder = try TestMedia.scratch().appendingPathComponent("store").path
    }

    func withCenter(_ body: @MainActor (CenterService) async throws -> Void) async throws {
        let service = CenterService(
            store: try CenterStore.open(folder: folder), apps: [CenterService.App(definition: .standard, registry: .empty)],
            types: ExtensionTypes(), engine: engine)
        try await body(service)
        await service.close()
    }

    func answer(_ service: CenterService, _ operation: CenterRequest.Operation) -> CenterReply {
        service.answer(CenterRequest(id: 1, operation: operation)) { _, _ in }
    }

    @Test("A send with an empty identifier is bad-request, and nothing is stored")
    func emptyIdentifier() async throws {
        try await withCenter { service in
            let send = SendOperation(payload: "{\"aps\":{\"alert\":\"x\"}}", app: "notiplay", identifier: "")
            let reply = answer(service, .send(send))
            guard case .failure(let failure) = reply else {
                Issue.record("accepted: \(reply)")
                return
            }
            #expect(failure.code == .badRequest && failure.message.contains("\"identifier\""), "\(failure)")
            let history = try service.store.history(limit: 10)
            #expect(history.isEmpty, "\(history)")
            #expect(service.shownSession == nil)
        }
    }

    @Test("authorize: an app the server does not know is unknown-app, naming it; a known one is granted, a denied one not")
    func authorize() async throws {
        try await withCenter { service in
            let unknown = answer(service, .authorize(AuthorizeOperation(app: "Nope")))
            guard case .failure(let failure) = unknown else {
                Issue.record("answered: \(unknown)")
                return
            }
            #expect(failure.code == .unknownApp && failure.message.contains("\"Nope\""), "\(failure)")
            #expect(answer(service, .authorize(AuthorizeOperation(app: "notiplay"))) == .authorized(AuthorizeReply(granted: true)))
            service.deniedApps = ["notiplay"]
            #expect(answer(service, .authorize(AuthorizeOperation(app: "notiplay"))) == .authorized(AuthorizeReply(granted: false)))
        }
    }
}

import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The notification center through the real binary: `serve --headless` in the background, real
/// clients (`send`, `list`, `remove`, `history`) on its socket, a real SQLite store.
@Suite("the notification center: serve, send, list, remove, history", .tags(.endToEnd))
struct CenterTests {
    let scratch: URL
    let environment: [String: String]

    init() throws {
        scratch = try E2E.scratch()
        environment = try E2E.centerEnvironment(scratch: scratch, runtimePrefix: "npe")
    }

    func notiplay(_ arguments: String...) async throws -> RunResult {
        try await run(try E2E.binary(), arguments, environment: environment)
    }

    /// Runs `body` with a headless server that has shown its (empty) deck; stops it after, and
    /// removes the scratch folders unless `keepingStore`.
    func withServer(
        _ arguments: [String] = [], keepingStore: Bool = false, _ body: (ChildProcess) async throws -> Void
    ) async throws {
        defer {
            if !keepingStore { E2E.remove(scratch) }
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        let server = ChildProcess(
            try E2E.binary(), ["serve", "--headless", "--events", "jsonl", "--audio", "null"] + arguments, environment: environment)
        try await server.start()
        let ready = await server.send(0, whenStdout: { String(decoding: $0, as: UTF8.self).contains("\"event\":\"shown\"") }, timeout: 30)
        try #require(ready != nil, "the server did not start")
        try await body(server)
        server.send(SIGTERM)
        let result = try await server.finish(timeout: 30)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }

    @Test("send is stored and shown; list, history and remove see it; a second server and no server are 69")
    func roundTrip() async throws {
        try await withServer { server in
            let sent = try await notiplay("send", E2E.media("voice-memo.apns"), "--attach", E2E.media("voice-memo.ogg"), "--id", "memo")
            #expect(sent.status == 0, "\(sent)")
            let other = try await notiplay("send", E2E.media("nagme.apns"), "--id", "nag")
            #expect(other.status == 0, "\(other)")

            let list = try await notiplay("list", "--json")
            #expect(list.status == 0, "\(list)")
            let listed = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]]
            #expect(listed?.compactMap { $0["identifier"] as? String } == ["memo", "nag"])

            let second = try await notiplay("serve", "--headless")
            #expect(second.status == 69, "\(second)")
            #expect(second.stderrText.contains("already running"), "\(second)")

            let removed = try await notiplay("remove", "nag")
            #expect(removed.status == 0 && removed.stdoutText == "nag\n", "\(removed)")
            let history = try await notiplay("history", "--json")
            let states = (try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])?
                .map { "\($0["identifier"] ?? "")=\($0["state"] ?? "")" }
            #expect(states == ["nag=removed", "memo=delivered"], "\(history)")
            // From 8,192 on, two readers write it: the same bytes.
            let long = try await notiplay("history", "--json", "--limit", "100000")
            #expect(long.status == 0 && long.stdout == history.stdout, "\(long)")

            let events = String(decoding: server.stdoutSoFar, as: UTF8.self)
            #expect(events.contains("\"event\":\"didReceive\",") && events.contains("\"identifier\":\"memo\""), "\(events)")
            #expect(events.contains("\"event\":\"removed\""), "\(events)")

            // The attachment was copied into the store: its bytes are there under their hash.
            let attachments = scratch.appendingPathComponent("state/notiplay/attachments").path
            let files = try FileManager.default.contentsOfDirectory(atPath: attachments).filter { !$0.hasPrefix(".") }
            let original = try Data(contentsOf: URL(fileURLWithPath: E2E.media("voice-memo.ogg")))
            #expect(files.count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: attachments + "/" + files[0])) == original)
        }
        let none = try await notiplay("send", E2E.media("voice-memo.apns"))
        #expect(none.status == 69, "\(none)")
        #expect(none.stderrText.contains("start one with `notiplay serve`"), "\(none)")
    }

    @Test("history reads the store itself: with no server, and with no store yet ([])")
    func historyWithoutServer() async throws {
        defer { E2E.remove(scratch) }
        let empty = try await notiplay("history", "--json")
        #expect(empty.status == 0 && empty.stdoutText == "[]\n", "\(empty)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("state/notiplay").path), "history made a store")
        try await withServer(keepingStore: true) { _ in
            let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "nag")
            #expect(sent.status == 0, "\(sent)")
        }
        let history = try await notiplay("history")
        #expect(history.status == 0 && history.stdoutText == "nag  delivered  notiplay  NagMe\n", "\(history)")
        let json = try await notiplay("history", "--json", "--limit", "1")
        let rows = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
        #expect(rows?.first?["identifier"] as? String == "nag" && rows?.count == 1, "\(json)")
    }

    @Test("history on a store it may not read: 73, naming the store (not an empty history)")
    func historyOfAnUnreadableStore() async throws {
        defer { E2E.remove(scratch) }
        let store = scratch.appendingPathComponent("state/notiplay").path
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: store + "/center.sqlite", contents: Data()))
        var command = [try E2E.binary(), "history", "--json"]
        if geteuid() == 0 {
            // Root reads anything: the reader is uid 65534, to whom the store (theirs) is closed.
            let setpriv = try #require(E2E.which("setpriv"), "setpriv is needed to read as another user when running as root")
            try #require(chown(store, 65534, 65534) == 0 && chown(store + "/center.sqlite", 65534, 65534) == 0)
            command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + command
        }
        try #require(chmod(store, 0) == 0)
        defer { chmod(store, 0o700) }
        let result = try await run(command[0], Array(command.dropFirst()), environment: environment)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrText.contains(store), "\(result)")
        #expect(result.stdoutText.isEmpty, "\(result)")
    }

    @Test("A bad payload is refused by send itself (65), an unknown app by the server (65), nothing stored")
    func refusals() async throws {
        try await withServer { _ in
            let bad = scratch.appendingPathComponent("bad.apns")
            try Data("{\"aps\": 3}".utf8).write(to: bad)
            let refused = try await notiplay("send", bad.path)
            #expect(refused.status == 65, "\(refused)")
            let unknown = try await notiplay("send", E2E.media("voice-memo.apns"), "--app", "Nope")
            #expect(unknown.status == 65, "\(unknown)")
            #expect(unknown.stderrText.contains("no app named \"Nope\""), "\(unknown)")
            let history = try await notiplay("history", "--json")
            #expect(history.stdoutText == "[]\n", "\(history)")
        }
    }
}

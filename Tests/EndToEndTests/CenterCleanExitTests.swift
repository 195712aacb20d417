import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The store as `serve` leaves it: whole in `center.sqlite` after every clean exit.
extension CenterTests {
    /// How a test ends a server.
    enum End: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sigterm, sigint, q
        var testDescription: String { rawValue }
    }

    @Test("serve checkpoints and closes its store on a clean exit: with -wal and -shm gone, nothing is lost", arguments: End.allCases)
    func cleanExitLeavesTheStoreWhole(end: End) async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        // Standard input: a FIFO held open here for reading and writing, so its end never comes
        // before the test says.
        let fifo = scratch.appendingPathComponent("keys").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let keys = open(fifo, O_RDWR | O_CLOEXEC)
        try #require(keys >= 0)
        defer { close(keys) }
        let server = ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" serve --headless --events jsonl --audio null < \"$1\"", try E2E.binary(), fifo],
            environment: environment)
        try await server.start()
        let ready = await server.send(0, whenStdout: { String(decoding: $0, as: UTF8.self).contains("\"event\":\"shown\"") }, timeout: 30)
        try #require(ready != nil, "the server did not start")
        for id in ["one", "two", "three"] {
            let sent = try await notiplay("send", E2E.media("voice-memo.apns"), "--attach", E2E.media("voice-memo.ogg"), "--id", id)
            try #require(sent.status == 0, "\(sent)")
        }
        switch end {
        case .sigterm: server.send(SIGTERM)
        case .sigint: server.send(SIGINT)
        case .q: _ = write(keys, "q\n", 2)
        }
        let result = try await server.finish(timeout: 30)
        let expected: Int32 = switch end {
        case .sigterm: 128 + SIGTERM
        case .sigint: 128 + SIGINT
        case .q: 0
        }
        #expect(result.status == expected, "\(result)")

        let store = scratch.appendingPathComponent("state/notiplay").path
        let wal = (try? FileManager.default.attributesOfItem(atPath: store + "/center.sqlite-wal"))?[.size] as? Int ?? 0
        #expect(wal == 0, "\(wal) bytes left in center.sqlite-wal")
        // What a careless clean-up does: the store must not depend on them.
        for suffix in ["-wal", "-shm"] { unlink(store + "/center.sqlite" + suffix) }
        let history = try await notiplay("history", "--json")
        let ids = (try? JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])?.compactMap { $0["identifier"] as? String }
        #expect(ids == ["three", "two", "one"], "\(history)")
    }
}

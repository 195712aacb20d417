import Foundation
import NotiplayTestSupport
import Testing

/// What `send` and `remove` take from the user: an identifier, and identifiers that name nothing
/// live.
extension CenterTests {
    /// A raw client: a `send` with an empty identifier; its reply's code printed.
    static let emptyIdentifierClient = #"""
        import json, socket, struct, sys
        def read(sock, n):
            data = b""
            while len(data) < n:
                chunk = sock.recv(n - len(data))
                if not chunk: raise ConnectionError("closed")
                data += chunk
            return data
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(60)
            sock.connect(sys.argv[1])
            body = json.dumps({"v": 1, "id": 1, "op": "send", "app": "notiplay", "identifier": "",
                               "payload": "{\"aps\":{\"alert\":\"x\"}}"}).encode()
            sock.sendall(struct.pack(">I", len(body)) + body)
            (length,) = struct.unpack(">I", read(sock, 4))
            reply = json.loads(read(sock, length))
            print((reply.get("error") or {}).get("code"))
        """#

    @Test("An empty identifier is refused: send --id \"\" exits 64, a raw send gets bad-request; nothing is stored")
    func emptyIdentifier() async throws {
        try await withServer { _ in
            let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "")
            #expect(sent.status == 64, "\(sent)")
            #expect(sent.stderrText.contains("--id"), "\(sent)")
            let socket = environment["XDG_RUNTIME_DIR"]! + "/notiplay/center.sock"
            let client = try await run("/usr/bin/env", ["python3", "-c", Self.emptyIdentifierClient, socket], timeout: 60, environment: environment)
            #expect(client.status == 0 && client.stdoutText == "bad-request\n", "\(client)")
            let history = try await notiplay("history", "--json")
            #expect(history.status == 0 && history.stdoutText == "[]\n", "\(history)")
        }
    }

    @Test("remove says which identifiers name nothing live: 0 when one was removed, 66 when none was; --all of nothing is 0")
    func removeUnknown() async throws {
        try await withServer { _ in
            for id in ["nag", "other"] {
                let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", id)
                #expect(sent.status == 0, "\(sent)")
            }
            let some = try await notiplay("remove", "nag", "ghost")
            #expect(some.status == 0 && some.stdoutText == "nag\n", "\(some)")
            #expect(some.stderrLines.contains { $0.hasSuffix("ghost: no pending or delivered notification has that identifier") }, "\(some)")
            let none = try await notiplay("remove", "nag", "ghost\u{1B}[31m")
            #expect(none.status == 66 && none.stdoutText.isEmpty, "\(none)")
            #expect(none.stderrLines.count == 2, "\(none)")
            #expect(none.stderrLines.contains { $0.hasSuffix("nag: no pending or delivered notification has that identifier") }, "\(none)")
            #expect(!none.stderrText.contains("\u{1B}"), "\(none)")
            let all = try await notiplay("remove", "--all")
            #expect(all.status == 0 && all.stdoutText == "other\n" && all.stderrText.isEmpty, "\(all)")
            let nothing = try await notiplay("remove", "--all")
            #expect(nothing.status == 0 && nothing.stdoutText.isEmpty && nothing.stderrText.isEmpty, "\(nothing)")
        }
    }
}

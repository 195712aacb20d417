import Foundation
import NotiplayTestSupport
import Testing

/// The server checks the attachments a client sends as `send` checks files: a raw client that
/// sends anything gets `invalid-payload`, and nothing of it is stored.
extension CenterTests {
    /// A raw client: one `send` frame per attachment case, each reply printed as a JSON line.
    static let attachmentsClient = #"""
        wav = lambda size: b"RIFF" + struct.pack("<I", size - 8) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16) + b"data" + struct.pack("<I", size - 44) + bytes(size - 44)
        png = b"\x89PNG\r\n\x1a\n" + bytes(100)
        cases = [("zeros.wav", "audio", bytes(11 * 1048576)), ("big.wav", "audio", wav(6 * 1000 * 1000)),
                 ("empty.wav", "audio", b""), ("text.wav", "audio", b"just some text, not audio\n" * 10),
                 ("picture.wav", "audio", png), ("fine.wav", "audio", wav(4000))]
        with connect(sys.argv[1]) as sock:
            for number, (name, kind, data) in enumerate(cases, 1):
                frame(sock, {"v": 1, "id": number, "op": "send", "app": "notiplay", "identifier": name,
                             "payload": "{\"aps\":{\"alert\":\"x\"}}",
                             "attachments": [{"name": name, "kind": kind, "data": base64.b64encode(data).decode()}]})
                answer = reply(sock)
                print(json.dumps({"name": name, "ok": answer.get("ok"), "code": (answer.get("error") or {}).get("code"),
                                  "message": (answer.get("error") or {}).get("message")}), flush=True)
        """#

    @Test("Attachments a raw client sends that send would refuse (zeros, a WAV over 5 MB, empty, text, an image sent as audio): invalid-payload, nothing stored")
    func serverChecksAttachments() async throws {
        try await withServer(keepingStore: true) { _ in
            let client = try await rawClient(Self.attachmentsClient, timeout: 120)
            #expect(client.status == 0, "\(client)")
            let replies = client.stdoutText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let byName = Dictionary(uniqueKeysWithValues: replies.map { ($0["name"] as? String ?? "", $0) })
            for name in ["zeros.wav", "big.wav", "empty.wav", "text.wav", "picture.wav"] {
                #expect(byName[name]?["code"] as? String == "invalid-payload", "\(name): \(client.stdoutText)")
                #expect((byName[name]?["message"] as? String)?.hasPrefix("attachment \(name): ") == true, "\(name): \(client.stdoutText)")
            }
            #expect((byName["big.wav"]?["message"] as? String)?.contains("the limit for audio attachments is 5.0 MB") == true)
            #expect(byName["fine.wav"]?["ok"] as? Bool == true, "\(client.stdoutText)")
            let listed = try await notiplay("list")
            #expect(listed.stdoutText.split(separator: "\n").map { $0.split(separator: " ").first ?? "" } == ["fine.wav"], "\(listed)")
        }
        defer { E2E.remove(scratch) }
        let attachments = scratch.appendingPathComponent("state/notiplay/attachments")
        let stored = (FileManager.default.enumerator(atPath: attachments.path)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix("/") && (try? FileManager.default.attributesOfItem(atPath: attachments.appendingPathComponent($0).path)[.type] as? FileAttributeType) == .typeRegular }
        #expect(stored.count == 1, "stored: \(stored)")
    }
}

import Foundation
import NotiplayTestSupport
import Testing

/// Bidirectional controls and C1 controls in what a client sent never reach a terminal raw
/// through notiplay's JSON: `serve --events jsonl`, `list --json`, `history --json` write them
/// as `\uXXXX`, the same text once parsed.
extension CenterTests {
    @Test("An identifier holding U+202E and a payload holding U+2066 and a raw U+009B are escaped in every JSON output")
    func bidiAndC1AreEscapedInJSON() async throws {
        let identifier = "memo\u{202E}txt.exe"
        let payloadFile = scratch.appendingPathComponent("bidi.apns")
        // A raw U+009B (valid in a JSON string) and an isolate, in a custom key and the title.
        let payload = "{\"aps\":{\"alert\":{\"title\":\"Hi \u{2066}there\u{2069}\",\"body\":\"b\"}},\"note\":\"x\u{9B}31m\"}"
        try Data(payload.utf8).write(to: payloadFile)
        try await withServer { server in
            let sent = try await notiplay("send", payloadFile.path, "--id", identifier)
            #expect(sent.status == 0, "\(sent)")
            let list = try await notiplay("list", "--json")
            let history = try await notiplay("history", "--json")
            for (name, output) in [("list", list.stdout), ("history", history.stdout)] {
                Self.expectEscaped(output, name)
                let parsed = try JSONSerialization.jsonObject(with: output) as? [[String: Any]]
                #expect(parsed?.first?["identifier"] as? String == identifier, "\(name)")
            }
            let historyPayload = (try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])?.first?["payload"]
            #expect((historyPayload as? [String: Any])?["note"] as? String == "x\u{9B}31m")
            let events = server.stdoutSoFar
            #expect(String(decoding: events, as: UTF8.self).contains("memo\\u202etxt.exe"))
            Self.expectEscaped(events, "serve --events jsonl")
        }
    }

    /// `output` holds none of the scalars written raw, and is UTF-8.
    static func expectEscaped(_ output: Data, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = String(decoding: output, as: UTF8.self)
        let raw = text.unicodeScalars.filter { [0x202E, 0x2066, 0x2069, 0x9B].contains($0.value) }
        #expect(raw.isEmpty, "\(name) wrote \(raw.map { String($0.value, radix: 16) }) raw", sourceLocation: sourceLocation)
    }
}

import Foundation
import NotiplayCenter
import NotiplayCore
import NotiplayTestSupport
import Testing
import NotiplayCenterClient

/// The article Protocol.md shows what the code does: its JSON examples are read by the codec
/// (each reply as the reply to the request before it, each error as the server's own refusal of
/// that request), and its Python example runs against a server.
@Suite struct ProtocolArticleTests {
    static let article: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/NotiplayCenterClient/NotiplayCenterClient.docc/Protocol.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The bodies of the article's code blocks in `language`, in order.
    static func blocks(_ language: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everyJSONExampleIsWhatTheCodeReadsAndWrites() throws {
        let blocks = Self.blocks("json")
        #expect(blocks.count >= 18)
        var request: CenterMessageCodec.DecodedRequest?
        var checked = (requests: 0, replies: 0, events: 0)
        for text in blocks {
            let body = Array(text.utf8)
            let json = try JSONParser.parse(body)
            if json["op"] != nil {
                request = try CenterMessageCodec.decodeRequest(body)
                checked.requests += 1
            } else if json["event"] != nil {
                let message = try CenterMessageCodec.decodeServerMessage(body, replyType: PingReply.self)
                guard case .event = message else { Issue.record("not an event: \(text)"); continue }
                checked.events += 1
            } else {
                try Self.checkReply(body, to: request, text: text)
                request = nil
                checked.replies += 1
            }
        }
        #expect(checked.requests == 12 && checked.replies == 13 && checked.events == 1, "\(checked)")
    }

    /// `body` is a reply: to `request` if there is one (a failure being exactly the server's
    /// refusal of it), else a reply of some request.
    static func checkReply(_ body: [UInt8], to request: CenterMessageCodec.DecodedRequest?, text: String) throws {
        let json = try JSONParser.parse(body)
        #expect(json["v"] == .integer(1) && json["ok"] != nil, "\(text)")
        switch request {
        case .refused(let id, let failure):
            #expect(try CenterMessageCodec.decodeServerMessage(body, replyType: PingReply.self) == .reply(id: id, .failure(failure)))
        case .request(let request):
            let ok: Bool
            switch request.operation {
            case .send: ok = try succeeds(body, id: request.id, as: SendReply.self)
            case .list: ok = try succeeds(body, id: request.id, as: ListReply.self)
            case .remove: ok = try succeeds(body, id: request.id, as: RemoveReply.self)
            case .history: ok = try succeeds(body, id: request.id, as: HistoryReply.self)
            case .ping: ok = try succeeds(body, id: request.id, as: PingReply.self)
            case .focus: ok = try succeeds(body, id: request.id, as: FocusReply.self)
            case .clock: ok = try succeeds(body, id: request.id, as: ClockReply.self)
            case .categories: ok = try succeeds(body, id: request.id, as: CategoriesReply.self)
            case .authorize: ok = try succeeds(body, id: request.id, as: AuthorizeReply.self)
            case .reload: ok = try succeeds(body, id: request.id, as: ReloadReply.self)
            }
            #expect(ok, "\(text) is not the reply to \(request)")
        case nil:
            guard case .reply = try CenterMessageCodec.decodeServerMessage(body, replyType: PingReply.self) else {
                Issue.record("not a reply: \(text)")
                return
            }
        }
    }

    static func succeeds<Reply: Decodable & Sendable & Equatable>(_ body: [UInt8], id: Int, as: Reply.Type) throws -> Bool {
        if case .reply(id, .success) = try CenterMessageCodec.decodeServerMessage(body, replyType: Reply.self) { true } else { false }
    }

    @Test(.enabled(if: pythonPath != nil, "python3 is not installed: the article's example cannot run"))
    func thePythonExampleRuns() async throws {
        let code = try #require(Self.blocks("python").first)
        let center = try TestCenter()
        defer { center.finish() }
        try Data(code.utf8).write(to: URL(fileURLWithPath: center.scratch + "/client.py"))
        try Data(#"{"aps": {"alert": "Lunch"}}"#.utf8).write(to: URL(fileURLWithPath: center.scratch + "/p.apns"))
        let child = await TestChild.start(
            pythonPath!, [center.scratch + "/client.py", center.scratch + "/p.apns"], environment: ["XDG_RUNTIME_DIR": center.scratch])
        #expect(await child.wait(seconds: 60) == .exited(0), "\(String(decoding: child.standardError, as: UTF8.self))")
        let lines = String(decoding: child.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(try lines.map { try JSONParser.parse(String($0))["ok"] } == [.bool(true), .bool(true)])
        #expect(center.handler.requests.map(\.operation.name) == ["ping", "send"])
    }
}

import Foundation
import NotiplayCenter
import NotiplayCore
import Testing
import NotiplayCenterClient

/// Requests, replies and events as JSON, and what a server says about requests it cannot serve.
@Suite struct ProtocolMessageTests {
    static let operations: [CenterRequest.Operation] = [
        .send(SendOperation(
            payload: #"{"aps":{"alert":"Lunch"}}"#, app: "Kitchen", identifier: "lunch",
            attachments: [AttachmentUpload(name: "chime.wav", kind: .audio, data: Data([0, 1, 2, 255]))], wait: true)),
        .send(SendOperation(payload: "{}", app: "Kitchen")),
        .list(ListOperation()),
        .list(ListOperation(state: .pending)),
        .list(ListOperation(state: .removed)),
        .remove(RemoveOperation(.identifiers(["a", "b"]))),
        .remove(RemoveOperation(.all, state: .delivered)),
        .history(HistoryOperation(limit: 7)),
        .ping(PingOperation()),
    ]

    @Test(arguments: operations) func everyOperationRoundTrips(_ operation: CenterRequest.Operation) throws {
        let request = CenterRequest(id: 42, operation: operation)
        let frame = try CenterMessageCodec.frame(request)
        var reader = FrameReader()
        reader.append(frame)
        let body = try #require(try reader.nextFrame())
        #expect(try CenterMessageCodec.decodeRequest(body) == .request(request))
        let json = try JSONParser.parse(body)
        #expect(json["v"] == .integer(1) && json["id"] == .integer(42) && json["op"] == .string(operation.name))
    }

    @Test func sendIsWrittenAsTheArticleShowsIt() throws {
        let body = try Self.body(CenterMessageCodec.frame(CenterRequest(id: 1, operation: Self.operations[0])))
        let json = try JSONParser.parse(body)
        #expect(json["payload"]?.stringValue == #"{"aps":{"alert":"Lunch"}}"#)
        #expect(json["app"]?.stringValue == "Kitchen" && json["identifier"]?.stringValue == "lunch")
        #expect(json["wait"] == .bool(true))
        let attachment = try #require(json["attachments"]?.arrayValue?.first)
        #expect(attachment["name"]?.stringValue == "chime.wav" && attachment["kind"]?.stringValue == "audio")
        #expect(attachment["data"]?.stringValue == "AAEC/w==")
    }

    @Test func optionalMembersMayBeLeftOut() throws {
        let send = try CenterMessageCodec.decodeRequest(Array(#"{"v":1,"id":3,"op":"send","payload":"{}","app":"A"}"#.utf8))
        #expect(send == .request(CenterRequest(id: 3, operation: .send(SendOperation(payload: "{}", app: "A")))))
        let history = try CenterMessageCodec.decodeRequest(Array(#"{"v":1,"id":4,"op":"history"}"#.utf8))
        #expect(history == .request(CenterRequest(id: 4, operation: .history(HistoryOperation(limit: 50)))))
    }

    static let replies: [CenterReply] = [
        .sent(SendReply(identifier: "lunch", state: .pending)),
        .listed(ListReply(notifications: [sampleSummary("a", state: .delivered)])),
        .removed(RemoveReply(removed: ["a"])),
        .history(HistoryReply(notifications: [sampleSummary("b", state: .dismissed)])),
        .pong(PingReply(pid: 99)),
    ]

    @Test func everyReplyRoundTrips() throws {
        try Self.roundTrip(Self.replies[0], as: SendReply.self)
        try Self.roundTrip(Self.replies[1], as: ListReply.self)
        try Self.roundTrip(Self.replies[2], as: RemoveReply.self)
        try Self.roundTrip(Self.replies[3], as: HistoryReply.self)
        try Self.roundTrip(Self.replies[4], as: PingReply.self)
        let json = try JSONParser.parse(Self.body(CenterMessageCodec.frame(Self.replies[1], to: 5)))
        #expect(json["ok"] == .bool(true) && json["id"] == .integer(5))
        let summary = try #require(json["notifications"]?.arrayValue?.first)
        #expect(summary["date"]?.stringValue == "2027-01-15T08:00:00Z" && summary["thread"]?.stringValue == "kitchen")
    }

    @Test func aFailureIsOkFalseWithCodeAndMessage() throws {
        let failure = CenterFailure(.invalidPayload, "aps is missing")
        let body = try Self.body(CenterMessageCodec.frame(.failure(failure), to: nil))
        let json = try JSONParser.parse(body)
        #expect(json["ok"] == .bool(false) && json["id"] == .null)
        #expect(json.errorCode == "invalid-payload" && json["error"]?["message"]?.stringValue == "aps is missing")
        #expect(try CenterMessageCodec.decodeServerMessage(body, replyType: SendReply.self) == .reply(id: nil, .failure(failure)))
    }

    @Test func anEventRoundTrips() throws {
        let event = CenterEvent.response(ResponseEvent(requestID: 9, identifier: "lunch", action: "eat", text: "soon"))
        let body = try Self.body(CenterMessageCodec.frame(event))
        let json = try JSONParser.parse(body)
        #expect(json["event"]?.stringValue == "response" && json["id"] == .integer(9) && json["action"]?.stringValue == "eat")
        #expect(try CenterMessageCodec.decodeServerMessage(body, replyType: PingReply.self) == .event(event))
        let newer = Array(#"{"v":1,"event":"thunder","id":1}"#.utf8)
        #expect(try CenterMessageCodec.decodeServerMessage(newer, replyType: PingReply.self) == .unknownEvent("thunder"))
    }

    @Test(arguments: [
        (#"{"v":2,"id":7,"op":"ping"}"#, 7, "unsupported-version", "version 2"),
        (#"{"id":7,"op":"ping"}"#, 7, "unsupported-version", "no \"v\""),
        (#"{"v":"1","id":7,"op":"ping"}"#, 7, "unsupported-version", "not an integer"),
        (#"{"v":1,"id":7,"op":"frobnicate"}"#, 7, "unknown-op", "frobnicate"),
        (#"{"v":1,"id":7}"#, 7, "bad-request", "\"op\""),
        (#"{"v":1,"op":"ping"}"#, nil, "bad-request", "\"id\""),
        (#"[1,2]"#, nil, "bad-request", "JSON object"),
        (#"{"v":1,"id":7,"op":"send","app":"A"}"#, 7, "bad-request", "\"payload\" is missing"),
        (#"{"v":1,"id":7,"op":"send","app":"A","payload":3}"#, 7, "bad-request", "\"payload\" is not a string"),
        (#"{"v":1,"id":7,"op":"send","app":"A","payload":"{}","attachments":[{"name":"x","kind":"audio","data":"@@"}]}"#,
         7, "bad-request", "attachments[0].data"),
        (#"{"v":1,"id":7,"op":"remove"}"#, 7, "bad-request", "either"),
        (#"{"v":1,"id":7,"op":"remove","identifiers":["a"],"all":true}"#, 7, "bad-request", "either"),
        (#"{"v":1,"id":7,"op":"history","limit":0}"#, 7, "bad-request", "\"limit\""),
        (#"{"v":1,"id":7,"op":"list","state":"lost"}"#, 7, "bad-request", "\"state\""),
    ] as [(String, Int?, String, String)])
    func requestsTheServerCannotServeAreRefusedWithAReason(json: String, id: Int?, code: String, mentions: String) throws {
        let decoded = try CenterMessageCodec.decodeRequest(Array(json.utf8))
        guard case .refused(let refusedID, let failure) = decoded else {
            Issue.record("served \(json)")
            return
        }
        #expect(refusedID == id)
        #expect(failure.code.rawValue == code)
        #expect(failure.message.contains(mentions), "\(failure.message)")
        #expect((failure.versions != nil) == (code == "unsupported-version"))
    }

    static func body(_ frame: [UInt8]) throws -> [UInt8] {
        var reader = FrameReader()
        reader.append(frame)
        return try #require(try reader.nextFrame())
    }

    static func roundTrip<Reply: Decodable & Sendable & Equatable>(_ reply: CenterReply, as type: Reply.Type) throws {
        let body = try body(CenterMessageCodec.frame(reply, to: 3))
        guard case .reply(3, .success(let decoded)) = try CenterMessageCodec.decodeServerMessage(body, replyType: Reply.self) else {
            Issue.record("\(reply) did not come back")
            return
        }
        let expected: any Equatable =
            switch reply {
            case .sent(let r): r
            case .listed(let r): r
            case .removed(let r): r
            case .history(let r): r
            case .pong(let r): r
            case .focus(let r): r
            case .clock(let r): r
            case .categories(let r): r
            case .authorized(let r): r
            case .reloaded(let r): r
            case .failure(let f): f
            }
        #expect((expected as? Reply) == decoded)
    }
}

/// A notification's summary with a whole-second date (ISO 8601 keeps whole seconds).
func sampleSummary(_ identifier: String, state: NotificationState) -> NotificationSummary {
    NotificationSummary(
        identifier: identifier, app: "Tests", state: state, date: Date(timeIntervalSince1970: 1_800_000_000),
        title: "Lunch", body: "Soup", threadIdentifier: "kitchen")
}

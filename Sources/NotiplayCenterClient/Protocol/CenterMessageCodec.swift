#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns messages into frame bodies and back: requests, replies and events as the JSON the
/// article <doc:Protocol> describes.
///
/// A frame body is checked here for UTF-8 and JSON (``FrameError``); JSON that is not a valid
/// request becomes a failure to send back (``DecodedRequest/refused(id:_:)``), which leaves
/// the connection usable.
public enum CenterMessageCodec {
    /// The frame for `request`: `{"v": 1, "id": N, "op": "…", …}`.
    /// - Throws: ``FrameError/oversized(length:limit:)`` when it is too large to send.
    public static func frame(_ request: CenterRequest) throws(FrameError) -> [UInt8] {
        try frame(RequestEnvelope(request: request))
    }

    /// The frame for `reply` to the request `id` (`nil` when the request's id could not be
    /// read): `{"v": 1, "id": N, "ok": true, …}` or `{…, "ok": false, "error": {…}}`.
    /// - Throws: ``FrameError/oversized(length:limit:)`` when it is too large to send.
    public static func frame(_ reply: CenterReply, to id: Int?) throws(FrameError) -> [UInt8] {
        try frame(ReplyEnvelope(id: id, reply: reply))
    }

    /// The frame for `event`: `{"v": 1, "event": "…", "id": N, …}`.
    /// - Throws: ``FrameError/oversized(length:limit:)`` when it is too large to send.
    public static func frame(_ event: CenterEvent) throws(FrameError) -> [UInt8] {
        try frame(EventEnvelope(event: event))
    }

    /// A request read from a frame body, or why it cannot be served.
    public enum DecodedRequest: Sendable, Equatable {
        /// A request the server speaks.
        case request(CenterRequest)
        /// JSON that is not a request the server serves: the failure to reply with, to the
        /// request's id if it could be read.
        case refused(id: Int?, CenterFailure)
    }

    /// Reads a request from a frame body.
    /// - Throws: ``FrameError/invalidUTF8`` or ``FrameError/invalidJSON(_:)``: the bytes are
    ///   not a message at all.
    public static func decodeRequest(_ body: [UInt8]) throws(FrameError) -> DecodedRequest {
        let data = try validData(body)
        do {
            return try CenterProtocol.makeDecoder().decode(RequestDecoding.self, from: data).outcome
        } catch {
            // `RequestDecoding` catches everything but what the JSON reader throws first.
            throw .invalidJSON(describe(error))
        }
    }

    /// What a server sends: a reply (whose successful form is `Reply`), or an event.
    public enum ServerMessage<Reply: Decodable & Sendable & Equatable>: Sendable, Equatable {
        /// A reply to the request `id` (`nil` when the server could not read the request's id).
        case reply(id: Int?, Result<Reply, CenterFailure>)
        /// An event pushed to this connection.
        case event(CenterEvent)
        /// An event this build does not know, by its name (a newer server's; clients skip it).
        case unknownEvent(String)
        /// JSON that is neither a reply nor an event: what is wrong with it.
        case malformed(String)
    }

    /// Reads what a server sent, expecting a reply of type `Reply`.
    /// - Throws: ``FrameError/invalidUTF8`` or ``FrameError/invalidJSON(_:)``.
    public static func decodeServerMessage<Reply: Decodable & Sendable & Equatable>(
        _ body: [UInt8], replyType: Reply.Type = Reply.self
    ) throws(FrameError) -> ServerMessage<Reply> {
        let data = try validData(body)
        do {
            return try CenterProtocol.makeDecoder().decode(ServerMessageDecoding<Reply>.self, from: data).message
        } catch {
            throw .invalidJSON(describe(error))
        }
    }

    // MARK: Helpers

    private static func frame(_ message: some Encodable) throws(FrameError) -> [UInt8] {
        let json: Data
        do {
            json = try CenterProtocol.makeEncoder().encode(message)
        } catch {
            // Nothing in these messages can fail to encode (no floats, no custom encoders).
            preconditionFailure("a center message could not be encoded: \(error)")
        }
        return try FrameWriter.frame(json)
    }

    private static func validData(_ body: [UInt8]) throws(FrameError) -> Data {
        guard String(validating: body, as: UTF8.self) != nil else { throw .invalidUTF8 }
        return Data(body)
    }

    /// A decoding error in a person's words: which member, and what is wrong with it.
    package static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return "\"\(text)\""
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) is null"
        case .typeMismatch(let type, let context):
            let what = context.codingPath.isEmpty ? "the message" : path(context.codingPath)
            return "\(what) is not \(typeName(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? context.debugDescription : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "an integer"
        case is Data.Type: "base64 text"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

// MARK: The envelopes

/// The members every message has.
private enum EnvelopeKeys: String, CodingKey {
    case v, id, op, ok, error, event
}

private struct RequestEnvelope: Encodable {
    package let request: CenterRequest

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EnvelopeKeys.self)
        try container.encode(CenterProtocol.version, forKey: .v)
        try container.encode(request.id, forKey: .id)
        try container.encode(request.operation.name, forKey: .op)
        switch request.operation {
        case .send(let operation): try operation.encode(to: encoder)
        case .list(let operation): try operation.encode(to: encoder)
        case .remove(let operation): try operation.encode(to: encoder)
        case .history(let operation): try operation.encode(to: encoder)
        case .ping(let operation): try operation.encode(to: encoder)
        case .focus(let operation): try operation.encode(to: encoder)
        case .clock(let operation): try operation.encode(to: encoder)
        case .categories(let operation): try operation.encode(to: encoder)
        case .authorize(let operation): try operation.encode(to: encoder)
        case .reload(let operation): try operation.encode(to: encoder)
        }
    }
}

private struct ReplyEnvelope: Encodable {
    package let id: Int?
    package let reply: CenterReply

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EnvelopeKeys.self)
        try container.encode(CenterProtocol.version, forKey: .v)
        try container.encode(id, forKey: .id)
        if case .failure(let failure) = reply {
            try container.encode(false, forKey: .ok)
            try container.encode(failure, forKey: .error)
            return
        }
        try container.encode(true, forKey: .ok)
        switch reply {
        case .sent(let body): try body.encode(to: encoder)
        case .listed(let body): try body.encode(to: encoder)
        case .removed(let body): try body.encode(to: encoder)
        case .history(let body): try body.encode(to: encoder)
        case .pong(let body): try body.encode(to: encoder)
        case .focus(let body): try body.encode(to: encoder)
        case .clock(let body): try body.encode(to: encoder)
        case .categories(let body): try body.encode(to: encoder)
        case .authorized(let body): try body.encode(to: encoder)
        case .reloaded(let body): try body.encode(to: encoder)
        case .failure: break
        }
    }
}

private struct EventEnvelope: Encodable {
    package let event: CenterEvent

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EnvelopeKeys.self)
        try container.encode(CenterProtocol.version, forKey: .v)
        try container.encode(event.name, forKey: .event)
        switch event {
        case .response(let response): try response.encode(to: encoder)
        }
    }
}

/// Reads a request without throwing once the JSON has been read: every problem with its
/// content becomes a failure to reply with.
private struct RequestDecoding: Decodable {
    package let outcome: CenterMessageCodec.DecodedRequest

    package init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: EnvelopeKeys.self) else {
            outcome = .refused(id: nil, CenterFailure(.badRequest, "a request is a JSON object"))
            return
        }
        let id = (try? container.decodeIfPresent(Int.self, forKey: .id)) ?? nil
        let version = (try? container.decodeIfPresent(Int.self, forKey: .v)) ?? nil
        let speaks = CenterProtocol.versions.map(String.init).joined(separator: ", ")
        guard let version, CenterProtocol.versions.contains(version) else {
            let asked = container.contains(.v) ? (version.map { "version \($0)" } ?? "a \"v\" that is not an integer") : "no \"v\""
            outcome = .refused(id: id, CenterFailure(
                .unsupportedVersion, "the request has \(asked); this server speaks version \(speaks)",
                versions: CenterProtocol.versions))
            return
        }
        guard let id else {
            outcome = .refused(id: nil, CenterFailure(.badRequest, "a request needs an integer \"id\""))
            return
        }
        guard let name = (try? container.decodeIfPresent(String.self, forKey: .op)) ?? nil else {
            outcome = .refused(id: id, CenterFailure(.badRequest, "a request needs an \"op\" string"))
            return
        }
        do {
            let operation: CenterRequest.Operation
            switch name {
            case SendOperation.name: operation = .send(try SendOperation(from: decoder))
            case ListOperation.name: operation = .list(try ListOperation(from: decoder))
            case RemoveOperation.name: operation = .remove(try RemoveOperation(from: decoder))
            case HistoryOperation.name: operation = .history(try HistoryOperation(from: decoder))
            case PingOperation.name: operation = .ping(try PingOperation(from: decoder))
            case FocusOperation.name: operation = .focus(try FocusOperation(from: decoder))
            case ClockOperation.name: operation = .clock(try ClockOperation(from: decoder))
            case CategoriesOperation.name: operation = .categories(try CategoriesOperation(from: decoder))
            case AuthorizeOperation.name: operation = .authorize(try AuthorizeOperation(from: decoder))
            case ReloadOperation.name: operation = .reload(try ReloadOperation(from: decoder))
            default:
                let known = CenterRequest.Operation.names.joined(separator: ", ")
                outcome = .refused(id: id, CenterFailure(.unknownOperation, "unknown op \"\(name)\"; this server knows \(known)"))
                return
            }
            outcome = .request(CenterRequest(id: id, operation: operation))
        } catch {
            outcome = .refused(id: id, CenterFailure(.badRequest, "\(name): \(CenterMessageCodec.describe(error))"))
        }
    }
}

/// Reads a reply or an event without throwing once the JSON has been read.
private struct ServerMessageDecoding<Reply: Decodable & Sendable & Equatable>: Decodable {
    package let message: CenterMessageCodec.ServerMessage<Reply>

    package init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: EnvelopeKeys.self) else {
            message = .malformed("a message is a JSON object")
            return
        }
        do {
            if let name = try container.decodeIfPresent(String.self, forKey: .event) {
                guard name == ResponseEvent.name else {
                    message = .unknownEvent(name)
                    return
                }
                message = .event(.response(try ResponseEvent(from: decoder)))
                return
            }
            let id = try container.decodeIfPresent(Int.self, forKey: .id)
            if try container.decode(Bool.self, forKey: .ok) {
                message = .reply(id: id, .success(try Reply(from: decoder)))
            } else {
                message = .reply(id: id, .failure(try container.decode(CenterFailure.self, forKey: .error)))
            }
        } catch {
            message = .malformed(CenterMessageCodec.describe(error))
        }
    }
}

import FuzzSupport
import NotiplayCenterClient

/// Bytes arriving on a center connection, in chunks: cut into frames (`FrameReader`), each
/// decoded as a request (what the server does) and as a server message (what a client does).
///
/// Settings: the chunk size (1–64 bytes), and which reply the client expects. Then the stream.
///
/// Oracles: the frames are those of the stream however it is chunked (compared with a plain
/// reading of the stream), an oversized header is refused exactly when it announces more than
/// the limit; a request or a reply or event that decodes, encoded again, decodes into the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = LibFuzzer.bytes(data, size)
    guard bytes.count >= 2 else { return 0 }
    let chunk = 1 + Int(bytes[0]) % 64
    let replyKind = bytes[1]
    let stream = Array(bytes[2...])
    let limit = 1 << 12

    var reader = FrameReader(maximumLength: limit)
    var frames: [[UInt8]] = []
    var refused: FrameError?
    var offset = 0
    reading: while offset < stream.count {
        reader.append(stream[offset..<min(stream.count, offset + chunk)])
        offset += chunk
        do {
            while let frame = try reader.nextFrame() { frames.append(frame) }
        } catch {
            refused = error
            break reading
        }
    }
    let (expectedFrames, expectedRefusal) = plainFrames(stream, limit: limit)
    if frames != expectedFrames || refused != expectedRefusal {
        oracleFailure("FrameReader read \(frames.count) frames (\(String(describing: refused))); the stream holds \(expectedFrames.count) (\(String(describing: expectedRefusal)))")
    }
    if refused == nil, reader.isMidFrame != (stream.count > frames.reduce(0) { $0 + 4 + $1.count }) {
        oracleFailure("isMidFrame is \(reader.isMidFrame) with \(reader.bufferedByteCount) bytes held")
    }
    for frame in frames {
        checkRequest(frame)
        switch replyKind % 5 {
        case 0: checkServerMessage(frame, SendReply.self, CenterReply.sent)
        case 1: checkServerMessage(frame, ListReply.self, CenterReply.listed)
        case 2: checkServerMessage(frame, RemoveReply.self, CenterReply.removed)
        case 3: checkServerMessage(frame, HistoryReply.self, CenterReply.history)
        default: checkServerMessage(frame, PingReply.self, CenterReply.pong)
        }
    }
    return 0
}

/// The frames of `stream` read in one go, and the error that stops the reading, if any.
func plainFrames(_ stream: [UInt8], limit: Int) -> ([[UInt8]], FrameError?) {
    var frames: [[UInt8]] = []
    var at = 0
    while stream.count - at >= 4 {
        let length = Int(stream[at]) << 24 | Int(stream[at + 1]) << 16 | Int(stream[at + 2]) << 8 | Int(stream[at + 3])
        if length > limit { return (frames, .oversized(length: length, limit: limit)) }
        guard stream.count - at - 4 >= length else { break }
        frames.append(Array(stream[(at + 4)..<(at + 4 + length)]))
        at += 4 + length
    }
    return (frames, nil)
}

/// The body of the one frame in `frame`.
func body(_ frame: [UInt8]) -> [UInt8] {
    Array(frame.dropFirst(4))
}

/// A request that decodes, framed again, decodes into the same request.
func checkRequest(_ frame: [UInt8]) {
    guard case .request(let request)? = try? CenterMessageCodec.decodeRequest(frame) else { return }
    let again: CenterMessageCodec.DecodedRequest
    do {
        again = try CenterMessageCodec.decodeRequest(body(try CenterMessageCodec.frame(request)))
    } catch {
        oracleFailure("request \(request) encoded does not decode: \(error)")
    }
    if again != .request(request) { oracleFailure("request \(request) encoded decodes as \(again)") }
}

/// A reply or event that decodes, framed again, decodes into the same.
func checkServerMessage<Reply: Codable & Sendable & Equatable>(
    _ frame: [UInt8], _ type: Reply.Type, _ wrap: (Reply) -> CenterReply
) {
    guard let message = try? CenterMessageCodec.decodeServerMessage(frame, replyType: Reply.self) else { return }
    let encoded: [UInt8]
    do {
        switch message {
        case .reply(let id, .success(let reply)): encoded = try CenterMessageCodec.frame(wrap(reply), to: id)
        case .reply(let id, .failure(let failure)): encoded = try CenterMessageCodec.frame(.failure(failure), to: id)
        case .event(let event): encoded = try CenterMessageCodec.frame(event)
        case .unknownEvent, .malformed: return
        }
    } catch {
        return  // too large to send again: nothing to compare
    }
    let again = try? CenterMessageCodec.decodeServerMessage(body(encoded), replyType: Reply.self)
    if again != message { oracleFailure("\(message) encoded decodes as \(String(describing: again))") }
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}

@testable import NotiplayTerminal
import Testing

/// The viewer socket's frames: what round-trips, and what is refused before it is read.
@Suite("Viewer protocol frames")
struct ViewerProtocolTests {
    private func decode(_ bytes: [UInt8], limit: Int = 1 << 16) throws(ViewerProtocolError) -> [ViewerMessage] {
        var reader = ViewerFrameReader(limit: limit)
        reader.append(bytes)
        var messages: [ViewerMessage] = []
        while let message = try reader.next() { messages.append(message) }
        return messages
    }

    @Test("Every message round-trips, one byte at a time too; only the passed variables travel")
    func roundTrip() throws {
        let messages: [ViewerMessage] = [
            .hello(columns: 132, rows: 43, environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"]),
            .input(Array("q\u{1B}[<0;3;4M".utf8)), .size(columns: 40, rows: 10), .output([0x1B, 0x5B, 0x48]),
            .detached("detached: another terminal attached"), .input([]),
        ]
        let bytes = messages.flatMap(\.frame)
        #expect(try decode(bytes) == messages)
        var reader = ViewerFrameReader(limit: 1 << 16)
        var found: [ViewerMessage] = []
        for byte in bytes {
            reader.append([byte])
            while let message = try reader.next() { found.append(message) }
        }
        #expect(found == messages && !reader.isMidFrame)
        let hello = ViewerMessage.hello(columns: 80, rows: 24, environment: ["TERM": "xterm", "PATH": "/bin", "SECRET": "x"])
        #expect(try decode(hello.frame) == [.hello(columns: 80, rows: 24, environment: ["TERM": "xterm"])])
    }

    @Test("Refused: an unknown kind, a length over the limit (before its bytes come), a hello without the magic, a zero size")
    func refused() {
        #expect(throws: ViewerProtocolError.self) { try decode(Array("GET / HTTP/1.1\r\n".utf8)) }
        #expect(throws: ViewerProtocolError.tooLarge(0xFFFF_FFFF, limit: 1 << 16)) { try decode([0x02, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: ViewerProtocolError.self) { try decode([0x01, 0, 0, 0, 4, 0, 80, 0, 24]) }
        #expect(throws: ViewerProtocolError.self) { try decode([0x03, 0, 0, 0, 4, 0, 0, 0, 24]) }
        #expect(throws: ViewerProtocolError.self) { try decode([0x03, 0, 0, 0, 3, 0, 80, 0]) }
    }
}

import Foundation
@testable import NotiplayCenter
import NotiplayCore
import Testing
import NotiplayCenterClient

/// Bad input at a real socket: each case leaves the server serving, and a second client is
/// served afterwards.
@Suite struct SocketBadInputTests {
    /// A second client completes a round trip.
    static func secondClientIsServed(_ center: TestCenter) async throws {
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        #expect(try await client.perform(PingOperation()).pid == getpid())
    }

    @Test func garbageGetsAnErrorReplyAndTheConnectionIsClosed() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        // A small length, then bytes that are not JSON.
        let raw = try RawConnection(path: center.path)
        try raw.send([0, 0, 0, 5] + Array("hello".utf8))
        let reply = try #require(try await raw.nextMessage())
        #expect(reply["ok"] == .bool(false) && reply["id"] == .null && reply.errorCode == "bad-frame")
        #expect(await raw.isClosedByServer())
        #expect(await center.log.closeReason() == .badFrame)
        // Bytes that are not UTF-8.
        let other = try RawConnection(path: center.path)
        try other.send([0, 0, 0, 3, 0x7B, 0xFF, 0x7D])
        #expect(try await other.nextMessage()?.errorCode == "bad-frame")
        #expect(await other.isClosedByServer())
        try await Self.secondClientIsServed(center)
    }

    @Test func textThatIsNotAFrameAtAllReadsAsAnOversizedLength() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        try raw.send(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        let reply = try #require(try await raw.nextMessage())
        #expect(reply.errorCode == "frame-too-large")
        #expect(reply["error"]?["message"]?.stringValue?.contains("1195725856 bytes") == true)
        #expect(await raw.isClosedByServer())
        #expect(await center.log.closeReason() == .frameTooLarge)
        try await Self.secondClientIsServed(center)
    }

    @Test func anOversizedLengthGetsAnErrorReplyAndTheConnectionIsClosed() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        let over = CenterProtocol.maximumFrameLength + 1
        try raw.send([UInt8(over >> 24), UInt8(over >> 16 & 0xFF), UInt8(over >> 8 & 0xFF), UInt8(over & 0xFF)])
        #expect(try await raw.nextMessage()?.errorCode == "frame-too-large")
        #expect(await raw.isClosedByServer())
        try await Self.secondClientIsServed(center)
    }

    @Test func aTruncatedFrameThenCloseIsCleanedUp() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        let frame = try FrameWriter.frame(Array(#"{"v":1,"id":1,"op":"ping"}"#.utf8))
        try raw.send(Array(frame.prefix(10)))
        raw.close()
        #expect(await center.log.closeReason() == .vanishedMidFrame)
        #expect(center.handler.requests.isEmpty)
        try await Self.secondClientIsServed(center)
    }

    @Test func aClientThatVanishesMidFrameIsCleanedUp() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        // Only the header of a large frame, and part of its body: the server waits for the rest.
        let raw = try RawConnection(path: center.path)
        try raw.send([0, 1, 0, 0] + Array(#"{"v":1,"id":1,"op":"send","payload":""#.utf8))
        _ = await center.log.wait { ActivityLog.acceptedCount($0) == 1 }
        try await Self.secondClientIsServed(center)  // served while the first is mid-frame
        raw.close()
        let first = try #require(center.log.items.compactMap { if case .accepted(let peer) = $0 { peer.connection } else { nil } }.first)
        #expect(await center.log.closeReason(where: { $0 == first }) == .vanishedMidFrame)
        try await Self.secondClientIsServed(center)
    }

    @Test func anUnknownVersionGetsAnErrorNamingTheVersionsAndTheConnectionStaysUsable() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        try raw.sendFrame(#"{"v":2,"id":1,"op":"ping","future":"yes"}"#)
        let reply = try #require(try await raw.nextMessage())
        #expect(reply["ok"] == .bool(false) && reply["id"] == .integer(1) && reply["v"] == .integer(1))
        #expect(reply.errorCode == "unsupported-version")
        #expect(reply["error"]?["versions"] == .array([.integer(1)]))
        try raw.sendFrame(#"{"v":1,"id":2,"op":"ping"}"#)
        let pong = try #require(try await raw.nextMessage())
        #expect(pong["ok"] == .bool(true) && pong["id"] == .integer(2) && pong["versions"] == .array([.integer(1)]))
        try await Self.secondClientIsServed(center)
    }

    @Test func anUnknownOpGetsAnErrorAndTheConnectionStaysUsable() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        try raw.sendFrame(#"{"v":1,"id":1,"op":"frobnicate"}"#)
        let reply = try #require(try await raw.nextMessage())
        #expect(reply.errorCode == "unknown-op" && reply["id"] == .integer(1))
        try raw.sendFrame(#"{"v":1,"id":2,"op":"send","app":"A"}"#)
        #expect(try await raw.nextMessage()?.errorCode == "bad-request")
        try raw.sendFrame(#"{"v":1,"id":3,"op":"ping"}"#)
        #expect(try await raw.nextMessage()?["ok"] == .bool(true))
        try await Self.secondClientIsServed(center)
    }

    @Test func aPartialFrameWithNothingMoreIsClosedAfterTheTimeLimit() async throws {
        let center = try TestCenter(partialFrameTimeout: .milliseconds(200))
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        try raw.send([0, 0, 0, 30, 0x7B])
        let reply = try #require(try await raw.nextMessage())
        #expect(reply.errorCode == "timed-out")
        #expect(await raw.isClosedByServer())
        #expect(await center.log.closeReason() == .timedOut)
        try await Self.secondClientIsServed(center)
    }

    @Test func aConnectionThatSaysNothingIsNotTimedOut() async throws {
        let center = try TestCenter(partialFrameTimeout: .milliseconds(1))
        defer { center.finish() }
        let silent = try RawConnection(path: center.path)
        defer { silent.close() }
        _ = await center.log.wait { ActivityLog.acceptedCount($0) == 1 }
        // A connection accepted later, with a partial frame, times out: a deadline the silent
        // one had would have passed before it, and been served in the same turn or earlier.
        let partial = try RawConnection(path: center.path)
        try partial.send([0, 0, 0, 30])
        #expect(await partial.isClosedByServer())
        let ids = center.log.items.compactMap { if case .accepted(let peer) = $0 { peer.connection } else { nil } }
        #expect(await center.log.closeReason(where: { $0 == ids[1] }) == .timedOut)
        #expect(!center.log.items.contains { if case .closed(ids[0], _) = $0 { true } else { false } })
        try await Self.secondClientIsServed(center)
    }

    @Test func aThousandSilentConnectionsDelayNobody() async throws {
        allowDescriptors(2 * 1000)
        let center = try TestCenter()
        defer { center.finish() }
        var silent: [RawConnection] = []
        for _ in 0..<1000 { silent.append(try RawConnection(path: center.path)) }
        defer { for connection in silent { connection.close() } }
        #expect(await center.log.wait { ActivityLog.acceptedCount($0) == 1000 })
        try await Self.secondClientIsServed(center)
        // Only the second client's connection has closed (or is closing) so far.
        #expect(center.log.items.filter { if case .closed = $0 { true } else { false } }.count <= 1)
    }
}

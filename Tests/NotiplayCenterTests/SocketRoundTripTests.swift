import Foundation
@testable import NotiplayCenter
import NotiplayCore
import Testing
import NotiplayCenterClient

/// Every operation through a real server and a real client, and events pushed after replies.
@Suite struct SocketRoundTripTests {
    @Test func everyOperationRoundTrips() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }

        let attachment = AttachmentUpload(name: "chime.wav", kind: .audio, data: Data((0..<3000).map { UInt8($0 % 251) }))
        let send = SendOperation(payload: #"{"aps":{"alert":"Lunch"}}"#, app: "Kitchen", identifier: "lunch", attachments: [attachment])
        #expect(try await client.perform(send) == SendReply(identifier: "lunch", state: .delivered))
        #expect(try await client.perform(SendOperation(payload: "{}", app: "Kitchen")).identifier == "made-2")
        #expect(try await client.perform(ListOperation(state: .pending)) == ListReply(notifications: [sampleSummary("listed", state: .pending)]))
        #expect(try await client.perform(RemoveOperation(.identifiers(["a", "b"]))) == RemoveReply(removed: ["a", "b"]))
        #expect(try await client.perform(RemoveOperation(.all)) == RemoveReply(removed: ["everything"]))
        #expect(try await client.perform(HistoryOperation(limit: 2)).notifications.map(\.identifier) == ["old-0", "old-1"])
        let pong = try await client.perform(PingOperation())
        #expect(pong.versions == CenterProtocol.versions && pong.pid == getpid())

        // The handler saw the requests as sent, numbered from 1, from this process and user.
        let requests = center.handler.requests
        #expect(requests.map(\.id) == Array(1...7))
        #expect(requests.first == CenterRequest(id: 1, operation: .send(send)))
        let peer = try #require(center.handler.peers.first)
        #expect(peer.credentials.pid == getpid() && peer.credentials.uid == geteuid() && peer.credentials.gid == getegid())
        #expect(Set(center.handler.peers.map(\.connection)).count == 1)
    }

    @Test func theBlockingCallsWorkFromAThreadOfTheirOwn() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let path = center.path
        let reply: Result<PingReply, CenterSocketError> = await onOwnThread {
            Result { () throws(CenterSocketError) in
                let client = try CenterClient.connect(to: path)
                defer { client.close() }
                return try client.perform(PingOperation(), timeout: .seconds(30))
            }
        }
        #expect(try reply.get().pid == getpid())
    }

    @Test func aFailureFromTheHandlerIsThrownAndTheConnectionGoesOn() async throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let server = try CenterSocketServer(path: scratch + "/c.sock") { request, _ in
            if case .send = request.operation { return .failure(CenterFailure(.invalidPayload, "aps is missing")) }
            return .pong(PingReply(pid: 1))
        }
        defer { server.stop() }
        let client = try await CenterClient.connect(to: server.path)
        defer { client.close() }
        await #expect(throws: CenterSocketError.failed(CenterFailure(.invalidPayload, "aps is missing"))) {
            try await client.perform(SendOperation(payload: "{}", app: "A"))
        }
        #expect(try await client.perform(PingOperation()).pid == 1)
    }

    @Test func aHandlerThatAnswersWithTheWrongKindOfReplyIsAnInternalFailure() async throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let server = try CenterSocketServer(path: scratch + "/c.sock") { _, _ in .pong(PingReply(pid: 1)) }
        defer { server.stop() }
        let client = try await CenterClient.connect(to: server.path)
        defer { client.close() }
        do {
            _ = try await client.perform(HistoryOperation())
            Issue.record("a pong was taken for a history reply")
        } catch {
            guard case .failed(let failure) = error else { throw error }
            #expect(failure.code == .internal)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        var bytes: [UInt8] = []
        for id in 1...20 {
            let op = id % 2 == 0 ? #""op":"ping""# : #""op":"history","limit":1"#
            bytes += try FrameWriter.frame(Array(#"{"v":1,"id":\#(id),\#(op)}"#.utf8))
        }
        try raw.send(bytes)  // all twenty in one write
        var ids: [Int] = []
        for _ in 1...20 { ids.append(try #require(try await raw.nextMessage()?["id"]?.intValue)) }
        #expect(ids == Array(1...20))
    }

    @Test func anEventPushedWhileItsRequestIsHandledComesAfterTheReply() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        let sending = Task { try await client.perform(SendOperation(payload: "{}", app: "A", identifier: "hold", wait: true)) }
        await center.handler.waitUntilHolding()
        let connection = try #require(center.handler.peers.first?.connection)
        let response = CenterEvent.response(ResponseEvent(requestID: 1, identifier: "hold", action: ResponseEvent.defaultAction))
        center.server.push(response, to: connection)
        center.handler.release()
        #expect(try await sending.value.identifier == "hold")
        #expect(try await client.nextEvent(timeout: .seconds(30)) == response)

        // A raw client sees the same order on the wire.
        let raw = try RawConnection(path: center.path)
        try raw.sendFrame(#"{"v":1,"id":5,"op":"send","payload":"{}","app":"A","identifier":"hold","wait":true}"#)
        await center.handler.waitUntilHolding()
        let rawConnection = try #require(center.handler.peers.last?.connection)
        center.server.push(.response(ResponseEvent(requestID: 5, identifier: "hold", action: "snooze", text: "later")), to: rawConnection)
        center.handler.release()
        let first = try #require(try await raw.nextMessage())
        let second = try #require(try await raw.nextMessage())
        #expect(first["ok"] == .bool(true) && first["id"] == .integer(5))
        #expect(second["event"]?.stringValue == "response" && second["id"] == .integer(5) && second["text"]?.stringValue == "later")
    }

    @Test func anEventForAClosedConnectionIsDropped() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let client = try await CenterClient.connect(to: center.path)
        _ = try await client.perform(PingOperation())
        let connection = try #require(center.handler.peers.first?.connection)
        client.close()
        #expect(await center.log.closeReason() == .peerClosed)
        center.server.push(.response(ResponseEvent(requestID: 1, identifier: "x", action: "y")), to: connection)
        let other = try await CenterClient.connect(to: center.path)
        defer { other.close() }
        #expect(try await other.perform(PingOperation()).pid == getpid())
    }

    @Test func aHalfClosedConnectionStillGetsItsReplies() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        try raw.sendFrame(#"{"v":1,"id":1,"op":"ping"}"#)
        raw.shutdownWrite()
        #expect(try await raw.nextMessage()?["id"] == .integer(1))
        #expect(try await raw.nextMessage() == nil)
        #expect(await center.log.closeReason() == .peerClosed)
    }

    @Test func waitingForAnEventEndsWhenTheServerStops() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        _ = try await client.perform(PingOperation())
        let waiting = Task { try await client.nextEvent() }
        center.server.stop()
        await #expect(throws: CenterSocketError.connectionClosed(path: center.path)) { try await waiting.value }
    }

    @Test func cancellingAWaitShutsTheConnection() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        _ = try await client.perform(PingOperation())
        let waiting = Task { try await client.nextEvent() }
        waiting.cancel()
        await #expect(throws: CenterSocketError.cancelled) { try await waiting.value }
    }

    @Test func aReplyThatCameTooLateIsSkippedByTheNextRequest() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        // The handler holds the send until released: the client's wait ends first, whatever the
        // machine's speed.
        await #expect(throws: CenterSocketError.timedOut(waitingFor: "reply to send", after: .milliseconds(50))) {
            try await client.perform(SendOperation(payload: "{}", app: "A", identifier: "hold"), timeout: .milliseconds(50))
        }
        await center.handler.waitUntilHolding()
        center.handler.release()
        #expect(try await client.perform(PingOperation()).pid == getpid())
    }

    @Test func aWaitForAnEventTimesOut() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        await #expect(throws: CenterSocketError.timedOut(waitingFor: "event", after: .milliseconds(50))) {
            try await client.nextEvent(timeout: .milliseconds(50))
        }
    }
}

@testable import NotiplayCenter
import SystemPackage  // FileDescriptor, which NotiplayCenter builds on (a dependency of it, not declared for the tests)
import Testing
import NotiplayCenterClient
import NotiplaySystem  // Posix.PollEvents, what a connection waits for

/// The deadlines a connection gives the poll loop: none unless it is mid-frame (or closing with
/// output unread), so that silent connections cost no wake-ups.
@Suite struct SocketConnectionTests {
    static let peer = CenterPeer(connection: CenterConnectionID(rawValue: 1), credentials: PeerCredentials(pid: 1, uid: 0, gid: 0))

    @Test func onlyAPartialFrameHasADeadline() throws {
        let start = ContinuousClock.now
        let connection = ServerConnection(peer: Self.peer, socket: .standardError, now: start)
        let timeout = Duration.seconds(10)
        #expect(connection.deadline(timeout: timeout) == nil)
        #expect(connection.interest == .readable)

        connection.reader.append([0, 0, 0, 2, 0x7B])
        #expect(connection.deadline(timeout: timeout) == start + timeout)

        // A whole frame waits for the handler: the socket is not read, and no clock runs.
        connection.reader.append([0x7D, 0, 0])
        while let frame = try connection.reader.nextFrame() { connection.waiting.append(frame) }
        #expect(connection.interest == [] && connection.deadline(timeout: timeout) == nil)

        // Handed to the handler: reading resumes, and the partial frame's clock restarts then.
        let later = start + .seconds(3)
        #expect(connection.takeNextRequest(now: later) == [0x7B, 0x7D])
        #expect(connection.deadline(timeout: timeout) == later + timeout)
        #expect(connection.takeNextRequest(now: later) == nil)  // one in flight at a time
    }

    @Test func eventsPushedDuringARequestWaitForItsReply() {
        let connection = ServerConnection(peer: Self.peer, socket: .standardError, now: .now)
        connection.waiting = [[1], [2]]
        _ = connection.takeNextRequest(now: .now)
        connection.queue([9], afterReplyInFlight: true)
        #expect(connection.output.isEmpty)
        connection.finishRequest(reply: [1])
        #expect(connection.output.pendingCount == 2 && connection.afterReply.isEmpty)
        connection.queue([8], afterReplyInFlight: true)  // nothing in flight: at once
        #expect(connection.output.pendingCount == 3)
    }

    @Test func closingDropsWaitingRequestsAndSendsTheLastFrameAfterTheReplyInFlight() {
        let connection = ServerConnection(peer: Self.peer, socket: .standardError, now: .now)
        connection.waiting = [[1], [2]]
        _ = connection.takeNextRequest(now: .now)
        connection.beginClosing(.frameTooLarge, lastFrame: [7], now: .now)
        #expect(connection.waiting.isEmpty && connection.afterReply == [[7]] && !connection.isFinished)
        connection.finishRequest(reply: [1])
        #expect(connection.output.pendingCount == 2)
    }
}

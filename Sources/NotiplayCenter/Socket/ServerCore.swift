import NotiplaySystem
import Synchronization
import SystemPackage
import NotiplayCenterClient

/// What the server's poll thread shares with everything else: the handler, the settings, and a
/// mailbox of finished replies and pushed events, with the pipe that wakes the poll thread when
/// a letter arrives.
final class ServerCore: Sendable {
    /// Something for the poll thread to do.
    enum Letter: Sendable {
        /// The handler answered a connection's request; `closeAfter` when the request was not a
        /// message at all.
        case replied(CenterConnectionID, frame: [UInt8], closeAfter: Bool)
        /// An event to push to a connection.
        case push(CenterConnectionID, frame: [UInt8])
    }

    private struct Mailbox {
        var letters: [Letter] = []
        var stopRequested = false
        /// A byte is in the pipe that the poll thread has not read yet.
        var wakePending = false
        /// The pipe is closed: nothing more is posted.
        var closed = false
    }

    let handler: CenterSocketServer.Handler
    let configuration: CenterSocketServer.Configuration
    let policy: PeerPolicy
    private let mailbox = Mutex(Mailbox())
    private let wakeWriteEnd: FileDescriptor
    /// The pipe's read end, which the poll thread polls; closed with the write end, after the
    /// thread has ended (a write to a pipe with no reader would raise `SIGPIPE`).
    let wakeReadEnd: FileDescriptor
    /// How many times the poll loop has woken (what the idle test reads).
    let wakeCount = Atomic<Int>(0)

    init(
        handler: @escaping CenterSocketServer.Handler, configuration: CenterSocketServer.Configuration,
        wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    ) {
        self.handler = handler
        self.configuration = configuration
        self.policy = PeerPolicy(userID: configuration.userID)
        self.wakeWriteEnd = wake.writeEnd
        self.wakeReadEnd = wake.readEnd
    }

    /// Reports what the server did to whoever asked to know.
    func report(_ activity: CenterSocketServer.Activity) {
        configuration.activity?(activity)
    }

    // MARK: The mailbox

    /// Leaves a letter for the poll thread and wakes it.
    func post(_ letter: Letter) {
        mailbox.withLock { box in
            guard !box.closed else { return }
            box.letters.append(letter)
            wake(&box)
        }
    }

    /// Asks the poll thread to stop.
    func requestStop() {
        mailbox.withLock { box in
            guard !box.closed else { return }
            box.stopRequested = true
            wake(&box)
        }
    }

    /// Takes the letters (on the poll thread, once the pipe is drained), and whether to stop.
    func collect() -> (letters: [Letter], stop: Bool) {
        mailbox.withLock { box in
            box.wakePending = false
            defer { box.letters.removeAll() }
            return (box.letters, box.stopRequested)
        }
    }

    /// Closes the pipe once the poll thread has ended; later letters are dropped.
    func closeMailbox() {
        mailbox.withLock { box in
            guard !box.closed else { return }
            box.closed = true
            Posix.close(wakeWriteEnd)
            Posix.close(wakeReadEnd)
        }
    }

    /// One byte per batch of letters: the pipe never fills, and a full pipe would still wake
    /// the loop. Under the lock, so that the descriptor cannot be closed meanwhile.
    private func wake(_ box: inout Mailbox) {
        guard !box.wakePending else { return }
        box.wakePending = true
        var byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: &byte) { try Posix.write(wakeWriteEnd, $0) }
    }

    // MARK: Serving a request (outside the poll thread)

    /// Decodes a frame, has the handler answer it, and posts the reply's frame.
    func serve(_ body: [UInt8], from peer: CenterPeer) async {
        let decoded: CenterMessageCodec.DecodedRequest
        do {
            decoded = try CenterMessageCodec.decodeRequest(body)
        } catch {
            let failure = CenterFailure(.badFrame, error.description)
            post(.replied(peer.connection, frame: Self.frame(.failure(failure), to: nil), closeAfter: true))
            return
        }
        switch decoded {
        case .refused(let id, let failure):
            post(.replied(peer.connection, frame: Self.frame(.failure(failure), to: id), closeAfter: false))
        case .request(let request):
            var reply = await handler(request, peer)
            if !reply.answers(request.operation) {
                let name = request.operation.name
                reply = .failure(CenterFailure(.internal, "the server answered \(name) with the wrong kind of reply"))
            }
            post(.replied(peer.connection, frame: Self.frame(reply, to: request.id), closeAfter: false))
        }
    }

    /// The frame of `reply`, or of an `internal` failure when the reply is too large to send.
    static func frame(_ reply: CenterReply, to id: Int?) -> [UInt8] {
        do {
            return try CenterMessageCodec.frame(reply, to: id)
        } catch {
            let failure = CenterFailure(.internal, "the reply is too large to send: \(error)")
            return (try? CenterMessageCodec.frame(.failure(failure), to: id)) ?? []
        }
    }
}

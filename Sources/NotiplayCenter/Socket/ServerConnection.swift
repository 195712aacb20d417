import NotiplaySystem
import SystemPackage
import NotiplayCenterClient

/// One client connection, as the poll thread keeps it (only that thread touches it).
///
/// Requests are handed to the handler one at a time, in the order they came; while one is in
/// flight, complete frames that follow wait here and the socket is not read (the kernel's buffer
/// holds the rest: a client that pipelines is slowed, not buffered without bound). Events pushed
/// while a request is in flight wait for its reply, so that a `send` with `"wait": true` always
/// gets its reply before its response event.
final class ServerConnection {
    let peer: CenterPeer
    let socket: FileDescriptor
    var reader = FrameReader()
    /// Complete frames not yet handed to the handler.
    var waiting: [[UInt8]] = []
    /// Whether the handler is working on one of this connection's requests.
    var inFlight = false
    /// Frames to send once the reply in flight has gone out (events, a last error).
    var afterReply: [[UInt8]] = []
    var output = OutputQueue()
    /// When bytes last came (what a partial frame's time limit counts from).
    var lastInput: ContinuousClock.Instant
    /// The peer shut its side: serve what came, then close.
    var inputEnded = false
    /// Why and since when the connection is closing (its last reply, an error, is going out).
    var closing: (reason: CenterSocketServer.CloseReason, since: ContinuousClock.Instant)?

    /// Output beyond which the connection is not read until its peer reads.
    static let outputLimit = 1 << 20

    init(peer: CenterPeer, socket: FileDescriptor, now: ContinuousClock.Instant) {
        self.peer = peer
        self.socket = socket
        self.lastInput = now
    }

    /// Whether the socket is read: not while a complete frame waits, the peer does not read
    /// its replies, or the connection is on its way out.
    var wantsInput: Bool {
        !inputEnded && closing == nil && waiting.isEmpty && output.pendingCount < Self.outputLimit
    }

    /// What to poll the socket for.
    var interest: Posix.PollEvents {
        var events: Posix.PollEvents = []
        if wantsInput { events.insert(.readable) }
        if !output.isEmpty { events.insert(.writable) }
        return events
    }

    /// When the connection is closed for want of progress: a partial frame with no byte for
    /// `timeout`, or a last reply the peer has not read for `timeout`.
    func deadline(timeout: Duration) -> ContinuousClock.Instant? {
        if let closing { return output.isEmpty ? nil : closing.since + timeout }
        return wantsInput && reader.isMidFrame ? lastInput + timeout : nil
    }

    /// Whether everything owed has been sent and nothing more will be read.
    var isFinished: Bool {
        (inputEnded || closing != nil) && !inFlight && waiting.isEmpty && afterReply.isEmpty && output.isEmpty
    }

    /// Queues a frame to send: after the reply in flight if `afterReplyInFlight` and there is
    /// one, else now.
    func queue(_ frame: [UInt8], afterReplyInFlight: Bool) {
        if afterReplyInFlight && inFlight { afterReply.append(frame) } else { output.append(frame) }
    }

    /// The reply in flight is done: queues it, then what waited for it.
    func finishRequest(reply: [UInt8]) {
        inFlight = false
        output.append(reply)
        for frame in afterReply { output.append(frame) }
        afterReply.removeAll()
    }

    /// The next frame for the handler, if there is one and none is in flight.
    func takeNextRequest(now: ContinuousClock.Instant) -> [UInt8]? {
        guard !inFlight, closing == nil, !waiting.isEmpty else { return nil }
        inFlight = true
        let frame = waiting.removeFirst()
        if waiting.isEmpty { lastInput = now }  // reading resumes: a partial frame's clock restarts
        return frame
    }

    /// Starts closing: nothing more is read or served; `lastFrame` (an error) goes out after
    /// the reply in flight.
    func beginClosing(_ reason: CenterSocketServer.CloseReason, lastFrame: [UInt8]?, now: ContinuousClock.Instant) {
        guard closing == nil else { return }
        closing = (reason, now)
        waiting.removeAll()
        if let lastFrame { queue(lastFrame, afterReplyInFlight: true) }
    }
}

/// Bytes waiting to be written to a non-blocking socket.
struct OutputQueue {
    private var bytes: [UInt8] = []
    private var sent = 0

    /// Whether everything was written.
    var isEmpty: Bool { sent == bytes.count }
    /// How many bytes wait.
    var pendingCount: Int { bytes.count - sent }

    mutating func append(_ frame: [UInt8]) {
        bytes.append(contentsOf: frame)
    }

    /// Writes as much as the socket takes now.
    /// - Throws: The failed `send` (the peer is gone).
    mutating func write(to socket: FileDescriptor) throws(SystemCallError) {
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { all in
                Result { () throws(SystemCallError) in try Posix.send(socket, UnsafeRawBufferPointer(rebasing: all[sent...])) }
            }
            guard let count = try result.get() else { break }
            sent += count
        }
        if sent == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
            sent = 0
        } else if sent >= bytes.count / 2 {
            bytes.removeSubrange(0..<sent)
            sent = 0
        }
    }
}

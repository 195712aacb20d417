import NotiplaySystem
import Synchronization
package import SystemPackage

/// A connection to the notification center's server, for a short command (`notiplay send`)
/// or an app's `UNUserNotificationCenter`.
///
/// ```swift
/// let client = try CenterClient.connect(to: socketPath)
/// defer { client.close() }
/// let sent = try client.perform(SendOperation(payload: text, app: "Lunch", wait: true))
/// let event = try client.nextEvent()   // the user's response
/// ```
///
/// The calls block their thread until the reply comes or the time limit passes. Each has an
/// `async` twin that blocks a thread of its own instead of one of the few Swift concurrency runs
/// tasks on; cancelling its task shuts the connection (the call throws
/// ``CenterSocketError/cancelled``). One call runs at a time; others wait their turn.
public final class CenterClient: Sendable {
    /// The socket's path.
    public let path: String
    private let state: Mutex<State>
    /// The descriptor while it is open; its own lock, so that ``close()`` and cancellation can
    /// shut it while a call blocks on it (holding `state`).
    private let descriptor: Mutex<FileDescriptor?>
    private let interrupted = Atomic<Bool>(false)

    private struct State {
        let socket: FileDescriptor
        var reader = FrameReader()
        var nextID = 1
        /// Events that came while a reply was awaited.
        var events: [CenterEvent] = []
        var closed = false
    }

    private init(path: String, socket: FileDescriptor) {
        self.path = path
        self.state = Mutex(State(socket: socket))
        self.descriptor = Mutex(socket)
    }

    deinit {
        if let socket = descriptor.withLock({ $0 }) { Posix.close(socket) }
    }

    /// Connects to the server at `path`, once it has checked that the server is the user's own:
    /// the socket's folder must be a real folder of this process's user, closed to others (0700,
    /// as `notiplay serve` makes it), and the process listening must run as that user
    /// (`SO_PEERCRED`). Nothing is sent before both checks pass.
    /// - Parameters:
    ///   - path: The socket's path.
    ///   - timeout: How long to wait when the server's backlog is full.
    /// - Throws: ``CenterSocketError/noServer(path:)`` when nothing is at `path` or nobody
    ///   listens on it; ``CenterSocketError/untrusted(path:reason:)`` when the folder or the
    ///   server is not the user's own; ``CenterSocketError/timedOut(waitingFor:after:)``,
    ///   ``CenterSocketError/pathTooLong(path:limit:)`` or
    ///   ``CenterSocketError/system(call:errno:path:)`` otherwise.
    public static func connect(to path: String, timeout: Duration = .seconds(5)) throws(CenterSocketError) -> CenterClient {
        try connect(to: path, timeout: timeout, trusting: .thisProcess)
    }

    /// Connects as ``connect(to:timeout:)`` does, trusting the folder and the server of the user
    /// `trust` names (tests name another user).
    package static func connect(
        to path: String, timeout: Duration = .seconds(5), trusting trust: ServerTrust
    ) throws(CenterSocketError) -> CenterClient {
        let socket = try connectedSocket(to: path, timeout: timeout, trusting: trust)
        return CenterClient(path: path, socket: socket)
    }

    /// A non-blocking socket connected to the server at `path` (the center's, or its viewer
    /// socket), once the folder and the server are found to be `trust`'s user's own: what
    /// ``connect(to:timeout:trusting:)`` speaks the protocol on.
    package static func connectedSocket(
        to path: String, timeout: Duration = .seconds(5), trusting trust: ServerTrust = .thisProcess
    ) throws(CenterSocketError) -> FileDescriptor {
        guard path.utf8.count <= Posix.maximumSocketPathLength else {
            throw .pathTooLong(path: path, limit: Posix.maximumSocketPathLength)
        }
        try trust.checkFolder(of: path)
        let socket: FileDescriptor
        do { socket = try Posix.unixStreamSocket(nonBlocking: false) } catch { throw CenterSocketError(error, path: path) }
        do {
            try Posix.setSendTimeout(socket, timeout)
            try Posix.connect(socket, toPath: path)
            try Posix.setNonBlocking(socket)
        } catch {
            Posix.close(socket)
            switch error.errno {
            case .noSuchFileOrDirectory, .connectionRefused: throw .noServer(path: path)
            case .resourceTemporarilyUnavailable: throw .timedOut(waitingFor: "connection", after: timeout)
            default: throw CenterSocketError(error, path: path)
            }
        }
        let server: PeerCredentials
        do {
            let peer = try Posix.peerCredentials(socket)
            server = PeerCredentials(pid: peer.processID, uid: peer.userID, gid: peer.groupID)
        } catch {
            Posix.close(socket)
            throw CenterSocketError(error, path: path)
        }
        if let reason = trust.refusal(ofServer: server) {
            Posix.close(socket)
            throw .untrusted(path: path, reason: reason)
        }
        return socket
    }

    /// Sends `operation` and waits for its reply.
    /// - Parameters:
    ///   - operation: The request.
    ///   - timeout: How long to wait for the whole exchange.
    /// - Returns: The successful reply.
    /// - Throws: ``CenterSocketError/failed(_:)`` with the server's failure;
    ///   ``CenterSocketError/timedOut(waitingFor:after:)``,
    ///   ``CenterSocketError/connectionClosed(path:)`` or
    ///   ``CenterSocketError/protocolViolation(_:)`` when the exchange did not complete.
    public func perform<Operation: CenterOperation>(
        _ operation: Operation, timeout: Duration = .seconds(30)
    ) throws(CenterSocketError) -> Operation.Reply {
        let deadline = ContinuousClock.now + timeout
        let waitingFor = "reply to \(Operation.name)"
        return try state.withLock { state throws(CenterSocketError) in
            guard !state.closed else { throw .connectionClosed(path: path) }
            let id = state.nextID
            state.nextID += 1
            let frame: [UInt8]
            do {
                frame = try CenterMessageCodec.frame(CenterRequest(id: id, operation: operation.operation))
            } catch {
                throw .failed(CenterFailure(.frameTooLarge, "the request is too large to send: \(error)"))
            }
            do throws(CenterSocketError) {
                try write(frame, to: state.socket, deadline: deadline, timeout: timeout, waitingFor: waitingFor)
            } catch CenterSocketError.connectionClosed {
                // The server hung up first: a refusal it sent (another user) says why.
                if let body = try? readFrame(&state, deadline: .now, timeout: .zero, waitingFor: waitingFor),
                    case .reply(nil, .failure(let failure))? = try? decode(body, as: IgnoredReply.self)
                {
                    throw .failed(failure)
                }
                throw .connectionClosed(path: path)
            }
            while true {
                let body = try readFrame(&state, deadline: deadline, timeout: timeout, waitingFor: waitingFor)
                // The envelope first: a late reply to an earlier request is not read as this one's.
                switch try decode(body, as: IgnoredReply.self) {
                case .reply(let replyID, _) where replyID == id || replyID == nil:
                    switch try decode(body, as: Operation.Reply.self) {
                    case .reply(_, .success(let reply)): return reply
                    case .reply(_, .failure(let failure)): throw .failed(failure)
                    case .malformed(let reason): throw .protocolViolation(reason)
                    case .event, .unknownEvent: throw .protocolViolation("a reply read as an event")
                    }
                case .reply(let replyID?, _) where replyID < id:
                    continue  // the late reply to an earlier request whose wait timed out
                case .reply(let replyID, _):
                    throw .protocolViolation("a reply to request \(replyID ?? 0) came while waiting for \(id)")
                case .event(let event): state.events.append(event)
                case .unknownEvent: continue
                case .malformed(let reason): throw .protocolViolation(reason)
                }
            }
        }
    }

    /// The next event pushed to this connection (a response to a `send` with `"wait": true`),
    /// waiting for it if none has come yet.
    /// - Parameter timeout: How long to wait; `nil` for as long as it takes.
    /// - Throws: ``CenterSocketError/timedOut(waitingFor:after:)``,
    ///   ``CenterSocketError/connectionClosed(path:)`` (the server stopped) or
    ///   ``CenterSocketError/protocolViolation(_:)``.
    public func nextEvent(timeout: Duration? = nil) throws(CenterSocketError) -> CenterEvent {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        return try state.withLock { state throws(CenterSocketError) in
            if !state.events.isEmpty { return state.events.removeFirst() }
            guard !state.closed else { throw .connectionClosed(path: path) }
            while true {
                let body = try readFrame(&state, deadline: deadline, timeout: timeout ?? .zero, waitingFor: "event")
                switch try decode(body, as: IgnoredReply.self) {
                case .event(let event): return event
                case .unknownEvent: continue
                case .reply(nil, .failure(let failure)): throw .failed(failure)
                case .reply(let id?, _) where id < state.nextID: continue  // late: its wait timed out
                case .reply(let id, _): throw .protocolViolation("a reply to request \(id ?? 0) came while waiting for an event")
                case .malformed(let reason): throw .protocolViolation(reason)
                }
            }
        }
    }

    /// Closes the connection; a call blocked on it ends with
    /// ``CenterSocketError/connectionClosed(path:)``. Calling it again does nothing.
    public func close() {
        descriptor.withLock { socket in if let socket { Posix.shutdown(socket) } }
        state.withLock { $0.closed = true }
        descriptor.withLock { socket in
            if let open = socket { Posix.close(open) }
            socket = nil
        }
    }

    // MARK: async

    /// Connects to the server at `path` (the blocking `connect(to:timeout:)` on a thread of
    /// its own).
    public static func connect(to path: String, timeout: Duration = .seconds(5)) async throws(CenterSocketError) -> CenterClient {
        try await offThread { () throws(CenterSocketError) in try connect(to: path, timeout: timeout) }
    }

    /// Sends `operation` and waits for its reply (the blocking `perform(_:timeout:)` on a
    /// thread of its own); cancelling the task shuts the connection.
    public func perform<Operation: CenterOperation>(
        _ operation: Operation, timeout: Duration = .seconds(30)
    ) async throws(CenterSocketError) -> Operation.Reply {
        try await interruptible { () throws(CenterSocketError) in try self.perform(operation, timeout: timeout) }
    }

    /// The next event pushed to this connection (the blocking `nextEvent(timeout:)` on a
    /// thread of its own); cancelling the task shuts the connection.
    public func nextEvent(timeout: Duration? = nil) async throws(CenterSocketError) -> CenterEvent {
        try await interruptible { () throws(CenterSocketError) in try self.nextEvent(timeout: timeout) }
    }

    // MARK: Helpers

    private func interruptible<Value: Sendable>(
        _ body: @escaping @Sendable () throws(CenterSocketError) -> Value
    ) async throws(CenterSocketError) -> Value {
        let result = await withTaskCancellationHandler {
            await Self.offThreadResult(body)
        } onCancel: {
            interrupted.store(true, ordering: .sequentiallyConsistent)
            descriptor.withLock { socket in if let socket { Posix.shutdown(socket) } }
        }
        return try result.get()
    }

    private static func offThread<Value: Sendable>(
        _ body: @escaping @Sendable () throws(CenterSocketError) -> Value
    ) async throws(CenterSocketError) -> Value {
        try await offThreadResult(body).get()
    }

    private static func offThreadResult<Value: Sendable>(
        _ body: @escaping @Sendable () throws(CenterSocketError) -> Value
    ) async -> Result<Value, CenterSocketError> {
        await withCheckedContinuation { continuation in
            do throws(SystemCallError) {
                try SystemThread.detach(name: "notiplay-client") {
                    continuation.resume(returning: Result { () throws(CenterSocketError) in try body() })
                }
            } catch {
                continuation.resume(returning: .failure(CenterSocketError(error, path: "")))
            }
        }
    }

    /// The error for a connection that ended: cancelled if this side shut it.
    private func ended() -> CenterSocketError {
        interrupted.load(ordering: .sequentiallyConsistent) ? .cancelled : .connectionClosed(path: path)
    }

    private func decode<Reply: Decodable & Sendable & Equatable>(
        _ body: [UInt8], as: Reply.Type
    ) throws(CenterSocketError) -> CenterMessageCodec.ServerMessage<Reply> {
        do { return try CenterMessageCodec.decodeServerMessage(body, replyType: Reply.self) } catch {
            throw .protocolViolation(error.description)
        }
    }

    /// Writes all of `frame`, waiting for room until `deadline`.
    private func write(
        _ frame: [UInt8], to socket: FileDescriptor, deadline: ContinuousClock.Instant, timeout: Duration, waitingFor: String
    ) throws(CenterSocketError) {
        var sent = 0
        while sent < frame.count {
            let result = frame.withUnsafeBytes { all in
                Result { () throws(SystemCallError) in try Posix.send(socket, UnsafeRawBufferPointer(rebasing: all[sent...])) }
            }
            switch result {
            case .success(let count?): sent += count
            case .success(nil): try wait(for: .writable, on: socket, until: deadline, timeout: timeout, waitingFor: waitingFor)
            case .failure: throw ended()
            }
        }
    }

    /// The next frame's body, reading until `deadline` (`nil`: no limit).
    private func readFrame(
        _ state: inout State, deadline: ContinuousClock.Instant?, timeout: Duration, waitingFor: String
    ) throws(CenterSocketError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            do {
                if let body = try state.reader.nextFrame() { return body }
            } catch {
                throw .protocolViolation(error.description)
            }
            let socket = state.socket
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemCallError) in try Posix.receive(socket, into: bytes) }
            }
            switch result {
            case .success(let count?) where count > 0:
                buffer.withUnsafeBytes { state.reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            case .success(nil): try wait(for: .readable, on: socket, until: deadline, timeout: timeout, waitingFor: waitingFor)
            default: throw ended()
            }
        }
    }

    private func wait(
        for events: Posix.PollEvents, on socket: FileDescriptor, until deadline: ContinuousClock.Instant?,
        timeout: Duration, waitingFor: String
    ) throws(CenterSocketError) {
        var entries = [Posix.PollEntry(file: socket, events: events)]
        let remaining = deadline.map { $0 - .now }
        if let remaining, remaining <= .zero { throw .timedOut(waitingFor: waitingFor, after: timeout) }
        do { try Posix.poll(&entries, timeout: remaining) } catch { throw CenterSocketError(error, path: path) }
    }
}

/// Any reply, unread: what `CenterClient.nextEvent(timeout:)` decodes replies as.
private struct IgnoredReply: Decodable, Sendable, Equatable {
    package init(from decoder: any Decoder) throws {}
}

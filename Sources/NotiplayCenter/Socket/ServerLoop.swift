// A poll(2) loop written here rather than SwiftNIO: one thread, a few hundred lines, no new
// dependency for a server that moves small frames between processes of one user.
import NotiplaySystem
import Synchronization
import SystemPackage
import NotiplayCenterClient

/// The server's one thread: `poll(2)` over the listening socket, the wakeup pipe and every
/// connection, all non-blocking. It sleeps with no time limit unless a connection has a
/// deadline (a partial frame, a last reply not yet read), so an idle server uses no CPU however
/// many connections are open. Requests go to the handler in tasks; their replies come back
/// through ``ServerCore``'s mailbox and the wakeup pipe.
final class ServerLoop {
    private let core: ServerCore
    private let listener: FileDescriptor
    private let path: String
    private let identity: SocketPlace.Identity
    private var connections: [CenterConnectionID: ServerConnection] = [:]
    private var nextID: UInt64 = 1
    /// Accepting is paused (out of descriptors) until a connection closes or this instant.
    private var acceptPausedUntil: ContinuousClock.Instant?
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)
    /// Bytes read from one connection per turn, so that one busy client cannot hold the rest up.
    private static let readBudget = 1 << 20

    init(core: ServerCore, listener: FileDescriptor, path: String, identity: SocketPlace.Identity) {
        self.core = core
        self.listener = listener
        self.path = path
        self.identity = identity
    }

    /// Serves until asked to stop, then closes everything and removes the socket file.
    func run() {
        var entries: [Posix.PollEntry] = []
        var order: [CenterConnectionID] = []
        while true {
            let now = ContinuousClock.now
            entries.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            if let until = acceptPausedUntil, until <= now { acceptPausedUntil = nil }
            entries.append(.init(file: listener, events: acceptPausedUntil == nil ? .readable : []))
            entries.append(.init(file: core.wakeReadEnd, events: .readable))
            var deadline = acceptPausedUntil
            for (id, connection) in connections {
                entries.append(.init(file: connection.socket, events: connection.interest))
                order.append(id)
                if let due = connection.deadline(timeout: core.configuration.partialFrameTimeout) {
                    deadline = min(deadline ?? due, due)
                }
            }
            do {
                try Posix.poll(&entries, timeout: deadline.map { max($0 - now, .zero) })
            } catch {
                core.report(.failed(call: error.call, errno: error.errno))
                break  // only a bad argument or no memory: nothing to wait for that would mend it
            }
            core.wakeCount.add(1, ordering: .relaxed)
            if entries[1].found.contains(.readable) {
                drainWakeups()
                let (letters, stop) = core.collect()
                if stop { break }
                for letter in letters { deliver(letter) }
            }
            if !entries[0].found.isEmpty { acceptAll() }
            for (index, id) in order.enumerated() where !entries[index + 2].found.isEmpty {
                guard let connection = connections[id] else { continue }
                service(connection, found: entries[index + 2].found)
            }
            expireDeadlines()
        }
        tearDown()
    }

    // MARK: Accepting

    private func acceptAll() {
        while true {
            let socket: FileDescriptor
            do {
                guard let accepted = try Posix.accept(listener) else { return }
                socket = accepted
            } catch {
                core.report(.failed(call: error.call, errno: error.errno))
                if [.tooManyOpenFiles, .tooManyOpenFilesInSystem, .noBufferSpace, .noMemory].contains(error.errno) {
                    // Retried when a connection closes, or in a second: the listener stays
                    // readable meanwhile, and polling it would spin.
                    acceptPausedUntil = .now + .seconds(1)
                }
                return
            }
            let credentials: PeerCredentials
            do {
                let peer = try Posix.peerCredentials(socket)
                credentials = PeerCredentials(pid: peer.processID, uid: peer.userID, gid: peer.groupID)
            } catch {
                core.report(.failed(call: error.call, errno: error.errno))
                Posix.close(socket)
                continue
            }
            if let reason = core.policy.refusal(of: credentials) {
                // Best effort, one try: the socket's buffer is empty, the frame is small.
                let frame = ServerCore.frame(.failure(CenterFailure(.permissionDenied, reason)), to: nil)
                _ = try? frame.withUnsafeBytes { bytes throws(SystemCallError) in try Posix.send(socket, bytes) }
                Posix.close(socket)
                core.report(.refused(credentials, reason: reason))
                continue
            }
            let peer = CenterPeer(connection: CenterConnectionID(rawValue: nextID), credentials: credentials)
            nextID += 1
            connections[peer.connection] = ServerConnection(peer: peer, socket: socket, now: .now)
            core.report(.accepted(peer))
        }
    }

    // MARK: Connections

    /// Reads, writes or notices the end of a connection poll found ready.
    private func service(_ connection: ServerConnection, found: Posix.PollEvents) {
        if found.contains(.invalid) { return close(connection, .failed("the socket is not open")) }
        if !found.isDisjoint(with: [.readable, .hangUp, .error]) {
            if connection.wantsInput {
                readInput(connection)
            } else if !found.isDisjoint(with: [.hangUp, .error]) {
                return close(connection, connection.reader.isMidFrame ? .vanishedMidFrame : .peerClosed)
            }
        }
        guard connections[connection.peer.connection] != nil else { return }
        if found.contains(.writable) { flush(connection) }
        settle(connection)
    }

    private func readInput(_ connection: ServerConnection) {
        var budget = Self.readBudget
        while budget > 0 && connection.wantsInput {
            let received: Int?
            do {
                received = try readBuffer.withUnsafeMutableBytes { buffer throws(SystemCallError) in
                    try Posix.receive(connection.socket, into: buffer)
                }
            } catch {
                return close(connection, connection.reader.isMidFrame ? .vanishedMidFrame : .peerClosed)
            }
            guard let count = received else { break }
            guard count > 0 else {
                if connection.reader.isMidFrame { return close(connection, .vanishedMidFrame) }
                connection.inputEnded = true
                break
            }
            budget -= count
            connection.lastInput = .now
            readBuffer.withUnsafeBytes { connection.reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            do {
                while let frame = try connection.reader.nextFrame() { connection.waiting.append(frame) }
            } catch {
                let failure = CenterFailure(.frameTooLarge, error.description)
                connection.beginClosing(.frameTooLarge, lastFrame: ServerCore.frame(.failure(failure), to: nil), now: .now)
            }
        }
        dispatch(connection)
    }

    /// Hands the next waiting request to the handler, in a task of its own.
    private func dispatch(_ connection: ServerConnection) {
        guard let frame = connection.takeNextRequest(now: .now) else { return }
        let core = core
        let peer = connection.peer
        Task { await core.serve(frame, from: peer) }
    }

    /// Writes what the socket takes now; a peer that is gone is closed.
    private func flush(_ connection: ServerConnection) {
        guard !connection.output.isEmpty else { return }
        do {
            try connection.output.write(to: connection.socket)
        } catch {
            close(connection, .peerClosed)
        }
    }

    /// Closes a connection that has nothing more to do.
    private func settle(_ connection: ServerConnection) {
        guard connections[connection.peer.connection] != nil, connection.isFinished else { return }
        close(connection, connection.closing?.reason ?? .peerClosed)
    }

    private func deliver(_ letter: ServerCore.Letter) {
        switch letter {
        case .replied(let id, let frame, let closeAfter):
            guard let connection = connections[id] else { return }
            connection.finishRequest(reply: frame)
            if closeAfter { connection.beginClosing(.badFrame, lastFrame: nil, now: .now) }
            flush(connection)
            dispatch(connection)
            settle(connection)
        case .push(let id, let frame):
            guard let connection = connections[id], connection.closing == nil else { return }
            connection.queue(frame, afterReplyInFlight: true)
            flush(connection)
            settle(connection)
        }
    }

    private func expireDeadlines() {
        let now = ContinuousClock.now
        let timeout = core.configuration.partialFrameTimeout
        for connection in connections.values {
            guard let due = connection.deadline(timeout: timeout), due <= now else { continue }
            if connection.closing == nil {
                // Best effort, one try: the peer may not be reading.
                let failure = CenterFailure(.timedOut, "part of a frame came, then nothing for \(timeout); closing")
                connection.output.append(ServerCore.frame(.failure(failure), to: nil))
                flush(connection)
            }
            if connections[connection.peer.connection] != nil {
                close(connection, connection.closing?.reason ?? .timedOut)
            }
        }
    }

    private func close(_ connection: ServerConnection, _ reason: CenterSocketServer.CloseReason) {
        guard connections.removeValue(forKey: connection.peer.connection) != nil else { return }
        Posix.close(connection.socket)
        acceptPausedUntil = nil
        core.report(.closed(connection.peer.connection, reason))
    }

    private func drainWakeups() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while (try? bytes.withUnsafeMutableBytes { try Posix.readOnce(core.wakeReadEnd, into: $0) }) ?? 0 > 0 {}
    }

    private func tearDown() {
        for connection in Array(connections.values) { close(connection, .serverStopped) }
        Posix.close(listener)
        SocketPlace.removeIfOurs(path, identity: identity)
        core.report(.stopped)
    }
}

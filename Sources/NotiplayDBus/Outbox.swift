import NotiplaySystem
import Synchronization
import SystemPackage

/// What other threads hand a ``DBusServiceConnection``'s loop thread: replies and signals to send,
/// names to request, the request to stop. Posting wakes the loop's `poll` through a pipe (a byte
/// written to it), so only the loop thread ever calls libdbus for the connection.
///
/// Once the loop has ended the outbox is closed: posting does nothing (a name request fails at
/// once), and the pipe is closed under the same lock that writes to it, so no write can reach a
/// descriptor number reused since.
final class Outbox: Sendable {
    enum Job: Sendable {
        /// The reply to the call `replySerial` from `destination`.
        case reply(replySerial: UInt32, destination: String?, DBusReply)
        case signal(DBusSignal)
        case requestName(String, replace: Bool, CheckedContinuation<Result<Void, DBusNameError>, Never>)
    }

    private struct State {
        var jobs: [Job] = []
        var stopping = false
        var closed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// The pipe's ends (close-on-exec, non-blocking): the loop polls the read end; a post writes a
    /// byte to the other (a full pipe wakes the loop as well).
    private let wakeReadEnd: FileDescriptor
    private let wakeWriteEnd: FileDescriptor

    init() throws(DBusFailure) {
        do {
            (wakeReadEnd, wakeWriteEnd) = try Posix.pipe()
        } catch {
            throw .failed("cannot make the D-Bus loop's wake-up pipe: \(error)")
        }
    }

    /// The descriptor the loop polls for readability.
    var wakeDescriptor: Int32 { wakeReadEnd.rawValue }

    /// Queues `job` for the loop thread; once the outbox is closed, drops it (a name request is
    /// answered with a failure).
    func post(_ job: Job) {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            wake()
            return true
        }
        if !accepted { Self.refuse(job) }
    }

    /// Asks the loop to end: it sends what was posted before, then closes the connection.
    func requestStop() {
        state.withLock { state in
            guard !state.closed else { return }
            state.stopping = true
            wake()
        }
    }

    /// The jobs posted since the last call, and whether a stop was requested (loop thread only).
    func take() -> (jobs: [Job], stopping: Bool) {
        state.withLock { state in
            defer { state.jobs = [] }
            return (state.jobs, state.stopping)
        }
    }

    /// Empties the pipe after `poll` reported it readable (loop thread only).
    func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while let count = try? bytes.withUnsafeMutableBytes({ buffer throws(SystemCallError) in
            try Posix.readOnce(wakeReadEnd, into: buffer)
        }), count == bytes.count {}
    }

    /// Waits until the loop has closed the connection (at once if it has).
    func waitUntilClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let closed = state.withLock { state in
                if !state.closed { state.waiters.append(continuation) }
                return state.closed
            }
            if closed { continuation.resume() }
        }
    }

    /// Closes the outbox (the loop thread at its end, or the connection's initializer when it
    /// fails): returns the jobs still queued, for the loop to send or refuse, and closes the pipe.
    func close() -> [Job] {
        state.withLock { state in
            guard !state.closed else { return [] }
            state.closed = true
            Posix.close(wakeReadEnd)
            Posix.close(wakeWriteEnd)
            defer { state.jobs = [] }
            return state.jobs
        }
    }

    /// Resumes everything waiting for the close (loop thread, once the connection is closed).
    func finishClose() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Answers a job that will never run.
    static func refuse(_ job: Job) {
        if case .requestName(_, _, let continuation) = job {
            continuation.resume(returning: .failure(.failed(.disconnected("the connection is closed"))))
        }
    }

    /// Makes the pipe readable (with the lock held, so never after `close`).
    private func wake() {
        _ = [UInt8(1)].withUnsafeBytes { try? Posix.write(wakeWriteEnd, $0) }
    }
}

/// The one reply a method call gets, sent through the connection from any thread, at once or
/// later. Only the first reply counts; a responder released unanswered replies
/// `org.freedesktop.DBus.Error.Failed` for its handler, so a caller never waits for nothing.
/// Nothing is sent when the caller asked for no reply.
package final class DBusResponder: Sendable {
    private let outbox: Outbox
    private let replySerial: UInt32
    private let destination: String?
    private let wanted: Bool
    private let answered = Atomic(false)

    init(outbox: Outbox, replySerial: UInt32, destination: String?, wanted: Bool) {
        self.outbox = outbox
        self.replySerial = replySerial
        self.destination = destination
        self.wanted = wanted
    }

    /// Sends `reply`, unless a reply was sent before.
    package func reply(_ reply: DBusReply) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing), wanted else { return }
        outbox.post(.reply(replySerial: replySerial, destination: destination, reply))
    }

    deinit {
        if !answered.load(ordering: .acquiring), wanted {
            outbox.post(
                .reply(
                    replySerial: replySerial, destination: destination,
                    .error(.failed("the server did not answer this call"))))
        }
    }
}

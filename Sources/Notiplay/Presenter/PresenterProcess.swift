import Dispatch
package import NotiplaySystem
import Synchronization

/// How the center starts a presenter process: the executable (the running one, which knows the
/// same extension types) and the arguments that make it a presenter, and the apps it presents
/// for (those of app files: their extensions are authors'; the built-in apps' are not). The
/// command line builds it, since only it knows its own commands; the center only runs it.
package struct PresenterLaunch: Sendable {
    /// The program's path.
    package var executable: String
    /// Its arguments, after its name.
    package var arguments: [String]
    /// The apps whose content extensions present in a presenter, by name.
    package var apps: Set<String>

    /// A launch of `executable` with `arguments`, presenting for `apps`.
    package init(executable: String, arguments: [String], apps: Set<String>) {
        self.executable = executable
        self.arguments = arguments
        self.apps = apps
    }
}

/// A presenter process as the center sees it: its id, the socket to it, and what it has sent
/// and not yet been read on the main actor (its replies, and its end).
package final class PresenterProcess: Sendable {
    /// The process's id.
    package let pid: Int32
    /// The socket to it.
    package let channel: PresenterChannel
    private let inbox = Mutex(Inbox())
    private let arrived = DispatchSemaphore(value: 0)

    private struct Inbox {
        var replies: [PresenterReply] = []
        /// How it ended (its exit status, or 128 + a signal), once it has.
        var status: Int32?
        /// Called (on the reading thread) whenever something arrived.
        var notify: (@Sendable () -> Void)?
    }

    /// Starts a presenter as `launch` says.
    package static func start(_ launch: PresenterLaunch) throws(SystemCallError) -> PresenterProcess {
        let (mine, theirs) = try Posix.socketPair()
        let pid: Int32
        do {
            pid = try Posix.spawnChild(launch.executable, arguments: [launch.executable] + launch.arguments, channel: theirs)
        } catch {
            Posix.close(mine)
            Posix.close(theirs)
            throw error
        }
        Posix.close(theirs)
        let process = PresenterProcess(pid: pid, channel: PresenterChannel(socket: mine))
        do {
            try process.channel.startReading(
                PresenterReply.self, name: "notiplay-presenter-\(pid)",
                received: { [process] reply in process.received(reply) },
                ended: { [process] in process.ended(Posix.waitForExit(pid)) })
        } catch {
            process.channel.close()
            _ = Posix.waitForExit(pid)
            throw error
        }
        return process
    }

    private init(pid: Int32, channel: PresenterChannel) {
        self.pid = pid
        self.channel = channel
    }

    deinit {
        Posix.close(channel.socket)
    }

    /// Calls `notify` (on another thread) whenever a reply or the end arrives from now on, and
    /// once now if something waits already.
    package func onArrival(_ notify: @escaping @Sendable () -> Void) {
        let waiting = inbox.withLock { inbox in
            inbox.notify = notify
            return !inbox.replies.isEmpty || inbox.status != nil
        }
        if waiting { notify() }
    }

    /// Everything that arrived, in order, and the exit status once the process has ended.
    package func take() -> (replies: [PresenterReply], status: Int32?) {
        inbox.withLock { inbox in
            let replies = inbox.replies
            inbox.replies = []
            return (replies, inbox.status)
        }
    }

    /// Whether the process has ended.
    package var hasEnded: Bool { inbox.withLock { $0.status != nil } }

    /// Blocks until the reply to request `seq` has arrived, the process has ended, or `limit`
    /// has passed (an extension that does not return): what arrived stays for ``take()``.
    /// - Returns: False when `limit` passed first.
    @discardableResult
    package func wait(for seq: Int, limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            let done = inbox.withLock { inbox in inbox.status != nil || inbox.replies.contains { $0.ack == seq } }
            if done { return true }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(min(seconds, 60) * 1_000_000_000 + attoseconds / 1_000_000_000)))
        }
    }

    /// Ends the process: its socket closes, and it ends when it reads that.
    package func stop() {
        channel.close()
    }

    /// Ends the process at once (SIGKILL): an extension that does not return.
    package func kill() {
        Posix.signal(process: pid, 9)
    }

    private func received(_ reply: PresenterReply) {
        let notify = inbox.withLock { inbox in
            inbox.replies.append(reply)
            return inbox.notify
        }
        arrived.signal()
        notify?()
    }

    private func ended(_ status: Int32) {
        let notify = inbox.withLock { inbox in
            inbox.status = status
            return inbox.notify
        }
        arrived.signal()
        notify?()
    }
}

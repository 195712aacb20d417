@preconcurrency internal import Glibc  // the calls this file wraps
package import SystemPackage

/// Waiting for descriptors: `poll(2)`.
extension Posix {
    /// What `poll(2)` waits for, and what it found.
    package struct PollEvents: OptionSet, Sendable {
        /// The bits `poll(2)` uses (`POLLIN`, `POLLOUT`…).
        package let rawValue: Int16
        /// The events whose bits are `rawValue` (`POLLIN`, `POLLOUT`…).
        package init(rawValue: Int16) { self.rawValue = rawValue }
        /// Bytes (or a connection, or the end of the stream) can be read.
        package static let readable = PollEvents(rawValue: Int16(POLLIN))
        /// Bytes can be written.
        package static let writable = PollEvents(rawValue: Int16(POLLOUT))
        /// The peer hung up (reported whatever was asked).
        package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
        /// An error is pending (reported whatever was asked).
        package static let error = PollEvents(rawValue: Int16(POLLERR))
        /// The descriptor is not open (reported whatever was asked).
        package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    }

    /// One descriptor for ``Posix/poll(_:timeout:)``.
    package struct PollEntry: Sendable {
        /// The descriptor waited for; a negative one is skipped (and finds nothing).
        package var file: FileDescriptor
        /// What to wait for.
        package var events: PollEvents
        /// What the last wait found.
        package var found: PollEvents = []

        /// An entry waiting for `events` on `file`.
        package init(file: FileDescriptor, events: PollEvents) {
            self.file = file
            self.events = events
        }
    }

    /// `poll(2)`: waits until one of `entries` is ready or `timeout` passes (`nil`: no limit;
    /// rounded up to whole milliseconds), and fills in what each found. An interrupted wait
    /// returns with nothing found.
    /// - Returns: How many entries found something (0: the time ran out), or `nil` when a signal
    ///   interrupted the wait (`EINTR`).
    @discardableResult
    package static func poll(_ entries: inout [PollEntry], timeout: Duration?) throws(SystemCallError) -> Int? {
        let milliseconds: Int32
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000  // rounded up
            milliseconds = Int32(clamping: max(total, 0))
        } else {
            milliseconds = -1
        }
        return try poll(&entries, milliseconds: milliseconds)
    }

    /// `poll(2)` with its timeout in milliseconds (-1: no limit), as ``poll(_:timeout:)``.
    @discardableResult
    package static func poll(_ entries: inout [PollEntry], milliseconds: Int32) throws(SystemCallError) -> Int? {
        let count = entries.count
        let status = withUnsafeTemporaryAllocation(of: pollfd.self, capacity: max(count, 1)) { fds -> Int32 in
            for i in 0..<count {
                fds[i] = pollfd(fd: entries[i].file.rawValue, events: entries[i].events.rawValue, revents: 0)
            }
            let status = Glibc.poll(fds.baseAddress, nfds_t(count), milliseconds)
            if status > 0 {
                for i in 0..<count { entries[i].found = PollEvents(rawValue: fds[i].revents) }
            }
            return status
        }
        if status < 0 && errno != EINTR { throw SystemCallError("poll", lastError) }
        if status <= 0 { for i in 0..<count { entries[i].found = [] } }
        return status < 0 ? nil : Int(status)
    }
}

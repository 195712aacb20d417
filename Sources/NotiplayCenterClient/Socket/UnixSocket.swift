// The socket calls the center needs and swift-system leaves out (socket, bind, listen, accept,
// connect, getsockopt(SO_PEERCRED), send, recv, poll), wrapped once, like NotiplaySystem's
// `Posix`: every failure is a `SystemCallError` naming the call.
@preconcurrency internal import Glibc
package import NotiplaySystem
package import SystemPackage

/// Unix stream sockets and `poll(2)`. Calls that may block retry on `EINTR`; a call that would
/// block on a non-blocking socket returns `nil` instead of throwing.
package enum UnixSocket {
    /// The longest socket path `sockaddr_un` holds, in bytes (108 with the terminating zero).
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A new Unix stream socket, close-on-exec, non-blocking if asked.
    package static func stream(nonBlocking: Bool) throws(SystemCallError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return FileDescriptor(rawValue: try Posix.call("socket") { socket(AF_UNIX, type, 0) })
    }

    /// `bind(2)` to `path` (at most ``maximumPathLength`` bytes: check first).
    package static func bind(_ socket: FileDescriptor, to path: String) throws(SystemCallError) {
        try withAddress(path, for: "bind") { address, length throws(SystemCallError) in
            try Posix.call("bind") { Glibc.bind(socket.rawValue, address, length) }
        }
    }

    /// `listen(2)` with the system's largest backlog.
    package static func listen(_ socket: FileDescriptor) throws(SystemCallError) {
        try Posix.call("listen") { Glibc.listen(socket.rawValue, SOMAXCONN) }
    }

    /// `accept(2)`: a connection, made non-blocking and close-on-exec, or `nil` when none
    /// waits. (`accept4`, which would set both at once, is not in Glibc's Swift module; nothing
    /// here forks between the two calls.)
    package static func accept(_ socket: FileDescriptor) throws(SystemCallError) -> FileDescriptor? {
        while true {
            let fd = Glibc.accept(socket.rawValue, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                return FileDescriptor(rawValue: fd)
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case let code: throw SystemCallError("accept", Errno(rawValue: code))
            }
        }
    }

    /// `connect(2)` to `path`. On a non-blocking socket a full backlog throws `EAGAIN`; on a
    /// blocking one the wait is bounded by ``setSendTimeout(_:_:)`` (then `EAGAIN` too).
    package static func connect(_ socket: FileDescriptor, to path: String) throws(SystemCallError) {
        try withAddress(path, for: "connect") { address, length throws(SystemCallError) in
            // Not retried on EINTR: a Unix-socket connect either completed or did not start.
            try Posix.call("connect", retryingInterrupts: false) { Glibc.connect(socket.rawValue, address, length) }
        }
    }

    /// The peer's process, user and group, as they were when it connected (`SO_PEERCRED`).
    package static func peerCredentials(_ socket: FileDescriptor) throws(SystemCallError) -> PeerCredentials {
        // `struct ucred` (pid_t, uid_t, gid_t); Glibc's Swift module does not export it.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        try Posix.call("getsockopt") { getsockopt(socket.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// `send(2)` without `SIGPIPE`: how many bytes went, or `nil` when the socket is full.
    package static func send(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int? {
        while true {
            let sent = Glibc.send(socket.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if sent >= 0 { return sent }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case let code: throw SystemCallError("send", Errno(rawValue: code))
            }
        }
    }

    /// `recv(2)`: how many bytes came (0 at the end of the stream), or `nil` when none wait.
    package static func receive(_ socket: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        while true {
            let received = recv(socket.rawValue, buffer.baseAddress, buffer.count, 0)
            if received >= 0 { return received }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case let code: throw SystemCallError("recv", Errno(rawValue: code))
            }
        }
    }

    /// Makes a descriptor non-blocking (`O_NONBLOCK`).
    package static func setNonBlocking(_ file: FileDescriptor) throws(SystemCallError) {
        let flags = try Posix.call("fcntl") { fcntl(file.rawValue, F_GETFL) }
        try Posix.call("fcntl") { fcntl(file.rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Bounds how long a blocking send, or connect, waits (`SO_SNDTIMEO`).
    package static func setSendTimeout(_ socket: FileDescriptor, _ timeout: Duration) throws(SystemCallError) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(max(seconds, 0)), tv_usec: Int(max(attoseconds, 0) / 1_000_000_000_000))
        if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1 }  // 0 would mean "forever"
        try Posix.call("setsockopt") {
            setsockopt(socket.rawValue, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// `shutdown(2)` of both directions: a thread blocked on the socket wakes up.
    package static func shutdown(_ socket: FileDescriptor) {
        _ = Glibc.shutdown(socket.rawValue, Int32(SHUT_RDWR))
    }

    /// `chmod(2)`.
    package static func setPermissions(_ path: String, _ permissions: FilePermissions) throws(SystemCallError) {
        try Posix.call("chmod") { chmod(path, permissions.rawValue) }
    }

    /// `geteuid(2)`.
    package static var effectiveUserID: UInt32 { geteuid() }

    /// `getpid(2)`.
    package static var processID: Int32 { getpid() }

    // MARK: poll

    /// What `poll(2)` waits for, and what it found.
    package struct PollEvents: OptionSet, Sendable {
        package let rawValue: Int16
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

    /// One descriptor for ``poll(_:timeout:)``.
    package struct PollEntry {
        package var file: FileDescriptor
        package var events: PollEvents
        package var found: PollEvents = []

        package init(file: FileDescriptor, events: PollEvents) {
            self.file = file
            self.events = events
        }
    }

    /// `poll(2)`: waits until one of `entries` is ready or `timeout` passes (`nil`: no limit),
    /// and fills in what each found. An interrupted wait returns with nothing found.
    package static func poll(_ entries: inout [PollEntry], timeout: Duration?) throws(SystemCallError) {
        let milliseconds: Int32
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000  // rounded up
            milliseconds = Int32(clamping: max(total, 0))
        } else {
            milliseconds = -1
        }
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
        if status < 0 && errno != EINTR { throw SystemCallError("poll", Posix.lastError) }
        if status <= 0 { for i in 0..<count { entries[i].found = [] } }
    }

    // MARK: Helpers

    /// Runs `body` with `path` as a `sockaddr_un`; a path too long for one fails as `call`
    /// would (`ENAMETOOLONG`).
    @discardableResult
    private static func withAddress<Result>(
        _ path: String, for call: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> Result
    ) throws(SystemCallError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength, !bytes.contains(0) else { throw SystemCallError(call, .fileNameTooLong) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        return try withUnsafePointer(to: &address) { pointer throws(SystemCallError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemCallError) in
                try body(address, length)
            }
        }
    }
}

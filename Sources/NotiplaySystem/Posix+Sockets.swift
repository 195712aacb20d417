@preconcurrency internal import Glibc  // the calls this file wraps
package import SystemPackage

/// Unix stream sockets: made, bound, listened on, accepted, connected, sent to and received
/// from. Calls that may block retry on `EINTR`; a call that would block on a non-blocking
/// socket returns `nil` instead of throwing.
extension Posix {
    /// The longest socket path `sockaddr_un` holds, in bytes (108 with the terminating zero).
    package static let maximumSocketPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A new Unix stream socket (`socket(2)`), close-on-exec, non-blocking if asked.
    package static func unixStreamSocket(nonBlocking: Bool) throws(SystemCallError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return FileDescriptor(rawValue: try call("socket") { socket(AF_UNIX, type, 0) })
    }

    /// `bind(2)` to `path` (at most ``maximumSocketPathLength`` bytes: check first).
    package static func bind(_ socket: FileDescriptor, toPath path: String) throws(SystemCallError) {
        try withSocketAddress(path, for: "bind") { address, length throws(SystemCallError) in
            try call("bind") { Glibc.bind(socket.rawValue, address, length) }
        }
    }

    /// `listen(2)` with the system's largest backlog.
    package static func listen(_ socket: FileDescriptor) throws(SystemCallError) {
        try call("listen") { Glibc.listen(socket.rawValue, SOMAXCONN) }
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
    package static func connect(_ socket: FileDescriptor, toPath path: String) throws(SystemCallError) {
        try withSocketAddress(path, for: "connect") { address, length throws(SystemCallError) in
            // Not retried on EINTR: a Unix-socket connect either completed or did not start.
            try call("connect", retryingInterrupts: false) { Glibc.connect(socket.rawValue, address, length) }
        }
    }

    /// The peer's process, user and group (`SO_PEERCRED`), as the kernel recorded them: on an
    /// accepted connection, the client's when it connected; on a connected one, the server's when
    /// it called `listen(2)`.
    package static func peerCredentials(
        _ socket: FileDescriptor
    ) throws(SystemCallError) -> (processID: Int32, userID: UInt32, groupID: UInt32) {
        // `struct ucred` (pid_t, uid_t, gid_t); Glibc's Swift module does not export it.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        try call("getsockopt") { getsockopt(socket.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
        return (credentials.pid, credentials.uid, credentials.gid)
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

    /// Bounds how long a blocking send, or connect, waits (`SO_SNDTIMEO`).
    package static func setSendTimeout(_ socket: FileDescriptor, _ timeout: Duration) throws(SystemCallError) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(max(seconds, 0)), tv_usec: Int(max(attoseconds, 0) / 1_000_000_000_000))
        if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1 }  // 0 would mean "forever"
        try call("setsockopt") {
            setsockopt(socket.rawValue, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// `shutdown(2)` of both directions: a thread blocked on the socket wakes up.
    package static func shutdown(_ socket: FileDescriptor) {
        _ = Glibc.shutdown(socket.rawValue, Int32(SHUT_RDWR))
    }

    /// Runs `body` with `path` as a `sockaddr_un`; a path too long for one fails as `call`
    /// would (`ENAMETOOLONG`).
    @discardableResult
    private static func withSocketAddress<Result>(
        _ path: String, for call: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> Result
    ) throws(SystemCallError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumSocketPathLength, !bytes.contains(0) else { throw SystemCallError(call, .fileNameTooLong) }
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

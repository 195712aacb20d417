#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// One read of whatever input is there, which never waits for more.
///
/// `poll()` saying the input is readable does not mean a `read()` returns: the bytes may be gone
/// by then (a `tcsetattr(…, TCSAFLUSH, …)` by the guard or by another program sharing the
/// terminal, or another reader of the same pipe). A plain `read()` then blocks until the next
/// key — or, once the terminal is back in cooked mode, the next line — and the thread that
/// should have stopped never does. So a descriptor that can block (a terminal, a pipe, a
/// socket) is asked first how many bytes wait (`FIONREAD`) and only those are read. Its
/// `O_NONBLOCK` flag is left alone: the open file is shared with the shell, which would see it
/// too.
enum InputRead {
    /// What one read found.
    enum Outcome: Equatable {
        /// `count` bytes were read into the buffer.
        case bytes(Int)
        /// Nothing is there now (the readiness was stale): poll again.
        case nothing
        /// The end of the input: end of file, a hang-up, an error.
        case end
    }

    /// Reads what `fd` holds now, at most `buffer.count` bytes, after `poll()` reported `revents`
    /// for it. Never blocks on a terminal, a pipe or a socket.
    static func available(_ fd: Int32, revents: Int16, into buffer: inout [UInt8]) -> Outcome {
        var waiting: Int32 = 0
        let asked = ioctl(fd, UInt(FIONREAD), &waiting) == 0
        if asked && waiting <= 0 {
            if revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .end }
            // A regular file at its end says 0 and cannot block: its read returns the end.
            guard !canBlock(fd) else { return .nothing }
        }
        let limit = asked && waiting > 0 ? min(Int(waiting), buffer.count) : buffer.count
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, limit) }
        if count > 0 { return .bytes(count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return .nothing }
        // End of file, or EIO once the terminal is gone.
        return .end
    }

    /// Whether a read of `fd` can wait: a terminal or other character device, a pipe, a socket.
    static func canBlock(_ fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK
    }
}

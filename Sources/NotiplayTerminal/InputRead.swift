import NotiplaySystem
import SystemPackage

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
        let file = FileDescriptor(rawValue: fd)
        let waiting = try? Posix.bytesWaiting(file)
        if let waiting, waiting <= 0 {
            if !Posix.PollEvents(rawValue: revents).isDisjoint(with: [.hangUp, .error, .invalid]) { return .end }
            // A regular file at its end says 0 and cannot block: its read returns the end.
            guard !canBlock(fd) else { return .nothing }
        }
        let limit = if let waiting, waiting > 0 { min(waiting, buffer.count) } else { buffer.count }
        let result = buffer.withUnsafeMutableBytes { space in
            Result { () throws(SystemCallError) in
                try Posix.readOnce(file, into: UnsafeMutableRawBufferPointer(rebasing: space[..<limit]))
            }
        }
        switch result {
        case .success(let count) where count > 0: return .bytes(count)
        case .failure(let error) where error.errno == .interrupted || error.errno == .resourceTemporarilyUnavailable:
            return .nothing
        default: return .end  // End of file, or EIO once the terminal is gone.
        }
    }

    /// Whether a read of `fd` can wait: a terminal or other character device, a pipe, a socket.
    static func canBlock(_ fd: Int32) -> Bool {
        guard let type = try? Posix.status(of: FileDescriptor(rawValue: fd)).type else { return false }
        return type == .characterSpecial || type == .fifo || type == .socket
    }
}

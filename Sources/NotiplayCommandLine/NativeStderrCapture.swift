#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Logging
import NotiplayCore

/// Keeps what native libraries print (ALSA, PipeWire, libmpv's dependencies) off the terminal.
///
/// ALSA and PipeWire write straight to file descriptor 2, whatever libmpv's own settings say.
/// ``install(logger:)`` points descriptor 2 at a pipe whose lines go to a logger at debug level,
/// and returns a copy of the original standard error, where the caller (the process's owner, the
/// command line) sends its own messages so that they still reach the user. Call it once, before
/// creating an engine.
enum NativeStderrCapture {
    /// Redirects descriptor 2 into `logger`.
    /// - Returns: A descriptor of the original standard error, or `nil` (and nothing changed) if
    ///   the descriptors cannot be set up.
    @discardableResult
    static func install(logger: Logger) -> Int32? {
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(saved)
            return nil
        }
        guard dup2(fds[1], 2) >= 0 else {
            close(saved); close(fds[0]); close(fds[1])
            return nil
        }
        close(fds[1])
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        let reader = Unmanaged.passRetained(Reader(fd: fds[0], logger: logger))
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, readNativeOutput, reader.toOpaque())
        if status != 0 {
            reader.release()
            dup2(saved, 2)
            close(saved)
            return nil
        }
        pthread_detach(thread)
        return saved
    }

    final class Reader: @unchecked Sendable {
        // Used by the reader thread only.
        let fd: Int32
        let logger: Logger
        init(fd: Int32, logger: Logger) {
            self.fd = fd
            self.logger = logger
        }

        func run() {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: buffer[0..<n])
                while let newline = pending.firstIndex(of: 0x0A) {
                    emit(Array(pending[..<newline]))
                    pending.removeSubrange(...newline)
                }
                if pending.count > 8192 {
                    emit(pending)
                    pending.removeAll()
                }
            }
            if !pending.isEmpty { emit(pending) }
            close(fd)
        }

        private func emit(_ line: [UInt8]) {
            let text = String(decoding: line, as: UTF8.self)
            guard !text.isEmpty else { return }
            logger.debug("\(text)", source: "native")
        }
    }
}

private func readNativeOutput(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let reader = Unmanaged<NativeStderrCapture.Reader>.fromOpaque(context).takeRetainedValue()
    reader.run()
    return nil
}

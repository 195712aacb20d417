#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Logging
import NotiplayCore

/// Keeps what native libraries print (ALSA, PipeWire, libmpv's dependencies) off the terminal.
///
/// ALSA and PipeWire write straight to file descriptor 2, whatever libmpv's own settings say.
/// ``install(logger:)`` points descriptor 2 at a pipe whose lines go to a logger at debug level,
/// and moves ``Diagnostics`` to a copy of the original standard error, so notiplay's own
/// messages still reach the user. Call it once, before creating an engine. Only the command line
/// does: it alone may take descriptor 2 from the process.
enum NativeStderrCapture {
    /// Redirects descriptor 2 into `logger`. Returns `false` (and changes nothing) if the
    /// descriptors cannot be set up.
    @discardableResult
    static func install(logger: Logger) -> Bool {
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { return false }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(saved)
            return false
        }
        guard dup2(fds[1], 2) >= 0 else {
            close(saved); close(fds[0]); close(fds[1])
            return false
        }
        close(fds[1])
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        Diagnostics.shared.fileDescriptor = saved
        let reader = Unmanaged.passRetained(Reader(fd: fds[0], logger: logger))
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, readNativeOutput, reader.toOpaque())
        if status != 0 {
            reader.release()
            dup2(saved, 2)
            Diagnostics.shared.fileDescriptor = 2
            return false
        }
        pthread_detach(thread)
        return true
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

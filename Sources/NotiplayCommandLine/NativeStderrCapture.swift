import Logging
import NotiplayCore
import NotiplaySystem
import SystemPackage

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
        guard let saved = try? Posix.duplicate(.standardError) else { return nil }
        // Both ends block: the reader thread waits in `read`, and what writes to descriptor 2
        // waits while the pipe is full.
        let ends: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            ends = try Posix.pipe()
        } catch {
            Posix.close(saved)
            return nil
        }
        do {
            try Posix.setBlocking(ends.readEnd)
            try Posix.setBlocking(ends.writeEnd)
            try Posix.redirect(.standardError, to: ends.writeEnd)
        } catch {
            Posix.close(saved); Posix.close(ends.readEnd); Posix.close(ends.writeEnd)
            return nil
        }
        Posix.close(ends.writeEnd)
        let reader = Reader(fd: ends.readEnd, logger: logger)
        do {
            try SystemThread.detach(name: "native standard error") { reader.run() }
        } catch {
            try? Posix.redirect(.standardError, to: saved)
            Posix.close(saved)
            Posix.close(ends.readEnd)
            return nil
        }
        return saved.rawValue
    }

    final class Reader: @unchecked Sendable {
        // Used by the reader thread only.
        let fd: FileDescriptor
        let logger: Logger
        init(fd: FileDescriptor, logger: Logger) {
            self.fd = fd
            self.logger = logger
        }

        func run() {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let result = buffer.withUnsafeMutableBytes { space in
                    Result { () throws(SystemCallError) in try Posix.read(fd, into: space) }  // retried when interrupted
                }
                guard let n = try? result.get(), n > 0 else { break }
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
            Posix.close(fd)
        }

        private func emit(_ line: [UInt8]) {
            let text = String(decoding: line, as: UTF8.self)
            guard !text.isEmpty else { return }
            logger.debug("\(text)", source: "native")
        }
    }
}

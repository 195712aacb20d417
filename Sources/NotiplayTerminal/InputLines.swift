import NotiplaySystem
package import SystemPackage

/// The lines of an input (a pipe, a file, a terminal in cooked mode), as they come: read on a
/// thread of its own (a blocking `read` must not hold one of Swift concurrency's threads), and
/// ending at the input's end, its first error, or its first NUL byte: an input holding one is
/// not text (`serve --headless </dev/zero` would otherwise read zeros on a core for ever).
package enum InputLines {
    /// The longest line kept; the rest of a longer line is dropped.
    package static let lineLimit = 4096

    /// Starts reading `input`; the stream gives each line without its newline (a last line
    /// without one too) and ends with the input. The thread ends with the input, or with the
    /// process. `onNotText` is called (on the reading thread) when a NUL byte stops the reading.
    package static func start(
        input: FileDescriptor, onNotText: (@Sendable () -> Void)? = nil
    ) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        do {
            try SystemThread.detach(name: "notiplay-input-lines") {
                var splitter = LineSplitter(limit: lineLimit)
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { space in
                        (try? Posix.read(input, into: space)) ?? 0
                    }
                    if count == 0 { break }
                    let chunk = buffer[0..<count]
                    if let nul = chunk.firstIndex(of: 0) {
                        for line in splitter.take(chunk[..<nul]) { continuation.yield(line) }
                        onNotText?()
                        break
                    }
                    for line in splitter.take(chunk) { continuation.yield(line) }
                }
                if let last = splitter.finish() { continuation.yield(last) }
                continuation.finish()
            }
        } catch {
            continuation.finish()
        }
        return stream
    }
}

/// Bytes in, whole lines out (UTF-8, a broken sequence replaced; `\r\n` taken as `\n`).
package struct LineSplitter: Sendable {
    private let limit: Int
    private var pending: [UInt8] = []

    /// A splitter keeping at most `limit` bytes of a line.
    package init(limit: Int) {
        self.limit = limit
    }

    /// The lines `bytes` completes.
    package mutating func take(_ bytes: some Sequence<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                lines.append(text())
                pending.removeAll(keepingCapacity: true)
            } else if pending.count < limit {
                pending.append(byte)
            }
        }
        return lines
    }

    /// What is left once the input ended: a last line without a newline, if any.
    package mutating func finish() -> String? {
        defer { pending.removeAll() }
        return pending.isEmpty ? nil : text()
    }

    private func text() -> String {
        var line = pending[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.0 server on 127.0.0.1 and an ephemeral port, one thread per connection, for the
/// media-fetching tests. Routes:
/// - `/tone.wav` and `/download` (no extension): the file given at start, with its length.
/// - `/text.wav`: a text file named like audio.
/// - `/moved`: a redirect to `/tone.wav`.
/// - `/slow`: headers and a few bytes of a long body, then nothing until the client goes away,
///   which ``slowClientGone`` reports (``slowClientCame`` reports its first bytes sent).
/// - anything else: 404.
final class LoopbackHTTPServer: Sendable {
    let port: UInt16
    /// Yields once each time a client of `/slow` has closed its connection.
    let slowClientGone: AsyncStream<Void>
    /// Yields once each time a client of `/slow` has been sent the first bytes of its body.
    let slowClientCame: AsyncStream<Void>
    private let gone: AsyncStream<Void>.Continuation
    private let came: AsyncStream<Void>.Continuation
    private let listener: Int32
    private let file: [UInt8]
    private let stopped = Mutex(false)

    struct SocketError: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    init(serving file: [UInt8]) throws {
        self.file = file
        (slowClientGone, gone) = AsyncStream<Void>.makeStream()
        (slowClientCame, came) = AsyncStream<Void>.makeStream()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "bind/listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops accepting connections.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        gone.finish()
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) && request.count < 65_536 {
            let n = recv(client, &buffer, buffer.count, 0)
            guard n > 0 else { return }
            request += buffer[..<n]
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        switch path {
        case "/tone.wav", "/download":
            send(client, "HTTP/1.0 200 OK\r\nContent-Type: audio/wav\r\nContent-Length: \(file.count)\r\n\r\n", file)
        case "/text.wav":
            let text = Array("this is not audio\n".utf8)
            send(client, "HTTP/1.0 200 OK\r\nContent-Type: audio/wav\r\nContent-Length: \(text.count)\r\n\r\n", text)
        case "/moved":
            send(client, "HTTP/1.0 302 Found\r\nLocation: /tone.wav\r\nContent-Length: 0\r\n\r\n", [])
        case "/slow":
            send(client, "HTTP/1.0 200 OK\r\nContent-Type: audio/wav\r\nContent-Length: \(file.count)\r\n\r\n", Array(file.prefix(64)))
            came.yield()
            // Nothing more: wait for the client to hang up.
            while recv(client, &buffer, buffer.count, 0) > 0 {}
            gone.yield()
        default:
            send(client, "HTTP/1.0 404 Not Found\r\nContent-Length: 10\r\n\r\n", Array("not found\n".utf8))
        }
    }

    private func send(_ client: Int32, _ head: String, _ body: [UInt8]) {
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            sent += n
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

import Foundation
import NotiplayCenter
import NotiplayCore
import Synchronization

#if canImport(Glibc)
import Glibc
import NotiplayCenterClient
#endif

/// A connection that sends whatever a test wants (garbage, half frames) and reads frames as
/// JSON. Its waits run on a thread of their own, never on the few threads Swift concurrency
/// runs tasks on (the server's handler needs those).
final class RawConnection: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    private let reader = Mutex(FrameReader())
    private let open = Mutex(true)

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "connect: \(reason)")
        }
    }

    deinit { close() }

    /// Sends all of `bytes` (small amounts: the socket's buffer takes them at once).
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// Sends `json` as one frame.
    func sendFrame(_ json: String) throws {
        try send(FrameWriter.frame(Array(json.utf8)))
    }

    /// Shuts the sending side: the server sees the end of the stream.
    func shutdownWrite() {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    func close() {
        let wasOpen = open.withLock { open in
            defer { open = false }
            return open
        }
        if wasOpen { Glibc.close(fd) }
    }

    /// The next frame, parsed; `nil` at the end of the stream.
    func nextMessage(seconds: Double = 30) async throws -> JSONValue? {
        let fd = fd
        let result: Result<JSONValue?, Failure> = await onOwnThread { [self] in
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                do {
                    if let body = try reader.withLock({ try $0.nextFrame() }) {
                        return Result { try JSONParser.parse(body) }.mapError { Failure(description: "\($0)") }.map { $0 }
                    }
                } catch {
                    return .failure(Failure(description: "\(error)"))
                }
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
                guard poll(&entry, 1, remaining) > 0 else { return .failure(Failure(description: "no frame within \(seconds) s")) }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return .success(nil) }
                reader.withLock { $0.append(buffer[0..<n]) }
            }
        }
        return try result.get()
    }

    /// Whether the server closes the connection (reading and dropping what comes first).
    func isClosedByServer(seconds: Double = 30) async -> Bool {
        while true {
            do {
                guard try await nextMessage(seconds: seconds) != nil else { return true }
            } catch {
                return false
            }
        }
    }
}

/// Runs `body` on a new thread and returns its result.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

extension JSONValue {
    /// `error.code` of a failure reply.
    var errorCode: String? { self["error"]?["code"]?.stringValue }
}

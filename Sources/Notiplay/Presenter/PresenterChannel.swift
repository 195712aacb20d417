#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import NotiplaySystem
package import SystemPackage

/// One end of the socket between the center and a presenter process: frames of a 4-byte
/// big-endian length and that many bytes of JSON, each one message. Writes block (a presenter
/// reads all the time, and so does the server); reads run on a thread of their own.
package final class PresenterChannel: Sendable {
    /// The largest frame read: a card's cells are far smaller; an image (at most 10 MB, its
    /// bytes a JSON array of numbers) fits.
    package static let frameLimit = 64 << 20

    /// The socket.
    package let socket: FileDescriptor

    /// A channel over `socket` (closed by ``close()``).
    package init(socket: FileDescriptor) {
        self.socket = socket
    }

    /// Sends `message`; false when the other end is gone.
    @discardableResult
    package func send(_ message: some Encodable) -> Bool {
        guard let body = try? JSONEncoder().encode(message), body.count <= Self.frameLimit else { return false }
        let count = UInt32(body.count)
        var frame: [UInt8] = [UInt8(count >> 24), UInt8((count >> 16) & 0xff), UInt8((count >> 8) & 0xff), UInt8(count & 0xff)]
        frame.append(contentsOf: body)
        do { try Posix.writeAll(socket, frame) } catch { return false }
        return true
    }

    /// Reads frames until the other end closes (or sends what is not a frame of `Message`):
    /// each one goes to `received`, in order, on a thread of this channel's; `ended` is called
    /// once after the last.
    package func startReading<Message: Decodable & Sendable>(
        _ type: Message.Type, name: String, received: @escaping @Sendable (Message) -> Void,
        ended: @escaping @Sendable () -> Void
    ) throws(SystemCallError) {
        let socket = socket
        try SystemThread.detach(name: name) {
            let decoder = JSONDecoder()
            while let body = Self.readFrame(socket), let message = try? decoder.decode(Message.self, from: Data(body)) {
                received(message)
            }
            ended()
        }
    }

    /// Closes the socket: the other end reads its end.
    package func close() {
        Posix.shutdown(socket)
    }

    private static func readFrame(_ socket: FileDescriptor) -> [UInt8]? {
        guard let header = readExactly(socket, 4) else { return nil }
        let count = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard count <= frameLimit else { return nil }
        return readExactly(socket, count)
    }

    private static func readExactly(_ socket: FileDescriptor, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                (try? Posix.read(socket, into: UnsafeMutableRawBufferPointer(rebasing: buffer[got...]))) ?? 0
            }
            guard n > 0 else { return nil }
            got += n
        }
        return bytes
    }
}

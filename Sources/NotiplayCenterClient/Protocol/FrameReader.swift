/// Cuts a byte stream into frames: a 4-byte big-endian length, then that many bytes.
///
/// Feed it bytes as they arrive, in chunks of any size, with `append(_:)`, then take the
/// complete frames with ``nextFrame()`` until it returns `nil`. Only the length is checked here
/// (against ``CenterProtocol/maximumFrameLength``, as soon as the header is in); the body's
/// UTF-8 and JSON are checked when the message is decoded (``CenterMessageCodec``), off the
/// server's poll thread.
///
/// ```swift
/// var reader = FrameReader()
/// reader.append(chunk)
/// while let frame = try reader.nextFrame() { handle(frame) }
/// ```
public struct FrameReader: Sendable {
    /// The largest frame body accepted.
    public let maximumLength: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes start in `buffer` (consumed bytes are dropped in batches).
    private var start = 0

    /// A reader with nothing buffered.
    /// - Parameter maximumLength: The largest frame body accepted.
    public init(maximumLength: Int = CenterProtocol.maximumFrameLength) {
        self.maximumLength = maximumLength
    }

    /// How many bytes are held that do not make a whole frame yet (or not yet taken).
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether bytes of a frame are held: the peer is in the middle of sending one.
    public var isMidFrame: Bool { bufferedByteCount > 0 }

    /// Adds bytes that arrived.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes that arrived.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame's body, or `nil` when its bytes have not all arrived.
    /// - Throws: ``FrameError/oversized(length:limit:)`` as soon as a header announces too many
    ///   bytes; the reader then stays at that header (the stream is lost).
    public mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        let available = buffer.count - start
        guard available >= CenterProtocol.headerLength else {
            compact()
            return nil
        }
        let length = buffer[start..<start + CenterProtocol.headerLength].reduce(0) { $0 << 8 | Int($1) }
        guard length <= maximumLength else { throw .oversized(length: length, limit: maximumLength) }
        let end = start + CenterProtocol.headerLength + length
        // Not reserved ahead: a peer that announces 16 MiB and sends nothing costs nothing.
        guard buffer.count >= end else {
            compact()
            return nil
        }
        let frame = Array(buffer[(start + CenterProtocol.headerLength)..<end])
        start = end
        compact()
        return frame
    }

    /// Drops consumed bytes once they are at least half the buffer (each byte is moved at
    /// most a few times, whatever the chunking).
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
        } else if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}

/// Writes frames: a body with its 4-byte big-endian length in front.
public enum FrameWriter {
    /// The frame for `body`.
    /// - Throws: ``FrameError/oversized(length:limit:)`` when `body` is longer than
    ///   `maximumLength`.
    public static func frame(
        _ body: some Collection<UInt8>, maximumLength: Int = CenterProtocol.maximumFrameLength
    ) throws(FrameError) -> [UInt8] {
        let length = body.count
        guard length <= maximumLength else { throw .oversized(length: length, limit: maximumLength) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(CenterProtocol.headerLength + length)
        bytes.append(UInt8(truncatingIfNeeded: length >> 24))
        bytes.append(UInt8(truncatingIfNeeded: length >> 16))
        bytes.append(UInt8(truncatingIfNeeded: length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
        bytes.append(contentsOf: body)
        return bytes
    }
}

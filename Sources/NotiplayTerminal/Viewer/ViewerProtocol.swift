/// What a viewer (`notiplay attach`) and the center's viewer socket say to each other.
///
/// Every message is a frame: its kind (one byte), its payload's length (four bytes, big-endian)
/// and the payload. The viewer opens with ``hello(columns:rows:environment:)`` (its size, and the
/// few variables that decide colours and glyphs), then sends what is typed as ``input(_:)`` and
/// each new size as ``size(columns:rows:)``; the server sends frames to draw as ``output(_:)``
/// and, last, ``detached(_:)`` with why the viewer was let go (empty after `q`). A peer that
/// sends anything else — an unknown kind, a payload over the limit, a malformed hello, or no
/// hello first — is refused.
package enum ViewerMessage: Sendable, Equatable {
    /// The viewer's first message: its terminal's size and its colour and locale variables.
    case hello(columns: Int, rows: Int, environment: [String: String])
    /// Bytes typed in the viewer's terminal (keys and mouse reports, as the terminal sent them).
    case input([UInt8])
    /// The viewer's terminal has a new size.
    case size(columns: Int, rows: Int)
    /// Bytes to write to the viewer's terminal.
    case output([UInt8])
    /// The viewer is let go: why (empty after `q`), to say once the terminal is restored.
    case detached(String)

    /// The variables a viewer passes on: the ones colours and glyphs are decided by.
    package static let passedVariables: Set<String> = ["TERM", "COLORTERM", "NO_COLOR", "LANG", "LC_ALL", "LC_CTYPE"]
    /// The largest terminal side accepted.
    package static let largestSide = 10_000
    /// The hello's first bytes: what tells a viewer from anything else that connects.
    static let magic: [UInt8] = Array("notiplay-viewer-1".utf8)

    private enum Kind: UInt8 {
        case hello = 1, input = 2, size = 3, output = 0x81, detached = 0x82
    }

    /// The message as a frame.
    package var frame: [UInt8] {
        let kind: Kind
        var payload: [UInt8]
        switch self {
        case .hello(let columns, let rows, let environment):
            kind = .hello
            payload = Self.magic + Self.side(columns) + Self.side(rows)
            for name in environment.keys.sorted() where Self.passedVariables.contains(name) {
                payload += Array("\(name)=\(environment[name] ?? "")".utf8) + [0]
            }
        case .input(let bytes): (kind, payload) = (.input, bytes)
        case .size(let columns, let rows): (kind, payload) = (.size, Self.side(columns) + Self.side(rows))
        case .output(let bytes): (kind, payload) = (.output, bytes)
        case .detached(let reason): (kind, payload) = (.detached, Array(reason.utf8))
        }
        let count = UInt32(payload.count)
        return [kind.rawValue, UInt8(count >> 24), UInt8((count >> 16) & 0xff), UInt8((count >> 8) & 0xff), UInt8(count & 0xff)]
            + payload
    }

    private static func side(_ value: Int) -> [UInt8] {
        let clamped = UInt16(clamping: max(1, min(value, largestSide)))
        return [UInt8(clamped >> 8), UInt8(clamped & 0xff)]
    }

    /// Decodes one frame's payload of kind `kind`.
    fileprivate static func decode(kind byte: UInt8, payload: ArraySlice<UInt8>) throws(ViewerProtocolError) -> ViewerMessage {
        guard let kind = Kind(rawValue: byte) else { throw .malformed("unknown message kind \(byte)") }
        switch kind {
        case .input: return .input(Array(payload))
        case .output: return .output(Array(payload))
        case .detached: return .detached(String(decoding: payload, as: UTF8.self))
        case .size:
            guard payload.count == 4 else { throw .malformed("a size is 4 bytes, not \(payload.count)") }
            let (columns, rows) = try sides(payload)
            return .size(columns: columns, rows: rows)
        case .hello:
            guard payload.starts(with: magic), payload.count >= magic.count + 4 else { throw .malformed("not a viewer's hello") }
            let (columns, rows) = try sides(payload.dropFirst(magic.count).prefix(4))
            var environment: [String: String] = [:]
            for entry in payload.dropFirst(magic.count + 4).split(separator: 0) {
                guard let text = String(validating: entry, as: UTF8.self), let equals = text.firstIndex(of: "=") else {
                    throw .malformed("a variable of the hello is not NAME=VALUE in UTF-8")
                }
                let name = String(text[..<equals])
                if passedVariables.contains(name) { environment[name] = String(text[text.index(after: equals)...]) }
            }
            return .hello(columns: columns, rows: rows, environment: environment)
        }
    }

    private static func sides(_ bytes: ArraySlice<UInt8>) throws(ViewerProtocolError) -> (Int, Int) {
        let values = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
        guard values.count == 2, values.allSatisfy({ (1...largestSide).contains($0) }) else {
            throw .malformed("a terminal side must be 1 to \(largestSide)")
        }
        return (values[0], values[1])
    }
}

/// Why a viewer connection's bytes were refused.
package enum ViewerProtocolError: Error, Equatable, CustomStringConvertible {
    /// A frame that is not one of ``ViewerMessage``'s.
    case malformed(String)
    /// A frame longer than the limit.
    case tooLarge(Int, limit: Int)

    /// In words.
    package var description: String {
        switch self {
        case .malformed(let reason): reason
        case .tooLarge(let count, let limit): "a message of \(count) bytes (at most \(limit))"
        }
    }
}

/// Cuts a byte stream into ``ViewerMessage``s, refusing frames over a limit before reading them.
package struct ViewerFrameReader {
    private var buffer: [UInt8] = []
    private var start = 0
    /// The longest payload accepted.
    package let limit: Int

    /// A reader refusing payloads over `limit` bytes.
    package init(limit: Int) {
        self.limit = limit
    }

    /// Whether part of a frame waits for the rest.
    package var isMidFrame: Bool { start < buffer.count }

    /// Adds bytes read from the connection.
    package mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, or `nil` until more bytes come.
    package mutating func next() throws(ViewerProtocolError) -> ViewerMessage? {
        guard buffer.count - start >= 5 else { return nil }
        let count = buffer[(start + 1)..<(start + 5)].reduce(0) { $0 << 8 | Int($1) }
        guard count <= limit else { throw .tooLarge(count, limit: limit) }
        guard buffer.count - start - 5 >= count else { return nil }
        let message = try ViewerMessage.decode(kind: buffer[start], payload: buffer[(start + 5)..<(start + 5 + count)])
        start += 5 + count
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 16 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return message
    }
}

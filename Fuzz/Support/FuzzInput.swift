/// An input cut into parts for a target that takes several values: a few leading bytes of
/// settings, then text fields separated by the byte 0xFF (which never occurs in UTF-8, so a
/// field can hold any text, invalid UTF-8 included, read as U+FFFD).
///
/// A field past the end of the input is empty; a setting past the end is 0. Seeds are written
/// the same way: `settings… field 0xFF field 0xFF …`.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    /// The input `bytes`, read from the start.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether everything has been read.
    public var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next field's raw bytes, up to the next 0xFF or the end.
    public mutating func fieldBytes() -> ArraySlice<UInt8> {
        let start = min(index, bytes.count)
        var end = start
        while end < bytes.count, bytes[end] != 0xFF { end += 1 }
        index = end + 1
        return bytes[start..<end]
    }

    /// The next field as text (invalid UTF-8 becomes U+FFFD).
    public mutating func field() -> String {
        String(decoding: fieldBytes(), as: UTF8.self)
    }
}

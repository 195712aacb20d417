/// Why a property list could not be read, and where.
///
/// Errors in the XML form carry a ``line`` and ``column`` (both from 1; the column counts
/// Unicode characters, a tab being one). Errors in the binary form carry the byte ``offset``
/// of the object or field at fault. Errors about the whole file (an empty file, say) carry
/// neither. ``description`` puts the position first, as users see it:
/// `line 3, column 7: unknown element <strin>` or `byte 120: object 4 refers to itself`.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words meant for the person who wrote the file.
    public var message: String
    /// XML form: the line, from 1.
    public var line: Int?
    /// XML form: the column, from 1, counted in characters.
    public var column: Int?
    /// Binary form: the byte offset, from 0.
    public var offset: Int?

    /// An error with a message and, optionally, a position.
    public init(message: String, line: Int? = nil, column: Int? = nil, offset: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line L, column C: message`, `byte N: message` or just the message.
    public var description: String {
        if let line, let column { return "line \(line), column \(column): \(message)" }
        if let line { return "line \(line): \(message)" }
        if let offset { return "byte \(offset): \(message)" }
        return message
    }
}

/// The two forms of property list ``PropertyListParser`` reads.
public enum PropertyListFormat: Sendable {
    /// The XML form (`<?xml …?>` and `<plist version="1.0">`), as Xcode writes `Info.plist`.
    case xml
    /// The binary form (`bplist00`), as built products hold it.
    case binary
}

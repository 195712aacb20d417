/// One thing wrong (or doubtful) in a file: where, by key path or by line and column, and what.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The key path concerned, written as in the file (`aps.alert.title`,
    /// `NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory`), if there is one.
    public var key: String?
    /// For a syntax error, the line (from 1).
    public var line: Int?
    /// For a syntax error, the column (from 1, in characters).
    public var column: Int?
    /// What is wrong, and what was expected.
    public var message: String
    /// What the diagnostic is about, for the few a caller tells apart from the rest (to add a
    /// hint of its own to the message, say); `nil` for most.
    public var cause: Cause?

    /// The diagnostics a caller may tell apart from the rest.
    public enum Cause: Sendable, Hashable {
        /// A payload of `size` bytes (counted without its insignificant whitespace), over the
        /// `limit` it was decoded with (``PayloadDecoder/sizeLimit``).
        case payloadTooLarge(size: Int, limit: Int)
    }

    /// A diagnostic about a key.
    public init(key: String?, _ message: String, cause: Cause? = nil) {
        self.key = key
        self.message = message
        self.cause = cause
    }

    /// A diagnostic at a place in the text.
    public init(line: Int?, column: Int?, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `key: message`, `line L, column C: message` or the message alone, safe to print on a terminal.
    public var description: String {
        let text: String
        if let key {
            text = "\(key): \(message)"
        } else if let line, let column {
            text = "line \(line), column \(column): \(message)"
        } else {
            text = message
        }
        return TerminalText.visible(text)
    }
}

extension Diagnostic {
    /// The warning for a member name written twice in one object, at the repeat:
    /// `line 7, column 3: duplicate key "alert" in aps (first at line 3); the last one is used`.
    init(_ duplicate: JSONDuplicateKey) {
        let place = duplicate.objectPath.isEmpty ? "" : " in \(duplicate.objectPath)"
        self.init(
            line: duplicate.line, column: duplicate.column,
            "duplicate key \"\(duplicate.key)\"\(place) (first at line \(duplicate.firstLine)); the last one is used")
    }
}

/// A file that could not be accepted, with every problem found in it.
public struct InvalidFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as the user named it.
    public var file: String
    /// Whether the file is missing rather than wrong.
    public var isMissing: Bool
    /// The problems that make it invalid; never empty.
    public var errors: [Diagnostic]
    /// Doubts that do not make it invalid.
    public var warnings: [Diagnostic]

    /// An error for `file`.
    public init(file: String, isMissing: Bool = false, errors: [Diagnostic], warnings: [Diagnostic] = []) {
        self.file = file
        self.isMissing = isMissing
        self.errors = errors
        self.warnings = warnings
    }

    /// `file: first error; second error…`.
    public var description: String { notiplayError.description }

    /// The same failure as a ``NotiplayError`` (bad data, or missing input).
    public var notiplayError: NotiplayError {
        NotiplayError(
            isMissing ? .missingInput : .badData, file: file,
            errors.map(\.description).joined(separator: "; "))
    }
}

/// Collects the errors and warnings found while reading a file.
struct DiagnosticLog {
    var errors: [Diagnostic] = []
    var warnings: [Diagnostic] = []

    mutating func error(_ key: String?, _ message: String, cause: Diagnostic.Cause? = nil) {
        errors.append(Diagnostic(key: key, message, cause: cause))
    }

    mutating func warning(_ key: String?, _ message: String) {
        warnings.append(Diagnostic(key: key, message))
    }
}

extension JSONValue {
    /// How a value is described in "found …" messages: its type and, if short, the value.
    var found: String {
        switch self {
        case .string(let s): s.count <= 40 ? "string \(jsonText)" : "a string of \(s.count) characters"
        case .array(let a): "an array of \(a.count)"
        case .object: "an object"
        case .null: "null"
        default: "\(typeName) \(jsonText)"
        }
    }
}

extension PropertyListValue {
    /// How a value is described in "found …" messages.
    var found: String {
        switch self {
        case .string(let s): s.count <= 40 ? "<string>\(s)</string>" : "a <string> of \(s.count) characters"
        case .integer(let i): "<integer>\(i)</integer>"
        case .real(let d): "<real>\(d)</real>"
        case .bool(let b): b ? "<true/>" : "<false/>"
        case .array(let a): "an <array> of \(a.count)"
        case .dictionary: "a <dict>"
        case .date: "a <date>"
        case .data: "<data>"
        }
    }
}

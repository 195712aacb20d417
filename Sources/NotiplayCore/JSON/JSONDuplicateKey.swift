/// A member name written twice in one JSON object. The parser keeps the last value, as most
/// JSON readers (and APNs) do; a reader that cares (payloads, app files) warns about the repeat.
public struct JSONDuplicateKey: Sendable, Equatable {
    /// The repeated member name.
    public var key: String
    /// The object holding it, as a key path (`aps`, `categories[0].actions[1]`); empty for the
    /// top-level object.
    public var objectPath: String
    /// Where the repeat is: its line (from 1).
    public var line: Int
    /// Where the repeat is: its column (from 1, in characters).
    public var column: Int
    /// The line of the first time the key was written in that object.
    public var firstLine: Int

    /// A repeat of `key` in the object at `objectPath`, at `line` and `column`, first written
    /// at `firstLine`.
    public init(key: String, objectPath: String, line: Int, column: Int, firstLine: Int) {
        self.key = key
        self.objectPath = objectPath
        self.line = line
        self.column = column
        self.firstLine = firstLine
    }
}

/// One step of the path from the top of a JSON text to the value being read.
enum JSONPathStep {
    case key(String)
    case index(Int)

    /// The steps written as a key path: `aps.alert`, `categories[0].identifier`.
    static func text(_ steps: [JSONPathStep]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

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

/// Finds the keys written twice, for ``JSONParser/parse(_:duplicateKeys:)``.
///
/// Cheap enough to run on every payload: per member, its line is kept and its key's offset
/// stored (no strings are kept); lines are counted as whitespace is skipped. The path and column
/// of a repeat are worked out only when there is one, each column counted from the last one
/// found, so that many repeats on one long line cost about one pass over it.
struct DuplicateKeyTracker: KeyTracking {
    static var isActive: Bool { true }

    /// The repeats found, as their values ended (a repeat inside a repeated key's value comes
    /// first).
    private var found: [JSONDuplicateKey] = []
    /// The current line, and where it starts.
    private var line = 1
    private var lineStart = 0
    /// The line of each member of the objects being read, innermost object last.
    private var memberLines: [Int] = []
    /// The containers being read, outermost first: for an object the offset of the key being
    /// read (0 or more), for an array the item being read as `-(index + 1)`.
    private var path: [Int] = []
    /// The last column found, to count the next one from.
    private var columnMark = (offset: 0, column: 1, line: 1)

    init() {}

    /// The repeats, in the order of the text.
    var inTextOrder: [JSONDuplicateKey] {
        found.count < 2 ? found : found.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    mutating func lineBreak(lineStart: Int) {
        line += 1
        self.lineStart = lineStart
    }

    mutating func objectStarts() -> Int {
        path.append(0)
        return memberLines.count
    }

    mutating func memberStarts(at offset: Int) -> KeyPlace {
        path[path.count - 1] = offset
        return KeyPlace(line: line, lineStart: lineStart)
    }

    mutating func memberEnds(
        _ key: String, at offset: Int, place: KeyPlace, existing: Int?, mark: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) {
        guard let existing else {
            memberLines.append(place.line)
            return
        }
        found.append(
            JSONDuplicateKey(
                key: key, objectPath: pathText(in: bytes), line: place.line, column: column(of: offset, on: place, in: bytes),
                firstLine: memberLines[mark + existing]))
    }

    mutating func objectEnds(_ mark: Int) {
        path.removeLast()
        memberLines.removeLast(memberLines.count - mark)
    }

    mutating func arrayStarts() { path.append(-1) }

    mutating func arrayItem(_ index: Int) { path[path.count - 1] = -(index + 1) }

    mutating func arrayEnds() { path.removeLast() }

    /// The column of `offset`, a key at `place`: counted on, or back, from the last one found
    /// when that was on the same line, else from the line's start.
    private mutating func column(of offset: Int, on place: KeyPlace, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let line = place.line
        var (from, column) = (place.lineStart, 1)
        if columnMark.line == line { (from, column) = (columnMark.offset, columnMark.column) }
        if offset >= from {
            for i in from..<offset where bytes[i] & 0xC0 != 0x80 { column += 1 }
        } else {
            for i in offset..<from where bytes[i] & 0xC0 != 0x80 { column -= 1 }
        }
        columnMark = (offset, column, line)
        return column
    }

    /// The path to the object being read, as a key path: `aps.alert`, `categories[0].actions[1]`.
    private func pathText(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        for step in path.dropLast() {
            if step < 0 {
                text += "[\(-step - 1)]"
            } else {
                // A key read before, so it reads again.
                var reader = JSONTextParser<NoKeyTracking>(bytes: bytes)
                reader.index = step
                let key = (try? reader.string()) ?? ""
                text += text.isEmpty ? key : "." + key
            }
        }
        return text
    }
}

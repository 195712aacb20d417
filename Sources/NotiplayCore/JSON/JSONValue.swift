/// A JSON value with its types kept: what a payload's custom keys (`userInfo`) hold.
///
/// Integers written without a fraction or exponent that fit in 64 bits stay ``integer(_:)``, so
/// `"badge": 3` is never `3.0`. Objects keep their keys' order for display and re-encoding.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value's JSON type, for messages: `null`, `boolean`, `integer`, `number`, `string`,
    /// `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, if this is one (a number with no fractional part counts).
    public var intValue: Int? {
        switch self {
        case .integer(let i): Int(exactly: i)
        case .number(let d): d.isFinite && d == d.rounded() ? Int(exactly: d) : nil
        default: nil
        }
    }
    /// The number, if this is an integer or a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The object, if this is one.
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    /// The array, if this is one.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// The member `key` of an object; `nil` for other values.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// Compact JSON text, keys in their original order.
    public var jsonText: String {
        var s = ""
        write(to: &s)
        return s
    }

    func write(to s: inout String) {
        switch self {
        case .null: s += "null"
        case .bool(let b): s += b ? "true" : "false"
        case .integer(let i): s += String(i)
        case .number(let d): JSONWriter.appendNumber(d, to: &s)
        case .string(let v): JSONWriter.appendString(v, to: &s)
        case .array(let items):
            s += "["
            for (i, item) in items.enumerated() {
                if i > 0 { s += "," }
                item.write(to: &s)
            }
            s += "]"
        case .object(let object):
            s += "{"
            for (i, (key, value)) in object.enumerated() {
                if i > 0 { s += "," }
                JSONWriter.appendString(key, to: &s)
                s += ":"
                value.write(to: &s)
            }
            s += "}"
        }
    }
}

// Hand-written rather than swift-collections' OrderedDictionary: parsing a 4 KB payload took
// 30.5 µs with it against 35.8 µs (NotiplayBenchmarks --payload-only, medians of alternating runs).

/// A JSON object: members by key, in the order they were written.
///
/// Members live in an array, searched directly while the object is small (as nearly every
/// object in a payload is); past ``indexThreshold`` members a hash index keeps lookups and
/// inserts constant-time, so a hostile object with many keys costs no quadratic time.
public struct JSONObject: Sendable, Hashable, Sequence {
    private var members: [(key: String, value: JSONValue)] = []
    private var index: [String: Int]? = nil

    /// Objects with more members than this get a hash index.
    static let indexThreshold = 16

    /// An empty object.
    public init() {}

    /// An object with these members, in this order; a repeated key keeps its last value.
    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// Where the member named `key` is in the order of the members, if there is one.
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// Sets the value of the member at `position` (from ``position(of:)``), keeping its place.
    mutating func replaceValue(at position: Int, with value: consuming JSONValue) {
        members[position].value = value
    }

    /// Adds a member whose key the object does not have yet (``position(of:)`` said `nil`).
    mutating func appendNew(_ key: consuming String, _ value: consuming JSONValue) {
        members.append((key, value))
        if index != nil {
            index![key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// The member named `key`. Setting `nil` removes it; setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let at = position(of: key) {
                if let newValue {
                    members[at].value = newValue
                } else {
                    members.remove(at: at)
                    rebuildIndex()
                }
            } else if let newValue {
                appendNew(key, newValue)
            }
        }
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(members.count)
        for (i, member) in members.enumerated() { built[member.key] = i }
        index = built
    }

    /// The number of members.
    public var count: Int { members.count }
    /// The member names, in order.
    public var memberNames: [String] { members.map(\.key) }

    public func makeIterator() -> AnyIterator<(String, JSONValue)> {
        var iterator = members.makeIterator()
        return AnyIterator { iterator.next().map { ($0.key, $0.value) } }
    }

    /// Objects are equal when they have the same members, whatever their order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.count == b.count && a.members.allSatisfy { b[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        hashEntriesUnordered(members, count: count, into: &hasher)
    }
}

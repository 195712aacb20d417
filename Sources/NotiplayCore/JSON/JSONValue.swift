import OrderedCollections

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

/// A JSON object: members by key, in the order they were written.
///
/// Members live in an `OrderedDictionary`: lookups and inserts take constant time however many
/// members there are, so a hostile object with many keys costs no quadratic time.
public struct JSONObject: Sendable, Hashable, Sequence {
    private var members: OrderedDictionary<String, JSONValue> = [:]

    /// An empty object.
    public init() {}

    /// An object with these members, in this order; a repeated key keeps its first place and its
    /// last value.
    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// The member named `key`. Setting `nil` removes it; setting a new key appends it; setting a
    /// key it has keeps the member's place.
    public subscript(key: String) -> JSONValue? {
        get { members[key] }
        set { members[key] = newValue }
    }

    /// The number of members.
    public var count: Int { members.count }
    /// The member names, in order.
    public var memberNames: [String] { Array(members.keys) }

    public func makeIterator() -> AnyIterator<(String, JSONValue)> {
        var iterator = members.makeIterator()
        return AnyIterator { iterator.next().map { ($0.key, $0.value) } }
    }

    /// Objects are equal when they have the same members, whatever their order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.hasSameEntries(as: b.members)
    }

    public func hash(into hasher: inout Hasher) {
        members.hashEntries(into: &hasher)
    }
}

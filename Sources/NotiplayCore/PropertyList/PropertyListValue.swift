import OrderedCollections

/// A property-list value, as an `Info.plist` holds it (XML or binary form).
///
/// The types are the property-list types: no `Any`. Dictionaries keep their keys' order, so
/// messages and re-encoded files list keys as the author wrote them.
public enum PropertyListValue: Sendable, Hashable {
    case string(String)
    /// `<integer>`; binary plists' unsigned 64-bit values above `Int64.max` are refused.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`: seconds since 2001-01-01 00:00:00 UTC (Apple's reference date).
    case date(Double)
    /// `<data>`: the decoded bytes.
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary(PropertyListDictionary)

    /// The value's property-list type as the XML form names it, for messages: `string`,
    /// `integer`, `real`, `boolean`, `date`, `data`, `array` or `dictionary`.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The number, if this is an integer or a real.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .real(let d): d
        default: nil
        }
    }
    /// The array, if this is one.
    public var arrayValue: [PropertyListValue]? { if case .array(let a) = self { a } else { nil } }
    /// The dictionary, if this is one.
    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let d) = self { d } else { nil }
    }

    /// The member `key` of a dictionary; `nil` for other values.
    public subscript(key: String) -> PropertyListValue? { dictionaryValue?[key] }
}

/// A property-list dictionary: string keys in the order they were written, each at most once.
public struct PropertyListDictionary: Sendable, Hashable, Sequence {
    private var entries: OrderedDictionary<String, PropertyListValue> = [:]

    /// An empty dictionary.
    public init() {}

    /// A dictionary with these entries, in this order; a repeated key keeps its first place and
    /// its last value.
    public init(_ entries: [(String, PropertyListValue)]) {
        for (key, value) in entries { self[key] = value }
    }

    /// A dictionary with these entries, in this order, taken as they are: the caller has
    /// already made sure no key repeats (the readers do).
    init(uniqueEntries entries: [(key: String, value: PropertyListValue)]) {
        self.entries = OrderedDictionary(uniqueKeysWithValues: entries.lazy.map { ($0.key, $0.value) })
    }

    /// The value for `key`. Setting `nil` removes it; setting a new key appends it; setting a key
    /// it has keeps the entry's place.
    public subscript(key: String) -> PropertyListValue? {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    /// The number of entries.
    public var count: Int { entries.count }
    /// The keys, in order.
    public var keys: [String] { Array(entries.keys) }

    public func makeIterator() -> AnyIterator<(key: String, value: PropertyListValue)> {
        var iterator = entries.makeIterator()
        return AnyIterator { iterator.next() }
    }

    /// Dictionaries are equal when they hold the same entries, whatever their order.
    public static func == (a: PropertyListDictionary, b: PropertyListDictionary) -> Bool {
        a.entries.hasSameEntries(as: b.entries)
    }

    public func hash(into hasher: inout Hasher) {
        entries.hashEntries(into: &hasher)
    }
}

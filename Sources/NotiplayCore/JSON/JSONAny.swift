/// JSON as Apple's `userInfo` gives it — `[AnyHashable: Any]` of Swift values — and back.
///
/// To `Any`: a string is a `String`, an integer an `Int`, a number a `Double`, a boolean a `Bool`,
/// an array `[Any]`, an object `[String: Any]`, and `null` an `Optional<Any>.none`. From `Any`:
/// the same types, any fixed-width integer, `Float`, `Substring`, `[AnyHashable: Any]` with string
/// keys, and ``JSONValue`` or ``JSONObject`` themselves; anything else has no JSON form.
extension JSONValue {
    /// The value as Swift values, the way `userInfo` holds it.
    public var anyValue: Any {
        switch self {
        case .null: return Optional<Any>.none as Any
        case .bool(let b): return b
        case .integer(let i): return Int(exactly: i) ?? Double(i)
        case .number(let d): return d
        case .string(let s): return s
        case .array(let items): return items.map(\.anyValue)
        case .object(let object): return object.stringKeyedDictionary
        }
    }

    /// A Swift value's JSON form, or `nil` when it has none.
    public init?(any value: Any) {
        switch value {
        case let v as JSONValue: self = v
        case let v as JSONObject: self = .object(v)
        case let v as Bool: self = .bool(v)
        case let v as String: self = .string(v)
        case let v as Substring: self = .string(String(v))
        case let v as Double: self = v.isFinite ? .number(v) : .null
        case let v as Float: self = v.isFinite ? .number(Double(v)) : .null
        case let v as any BinaryInteger:
            guard let i = Int64(exactly: v) else { return nil }
            self = .integer(i)
        case let v as [Any]:
            var items: [JSONValue] = []
            for item in v {
                guard let json = JSONValue(any: item) else { return nil }
                items.append(json)
            }
            self = .array(items)
        case let v as [String: Any]:
            guard let object = JSONObject(anyDictionary: v, strict: true) else { return nil }
            self = .object(object)
        case let v as [AnyHashable: Any]:
            guard let object = JSONObject(anyDictionary: v, strict: true) else { return nil }
            self = .object(object)
        default:
            if case Optional<Any>.none = value { self = .null } else { return nil }
        }
    }
}

extension JSONObject {
    /// The members as Apple's `userInfo` dictionary.
    public var anyDictionary: [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, value) in self { result[key] = value.anyValue }
        return result
    }

    /// The members as a `[String: Any]` (a nested object's form).
    var stringKeyedDictionary: [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in self { result[key] = value.anyValue }
        return result
    }

    /// An object from Apple's `userInfo` form: members sorted by key; a member whose key is not a
    /// string or whose value has no JSON form is left out.
    public init(anyDictionary dictionary: [AnyHashable: Any]) {
        self = JSONObject(anyDictionary: dictionary, strict: false) ?? JSONObject()
    }

    /// As ``init(anyDictionary:)``; with `strict`, `nil` when any member would be left out.
    init?<Key: Hashable>(anyDictionary dictionary: [Key: Any], strict: Bool) {
        self.init()
        let members = dictionary.compactMap { key, value -> (String, Any)? in
            if let key = key as? String { return (key, value) }
            if let key = AnyHashable(key).base as? String { return (key, value) }
            return nil
        }
        if strict && members.count != dictionary.count { return nil }
        for (key, value) in members.sorted(by: { $0.0 < $1.0 }) {
            guard let json = JSONValue(any: value) else {
                if strict { return nil }
                continue
            }
            self[key] = json
        }
    }
}

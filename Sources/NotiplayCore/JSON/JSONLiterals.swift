/// JSON written as Swift literals, so that an app fills `userInfo` as on iOS:
///
/// ```swift
/// content.userInfo = ["customNumber": 33, "tags": ["a", "b"], "ratio": 0.5, "urgent": true]
/// ```
/// An integer literal is ``JSONValue/integer(_:)``, a literal with a fraction
/// ``JSONValue/number(_:)``. `nil` is not a literal of ``JSONValue`` (it would be ambiguous with
/// an absent member); write ``JSONValue/null``.
extension JSONValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// An integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A number with a fraction.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

/// An object written as a dictionary literal, members in the order written (a repeated key
/// keeps its last value).
extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with these members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}

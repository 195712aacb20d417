import Notiplay

/// Reading a payload's custom keys (`userInfo`) without trusting them: every accessor says what
/// was found when it is not what the sample wants, so the view can show a clear placeholder.
enum PayloadField {
    /// What a key held, when it was not usable.
    enum Problem: Error, Equatable {
        /// The key is absent (or `null`).
        case missing
        /// The key holds something else; `found` describes it for people.
        case unusable(found: String)
    }

    /// The non-empty string at `key`, cut to `limit` characters.
    static func string(_ info: JSONObject, _ key: String, limit: Int = 200) -> Result<String, Problem> {
        guard let value = info[key], value != .null else { return .failure(.missing) }
        guard let text = value.stringValue else { return .failure(.unusable(found: describe(value))) }
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { return .failure(.unusable(found: "an empty string")) }
        return .success(trimmed.count > limit ? String(trimmed.prefix(limit)) + "…" : trimmed)
    }

    /// The finite number at `key`, within `range`.
    static func number(_ info: JSONObject, _ key: String, in range: ClosedRange<Double>) -> Result<Double, Problem> {
        guard let value = info[key], value != .null else { return .failure(.missing) }
        guard let number = value.doubleValue, number.isFinite else { return .failure(.unusable(found: describe(value))) }
        guard range.contains(number) else { return .failure(.unusable(found: "\(describe(value)), out of range")) }
        return .success(number)
    }

    /// A short description of a JSON value for messages: `the string "abc"`, `the number 3.5`, `an array`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .integer(let i): return "the integer \(i)"
        case .number(let d): return "the number \(d)"
        case .string(let s): return "the string \"\(s.count > 24 ? String(s.prefix(24)) + "…" : s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension String {
    /// Without spaces, tabs and line breaks at either end.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// `m:ss` (or `h:mm:ss`) for a number of seconds; negative or not finite counts as 0.
func clockText(_ seconds: Double) -> String {
    let total = seconds.isFinite ? Int(max(0, min(seconds, 359_999)).rounded(.down)) : 0
    let s = total % 60
    let m = (total / 60) % 60
    let h = total / 3_600
    let ss = s < 10 ? "0\(s)" : "\(s)"
    if h > 0 { return "\(h):\(m < 10 ? "0" : "")\(m):\(ss)" }
    return "\(m):\(ss)"
}

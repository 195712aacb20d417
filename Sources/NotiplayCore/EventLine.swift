/// A value in an event line or any JSON we write ourselves.
public enum JSONScalar: Sendable, Equatable {
    /// A string, escaped on output.
    case string(String)
    /// A number; non-finite values are written as `null`.
    case number(Double)
    /// An integer.
    case integer(Int)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
}

/// One event as a line of JSON: `{"event": NAME, "t": SECONDS, ...details}`.
///
/// Fields keep the order they were given in, so `event` and `t` always come first.
public struct EventLine: Sendable, Equatable {
    /// The event's name, for example `playback`.
    public var name: String
    /// Monotonic seconds since the session started.
    public var t: Double
    /// The event's details, in order.
    public var fields: [(String, JSONScalar)]

    /// Creates an event line.
    public init(_ name: String, t: Double, _ fields: [(String, JSONScalar)] = []) {
        self.name = name
        self.t = t
        self.fields = fields
    }

    /// The line as compact JSON, without a trailing newline.
    public var json: String {
        var s = "{\"event\":"
        JSONWriter.appendString(name, to: &s)
        s += ",\"t\":"
        JSONWriter.appendNumber((t * 1_000_000).rounded() / 1_000_000, to: &s)
        for (key, value) in fields {
            s += ","
            JSONWriter.appendString(key, to: &s)
            s += ":"
            JSONWriter.append(value, to: &s)
        }
        s += "}"
        return s
    }

    public static func == (a: EventLine, b: EventLine) -> Bool {
        a.name == b.name && a.t == b.t && a.fields.map(\.0) == b.fields.map(\.0)
            && a.fields.map(\.1) == b.fields.map(\.1)
    }
}

/// Writes JSON text; used where key order matters or Foundation is not wanted.
public enum JSONWriter {
    /// Appends `value` as JSON.
    public static func append(_ value: JSONScalar, to s: inout String) {
        switch value {
        case .string(let v): appendString(v, to: &s)
        case .number(let v): appendNumber(v, to: &s)
        case .integer(let v): s += String(v)
        case .bool(let v): s += v ? "true" : "false"
        case .null: s += "null"
        }
    }

    /// Appends a number; integral values are written without a fraction, non-finite as `null`.
    public static func appendNumber(_ v: Double, to s: inout String) {
        if !v.isFinite {
            s += "null"
        } else if v == v.rounded(), abs(v) < 1e15 {
            s += String(Int64(v))
        } else {
            s += String(v)
        }
    }

    /// Appends `v` as a quoted JSON string, escaping quotes, backslashes and every scalar
    /// ``mustEscape(_:)`` names.
    public static func appendString(_ v: String, to s: inout String) {
        s += "\""
        for scalar in v.unicodeScalars {
            switch scalar {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            default:
                if mustEscape(scalar.value) { appendEscape(scalar.value, to: &s) } else { s.unicodeScalars.append(scalar) }
            }
        }
        s += "\""
    }

    /// Whether notiplay writes the scalar `v` as `\uXXXX` in every JSON text it writes, although
    /// JSON allows some of them raw: C0 and C1 controls and DEL (a terminal acts on them), the
    /// line and paragraph separators (JavaScript reads them as line ends), and bidirectional
    /// controls (they make a line shown on a terminal appear to say something else).
    public static func mustEscape(_ v: UInt32) -> Bool {
        v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || TerminalText.isBidiControl(v)
    }

    /// `json`, JSON text written by someone else (a stored payload, Foundation's encoder), with
    /// every scalar ``mustEscape(_:)`` names written as `\uXXXX`. Valid JSON holds such a scalar
    /// only inside a string, where the escape means the same (tabs and line breaks, which it holds
    /// only between tokens, stay); text without any is returned as it is.
    public static func escapingUnsafeScalars(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { mustEscapeInText($0.value) }) else { return json }
        var s = ""
        s.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            if mustEscapeInText(scalar.value) { appendEscape(scalar.value, to: &s) } else { s.unicodeScalars.append(scalar) }
        }
        return s
    }

    private static func mustEscapeInText(_ v: UInt32) -> Bool {
        v != 0x09 && v != 0x0A && v != 0x0D && mustEscape(v)
    }

    private static func appendEscape(_ v: UInt32, to s: inout String) {
        let hex = String(v, radix: 16)
        s += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

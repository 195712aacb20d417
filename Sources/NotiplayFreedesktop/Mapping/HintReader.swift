internal import NotiplayCore

/// Reads hints by the type the spec gives them, noting every hint of the wrong type as a
/// warning (keyed `hints.NAME`) and ignoring it.
struct HintReader {
    let hints: [String: HintValue]
    var warnings: [Diagnostic] = []

    init(_ hints: [String: HintValue]) {
        self.hints = hints
    }

    /// The first of `names` present: its name and value.
    func first(_ names: [String]) -> (name: String, value: HintValue)? {
        for name in names { if let value = hints[name] { return (name, value) } }
        return nil
    }

    /// A string hint (the first of `names` present); a value of another type is a warning.
    mutating func string(_ names: String...) -> String? {
        guard let (name, value) = first(names) else { return nil }
        if case .string(let text) = value { return text }
        wrongType(name, expected: "a string (s)", value)
        return nil
    }

    /// A boolean hint. Integers are taken too (`0` false, anything else true), as
    /// `notify-send -h int:transient:1` sends them; a value of another type is a warning.
    mutating func flag(_ name: String) -> Bool? {
        guard let value = hints[name] else { return nil }
        if case .bool(let flag) = value { return flag }
        if let number = value.integerValue { return number != 0 }
        if case .uint = value { return true }  // past Int64: not 0
        wrongType(name, expected: "a boolean (b)", value)
        return nil
    }

    /// `urgency`: a byte, 0 low, 1 normal, 2 critical. Another integer type is read with a
    /// warning; any other type, or a number past 2, is a warning and `nil`.
    mutating func urgency() -> Int64? {
        let name = "urgency"
        guard let value = hints[name] else { return nil }
        guard let number = value.integerValue else {
            if case .uint(let big) = value {
                warn(name, "expected 0 (low), 1 (normal) or 2 (critical); found \(big); normal is used")
            } else {
                wrongType(name, expected: "a byte (y): 0 low, 1 normal, 2 critical", value)
            }
            return nil
        }
        if case .byte = value {} else {
            warn(name, "expected a byte (y); found \(value.typeDescription) \(number), read as a byte")
        }
        guard (0...2).contains(number) else {
            warn(name, "expected 0 (low), 1 (normal) or 2 (critical); found \(number); normal is used")
            return nil
        }
        return number
    }

    mutating func wrongType(_ name: String, expected: String, _ value: HintValue) {
        warn(name, "expected \(expected); found \(value.typeDescription); the hint is ignored")
    }

    mutating func warn(_ name: String, _ message: String) {
        warnings.append(Diagnostic(key: "hints.\(name)", message))
    }
}

/// A JSON syntax error, with the line and column (both from 1; the column counts characters).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser that says exactly where and what is wrong.
///
/// It refuses what APNs refuses — comments, trailing commas, single quotes, bare words,
/// unescaped control characters, invalid UTF-8, lone surrogates, numbers out of range — and
/// nesting deeper than ``maximumDepth``, which it refuses long before its recursion could
/// exhaust a thread's stack.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// Parses one JSON text (a UTF-8 byte-order mark is skipped).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var parser = JSONTextParser<NoKeyTracking>(bytes: buffer)
            return try parser.document()
        }
    }

    /// Parses one JSON text from a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON text, as ``parse(_:)-([UInt8])`` does, and adds each member name written
    /// twice in one object to `duplicateKeys`, in the order of the text (the last value is kept).
    /// When the text does not parse, nothing is added.
    public static func parse(_ bytes: [UInt8], duplicateKeys: inout [JSONDuplicateKey]) throws(JSONSyntaxError) -> JSONValue {
        let (value, found) = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var parser = JSONTextParser<DuplicateKeyTracker>(bytes: buffer)
            return (try parser.document(), parser.tracking.inTextOrder)
        }
        duplicateKeys += found
        return value
    }
}

/// What the parser tells about the members it reads as it goes: the plain parse's
/// ``NoKeyTracking`` does nothing (its empty hooks compile away), ``DuplicateKeyTracker`` finds
/// the keys written twice.
protocol KeyTracking {
    /// Whether the hooks do anything (the plain parse skips the work they need).
    static var isActive: Bool { get }
    init()
    /// A line break in whitespace; the next line starts at `lineStart`.
    mutating func lineBreak(lineStart: Int)
    /// An object with members begins; the mark is given back to ``objectEnds(_:)``.
    mutating func objectStarts() -> Int
    /// A member whose key starts at `offset`; its value comes next. Returns where the key is,
    /// for ``memberEnds(_:at:place:existing:mark:in:)``.
    mutating func memberStarts(at offset: Int) -> KeyPlace
    /// The member's value has been read; `existing` is the position of the same key earlier in
    /// the object (see ``JSONObject/position(of:)``).
    mutating func memberEnds(
        _ key: String, at offset: Int, place: KeyPlace, existing: Int?, mark: Int, in bytes: UnsafeBufferPointer<UInt8>)
    /// The object begun with `mark` ends.
    mutating func objectEnds(_ mark: Int)
    /// An array with items begins.
    mutating func arrayStarts()
    /// Item `index` of the array comes next.
    mutating func arrayItem(_ index: Int)
    /// The array ends.
    mutating func arrayEnds()
}

/// The line of a key, and the offset that line starts at.
struct KeyPlace {
    var line: Int
    var lineStart: Int
}

/// No tracking: the plain parse.
struct NoKeyTracking: KeyTracking {
    static var isActive: Bool { false }
    @inline(__always) mutating func lineBreak(lineStart: Int) {}
    @inline(__always) mutating func objectStarts() -> Int { 0 }
    @inline(__always) mutating func memberStarts(at offset: Int) -> KeyPlace { KeyPlace(line: 0, lineStart: 0) }
    @inline(__always) mutating func memberEnds(
        _ key: String, at offset: Int, place: KeyPlace, existing: Int?, mark: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) {}
    @inline(__always) mutating func objectEnds(_ mark: Int) {}
    @inline(__always) mutating func arrayStarts() {}
    @inline(__always) mutating func arrayItem(_ index: Int) {}
    @inline(__always) mutating func arrayEnds() {}
}

/// The parser itself, generic over what it tracks so that the plain parse pays nothing for it.
struct JSONTextParser<Tracking: KeyTracking> {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var tracking = Tracking()

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw error("the file is empty; expected a JSON value") }
        let value = try self.value(depth: 0)
        skipSpace()
        if index < bytes.count { throw error("unexpected \(describe(index)) after the end of the JSON value") }
        return value
    }

    // MARK: Values

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "'"): throw error("strings must use double quotes, not single quotes")
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
        default: throw error("unexpected \(describe(index)); expected a value")
        }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        index += 1  // {
        var object = JSONObject()
        skipSpace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            return .object(object)
        }
        let mark = tracking.objectStarts()
        while true {
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object") }
            if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "/") { throw error("comments are not allowed in JSON") }
                throw error("unexpected \(describe(index)); expected a member name in double quotes")
            }
            let keyStart = index
            let key = try string()
            let keyPlace = tracking.memberStarts(at: keyStart)
            skipSpace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the member name \"\(key)\"") }
            index += 1
            skipSpace()
            let value = try value(depth: depth)
            if Tracking.isActive {
                let existing = object.position(of: key)
                tracking.memberEnds(key, at: keyStart, place: keyPlace, existing: existing, mark: mark, in: bytes)
                if let existing { object.replaceValue(at: existing, with: value) } else { object.appendNew(key, value) }
            } else {
                object[key] = value
            }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object; expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                tracking.objectEnds(mark)
                return .object(object)
            case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
            default: throw error("unexpected \(describe(index)); expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        index += 1  // [
        var items: [JSONValue] = []
        skipSpace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            return .array(items)
        }
        tracking.arrayStarts()
        while true {
            skipSpace()
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'") }
            tracking.arrayItem(items.count)
            items.append(try value(depth: depth))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file inside an array; expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                tracking.arrayEnds()
                return .array(items)
            case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
            default: throw error("unexpected \(describe(index)); expected ',' or ']'")
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        guard index + count <= bytes.count, (0..<count).allSatisfy({ bytes[index + $0] == start[$0] }) else {
            throw error("unexpected \(describe(index)); expected a value (true, false, null, a number, a string, an array or an object)")
        }
        index += count
    }

    // MARK: Helpers

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0D, 0x09: index += 1
            case 0x0A:
                index += 1
                tracking.lineBreak(lineStart: index)
            default: return
            }
        }
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    func describe(_ at: Int) -> String {
        guard at < bytes.count else { return "end of file" }
        let byte = bytes[at]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
    }

    /// An error at the current position.
    func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        let end = min(index, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<end where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(line: line, column: column, message: message)
    }
}
